// Strong ETags on every successful GET with a body, and 304 when the client already
// has it. The tag is a hash of the bytes sent with the request's own origin left out:
// for one origin it changes exactly when the bytes do, and the same state gets the same
// tag whatever address the service is reached at, so recordings of it are reproducible.
// Download links are left out too: each read of a file gets a fresh single-use link, yet
// the file is the same, and so must be its tag (or If-None-Match could never hold).
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DOWNLOAD_PREFIX } from './downloads.js';
import { requestOrigin } from './request-origin.js';

const DOWNLOAD_LINK = new RegExp(`${DOWNLOAD_PREFIX}[0-9a-f]+`, 'g');

export function entityTag(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('hex').slice(0, 40)}"`;
}

/** If-None-Match uses weak comparison: W/ prefixes are ignored, `*` matches any tag. */
export function matchesIfNoneMatch(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  return header
    .split(',')
    .map((entry) => entry.trim().replace(/^W\//, ''))
    .some((entry) => entry === '*' || entry === tag);
}

export async function etagOnSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const cacheable = (request.method === 'GET' || request.method === 'HEAD') && reply.statusCode === 200;
  if (!cacheable || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
  const stable = payload.toString().split(requestOrigin(request)).join('').replace(DOWNLOAD_LINK, DOWNLOAD_PREFIX);
  const tag = entityTag(stable);
  reply.header('etag', tag);
  if (!matchesIfNoneMatch(request.headers['if-none-match'], tag) || request.faults.on('etag.if-none-match-ignored')) return payload;
  reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  return null;
}
