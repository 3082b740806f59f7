// Strong ETags on every successful GET with a body, and 304 when the client already
// has it. The tag is a hash of the bytes sent with the request's own origin left out:
// for one origin it changes exactly when the bytes do, and the same state gets the same
// tag whatever address the service is reached at, so recordings of it are reproducible.
// Download links are left out too: each read of a file gets a fresh single-use link, yet
// the file is the same, and so must be its tag (or If-None-Match could never hold).
//
// Decisions where the spec is silent (it lists 304 "not modified" for some endpoints and
// says nothing of ETag; conditional.not-modified-304): every 200 GET carries a strong tag
// and If-None-Match is honoured everywhere. The etag.weak variation sends weak tags
// (W/"…"), as services that re-serialise their answers do; If-None-Match compares weakly
// either way (RFC 9110 §13.1.2), so a client sending back what it got gets its 304. The
// etag.no-conditional-requests variation supports no conditional requests at all: no ETag,
// and If-None-Match is never evaluated (every GET answered in full), which the spec allows
// as it never names a validator, even where it lists 304.
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
  const known = recent.get(payload.length);
  if (known !== undefined && known.body === payload && known.origin === origin) return known.tag;
  const text = payload.replaceAll(origin, '');
  const tag = entityTag(text.includes(DOWNLOAD_PREFIX) ? text.replace(DOWNLOAD_LINK, DOWNLOAD_PREFIX) : text);
  if (payload.length <= RECENT_MAX_LENGTH) {
    if (recent.size >= RECENT_LIMIT) recent.clear();
    recent.set(payload.length, { body: payload, origin, tag });
  }
  return tag;
}

// The tags of recent text bodies, one per length: a client polling an unchanged resource (what
// conditional requests are for) is sent the same bytes again, and comparing them with the body
// remembered (a memcmp) costs a fifth of cutting the origin and hashing (1 µs against 5 for a
// 3.5 KB body). Keyed by length, not by the body: a Map keyed by a fresh string hashes all of
// it, which costs more than the tag (measured). Two bodies of one length take turns, each
// computed as if nothing were remembered. At most 256 bodies of at most 64 KiB are held.
const RECENT_LIMIT = 256;
const RECENT_MAX_LENGTH = 64 * 1024;
const recent = new Map<number, { body: string; origin: string; tag: string }>();

export function etagOnSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  const cacheable = (request.method === 'GET' || request.method === 'HEAD') && reply.statusCode === 200;
  if (!cacheable || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
  if (request.variants.on('etag.no-conditional-requests')) return payload;
  const strong = bodyTag(payload, requestOrigin(request));
  const tag = request.variants.on('etag.weak') ? `W/${strong}` : strong;
  reply.header('etag', tag);
  if (!matchesIfNoneMatch(request.headers['if-none-match'], strong)) return payload;
  reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  return null;
}
