// Strong ETags on every successful GET with a body, and 304 when the client already
// has it. The tag is a hash of the bytes sent with the request's own origin left out:
// for one origin it changes exactly when the bytes do, and the same state gets the same
// tag whatever address the service is reached at, so recordings of it are reproducible.
// Download links are left out too: each read of a file gets a fresh single-use link, yet
// the file is the same, and so must be its tag (or If-None-Match could never hold).
import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DOWNLOAD_PREFIX } from './downloads.js';
import { requestOrigin } from './request-origin.js';

const DOWNLOAD_LINK = new RegExp(`${DOWNLOAD_PREFIX}[0-9a-f]+`, 'g');

export function entityTag(body: string | Buffer): string {
  return `"${hash('sha256', body).slice(0, 40)}"`;
}

/** If-None-Match uses weak comparison: W/ prefixes are ignored, `*` matches any tag. */
export function matchesIfNoneMatch(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  return header
    .split(',')
    .map((entry) => entry.trim().replace(/^W\//, ''))
    .some((entry) => entry === '*' || entry === tag);
}

/**
 * The tag of an answer's body reached at `origin`. Bytes (raw file contents, archives) are
 * hashed as they are: the service writes no URL into them, and decoding them as text first
 * would give different bodies one tag (every invalid UTF-8 sequence reads as U+FFFD).
 */
export function bodyTag(payload: string | Buffer, origin: string): string {
  if (typeof payload !== 'string') return entityTag(payload);
  const text = payload.replaceAll(origin, '');
  return entityTag(text.includes(DOWNLOAD_PREFIX) ? text.replace(DOWNLOAD_LINK, DOWNLOAD_PREFIX) : text);
}

export async function etagOnSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const cacheable = (request.method === 'GET' || request.method === 'HEAD') && reply.statusCode === 200;
  if (!cacheable || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
  const tag = bodyTag(payload, requestOrigin(request));
  reply.header('etag', tag);
  if (!matchesIfNoneMatch(request.headers['if-none-match'], tag) || request.faults.on('etag.if-none-match-ignored')) return payload;
  reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  return null;
}
