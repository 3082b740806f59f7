// The match key of a request: method, path, query as a multiset, the allowlisted headers
// and the body compared by meaning (JSON deep-equal with keys sorted, form fields as a
// multiset, multipart with its boundary normalised, anything else by SHA-256). Keys are
// computed from the redacted request on both sides, so a secret in a header matches its
// placeholder, and are never stored: changing the match rules never needs a re-recording.
import { createHash } from 'node:crypto';
import { strictUtf8Text } from '../core/strict-utf8.js';
import { isDigestOnly, type Body, type DigestOnlyBody } from '../cassette/cassette-format.js';
import { isFormMediaType } from '../secrets/form-field-scrubber.js';
import { isJsonMediaType } from '../secrets/json-field-scrubber.js';
import { withoutPaths } from '../http/json-path.js';
import type { HeaderPairs } from '../core/results.js';
import type { MatchConfig } from './proxy-options.js';

export const MATCH_RULES = ['method', 'path', 'query', 'headers', 'body'] as const;
export type MatchRule = (typeof MATCH_RULES)[number];
export type MatchParts = Record<MatchRule, string>;

/** What request-key needs of a request: its bytes are resolved by the caller (sidecars, streams). */
export interface KeyedRequest {
  method: string;
  url: string;
  headers: HeaderPairs;
  /** Inline decoded body, or the SHA-256 of a body too big to hold. */
  body?: { inline: Body } | { sha256: string };
}

/** A recorded request body as the key needs it: a digest-only body by its digest. */
export function keyedBody(body: Body | DigestOnlyBody | undefined): KeyedRequest['body'] {
  return body && (isDigestOnly(body) ? { sha256: body.sha256 } : { inline: body });
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

export function matchParts(request: KeyedRequest, config: MatchConfig): MatchParts {
  const queryStart = request.url.indexOf('?');
  const path = queryStart < 0 ? request.url : request.url.slice(0, queryStart);
  const query = queryStart < 0 ? '' : request.url.slice(queryStart + 1);
  return {
    method: request.method.toUpperCase(),
    path,
    query: queryKey(query, config),
    headers: headersKey(request.headers, config.headers),
    body: bodyKey(request, config),
  };
}

export function matchKey(parts: MatchParts): string {
  // Long bodies would make long map keys; their digest identifies them as well.
  const body = parts.body.length > 128 ? `#${sha256(parts.body)}` : parts.body;
  return `${parts.method} ${parts.path}?${parts.query}\u0000${parts.headers}\u0000${body}`;
}

function queryKey(query: string, config: MatchConfig): string {
  if (!query) return '';
  const ignored = new Set(config.ignoreQuery);
  const pairs = [...new URLSearchParams(query)]
    .filter(([k]) => !ignored.has(k))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  if (config.queryOrder === 'any') pairs.sort();
  return pairs.join('&');
}

function headersKey(headers: HeaderPairs, names: string[]): string {
  return names
    .map((name) => {
      // A multipart boundary is random per request; it must not decide a match.
      const values = headers
        .filter(([k]) => k.toLowerCase() === name)
        .map(([, v]) => v.trim().replace(/boundary=("?)[^";]+\1/i, 'boundary=BOUNDARY'));
      return values.length ? `${name}: ${values.join(', ')}` : '';
    })
    .filter(Boolean)
    .join('\n');
}

function bodyKey(request: KeyedRequest, config: MatchConfig): string {
  const body = request.body;
  if (!body) return '';
  if ('sha256' in body) return `sha256:${body.sha256}`;
  const data = body.inline;
  if ('file' in data) return `sha256:${data.sha256}`;
  // JSON and form bodies are told apart by media type with the rules the body scrubbers use
  // (isJsonMediaType, isFormMediaType), not rules of this file's own.
  const contentType = request.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  if ('json' in data) return `json:${canonicalJson(withoutPaths(data.json, config.ignoreBodyPaths))}`;
  const bytes = 'text' in data ? Buffer.from(data.text) : Buffer.from(data.base64, 'base64');
  if (bytes.length === 0) return '';
  const text = 'text' in data ? data.text : strictUtf8Text(bytes);
  if (text !== undefined && isJsonMediaType(contentType)) {
    try {
      return `json:${canonicalJson(withoutPaths(JSON.parse(text), config.ignoreBodyPaths))}`;
    } catch {
      // not JSON after all: compared as bytes below
    }
  }
  if (text !== undefined && isFormMediaType(contentType)) {
    return `form:${[...new URLSearchParams(text)]
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
      .sort()
      .join('&')}`;
  }
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (/^\s*multipart\//i.test(contentType) && boundary) return `sha256:${sha256(withBoundaryReplaced(bytes, boundary))}`;
  return `sha256:${sha256(bytes)}`;
}

const BOUNDARY = Buffer.from('BOUNDARY');

/** A multipart body with each occurrence of its boundary replaced, byte for byte: a part may be binary. */
function withBoundaryReplaced(bytes: Buffer, boundary: string): Buffer {
  const needle = Buffer.from(boundary);
  const pieces: Buffer[] = [];
  let from = 0;
  for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, from)) {
    pieces.push(bytes.subarray(from, at), BOUNDARY);
    from = at + needle.length;
  }
  pieces.push(bytes.subarray(from));
  return Buffer.concat(pieces);
}

/** JSON with object keys sorted at every depth: equal values give equal strings. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
