// The cassette contract (DESIGN "Cassette format"): one deterministic JSON file per
// cassette, validated against cassette.schema.json whenever it is read. Everything the
// proxy, the exports and the diff know about a recording is in these types.
//
// Decisions where the issue is silent:
// - Absolute URLs of the recorded target (and of the recording proxy) are stored with
//   the fixed origin RECORDED_ORIGIN, so a recording does not depend on the port the
//   target happened to listen on, and replay rewrites it to its own origin.
// - The request's `host` header is stored as RECORDED_HOST for the same reason.
// - A cassette has one `recordedAt`; re-recording identical traffic keeps the old one
//   (the store compares content), so the same traffic gives a byte-identical file.
import { RECORDED_ORIGIN, type HeaderPairs } from '../core/results.js';

export { RECORDED_ORIGIN };
export const CASSETTE_VERSION = 1;
export const CASSETTE_SUFFIX = '.cassette.json';
export const RECORDED_HOST = new URL(RECORDED_ORIGIN).host;

/**
 * The sidecars of `name.cassette.json` live in `name.blobs/` beside it: owned by that one
 * cassette, so compaction can remove the ones it no longer references.
 */
export function sidecarFolder(cassetteFile: string): { prefix: string } {
  const base = cassetteFile.slice(cassetteFile.lastIndexOf('/') + 1);
  return { prefix: `${base.endsWith(CASSETTE_SUFFIX) ? base.slice(0, -CASSETTE_SUFFIX.length) : base}.blobs` };
}

/** Bodies up to this size are kept inline as json or text. */
export const INLINE_TEXT_LIMIT = 1024 * 1024;
/** Binary bodies up to this size are inline base64; anything bigger is a sidecar. */
export const INLINE_BINARY_LIMIT = 16 * 1024;

export const CONTENT_CODINGS = ['gzip', 'br', 'deflate'] as const;
export type ContentCoding = (typeof CONTENT_CODINGS)[number];

/** Exactly one representation of the (decoded) bytes. */
export type BodyData =
  | { json: unknown } // only when JSON.stringify(JSON.parse(bytes)) reproduces the bytes
  | { text: string } // valid UTF-8
  | { base64: string }
  | { file: string; sha256: string; size: number }; // sidecar, path relative to the cassette's folder

export type Body = BodyData & {
  /** The bytes on the wire were this coding of the stored (decoded) bytes. */
  contentEncoding?: ContentCoding;
  /**
   * The wire bytes themselves, kept only when re-encoding the decoded bytes with
   * node:zlib's defaults does not reproduce them (another compressor or level).
   */
  encoded?: Extract<BodyData, { base64: string } | { file: string }>;
};

/**
 * A request body too big to keep inline (one that would need a sidecar): only its digest
 * is stored, because replay never sends a request body and matching needs only the
 * digest. So a cassette never carries megabytes of what a client sent (an oversized
 * upload, a padding test) just to recognise the request again.
 */
export interface DigestOnlyBody {
  sha256: string;
  size: number;
  contentEncoding?: ContentCoding;
  /** No sidecar: this is what tells it from a sidecar body. */
  file?: never;
}

export const isDigestOnly = (body: Body | DigestOnlyBody): body is DigestOnlyBody => !('file' in body) && 'sha256' in body;

/** What a recording keeps of a request body: a sidecar's digest only (see DigestOnlyBody). */
export function requestBodyToKeep(body: Body): Body | DigestOnlyBody {
  if (!('file' in body)) return body;
  return { sha256: body.sha256, size: body.size, ...(body.contentEncoding && { contentEncoding: body.contentEncoding }) };
}

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as sent (origin-relative). */
  url: string;
  headers: HeaderPairs;
  body?: Body | DigestOnlyBody;
}

export interface RecordedResponse {
  status: number;
  /** Only when it differs from node's standard reason phrase for the status. */
  statusText?: string;
  headers: HeaderPairs;
  body?: Body;
}

export interface Interaction {
  /** 1-based position in request-start order. */
  seq: number;
  request: RecordedRequest;
  response: RecordedResponse;
}

export interface Cassette {
  cassetteVersion: typeof CASSETTE_VERSION;
  name: string;
  recordedAt: string;
  /** Where redaction replaced something, e.g. "request.headers.authorization"; sorted, unique. */
  redactions: string[];
  interactions: Interaction[];
}
