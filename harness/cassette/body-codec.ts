// Bytes <-> the stored body representations, and the content codings the cassette
// stores decoded. The rule for each representation is "lossless or not at all": json
// only when re-serialising gives the same bytes (so 2^63-1 or pretty-printed JSON stay
// text), text only for valid UTF-8, base64 otherwise.
import zlib from 'node:zlib';
import { HarnessError } from '../core/errors.js';
import { strictUtf8Text } from '../core/strict-utf8.js';
import { CONTENT_CODINGS, INLINE_BINARY_LIMIT, INLINE_TEXT_LIMIT, type BodyData, type ContentCoding } from './cassette-format.js';

/**
 * The inline representation of `bytes`, or undefined when they are too big to inline
 * (the caller stores a sidecar). A body naming `__proto__` stays text, so the loader can
 * refuse that key anywhere in a cassette's structure.
 */
export function toInlineBody(bytes: Buffer): Exclude<BodyData, { file: string }> | undefined {
  const text = bytes.length <= INLINE_TEXT_LIMIT ? strictUtf8Text(bytes) : undefined;
  if (text !== undefined) {
    const json = parseLosslessJson(text);
    return json === undefined ? { text } : { json: json.value };
  }
  return bytes.length <= INLINE_BINARY_LIMIT ? { base64: bytes.toString('base64') } : undefined;
}

function parseLosslessJson(text: string): { value: unknown } | undefined {
  const first = text.charCodeAt(0);
  // Only objects and arrays: a bare "1" or "true" reads better, and diffs the same, as text.
  if (first !== 0x7b && first !== 0x5b) return undefined;
  if (text.includes('"__proto__"')) return undefined;
  try {
    const value = JSON.parse(text);
    return JSON.stringify(value) === text ? { value } : undefined;
  } catch {
    return undefined;
  }
}

/** The bytes of an inline body; sidecars are read by the store, which knows the folder. */
export function inlineBodyBytes(data: BodyData): Buffer {
  if ('json' in data) return Buffer.from(JSON.stringify(data.json));
  if ('text' in data) return Buffer.from(data.text);
  if ('base64' in data) return Buffer.from(data.base64, 'base64');
  throw new HarnessError('CONFIG', `body ${data.file} is a sidecar file; read it through the cassette store`);
}

export function isContentCoding(value: string): value is ContentCoding {
  return (CONTENT_CODINGS as readonly string[]).includes(value);
}

export function decodeContent(coding: ContentCoding, bytes: Buffer): Buffer {
  if (coding === 'gzip') return zlib.gunzipSync(bytes);
  if (coding === 'br') return zlib.brotliDecompressSync(bytes);
  return zlib.inflateSync(bytes);
}

/** node:zlib's defaults: what a Node upstream (and our fixtures) produce. */
export function encodeContent(coding: ContentCoding, bytes: Buffer): Buffer {
  if (coding === 'gzip') return zlib.gzipSync(bytes);
  if (coding === 'br') return zlib.brotliCompressSync(bytes);
  return zlib.deflateSync(bytes);
}

export function createContentDecoder(coding: ContentCoding): zlib.Gunzip | zlib.BrotliDecompress | zlib.Inflate {
  if (coding === 'gzip') return zlib.createGunzip();
  if (coding === 'br') return zlib.createBrotliDecompress();
  return zlib.createInflate();
}

export function createContentEncoder(coding: ContentCoding): zlib.Gzip | zlib.BrotliCompress | zlib.Deflate {
  if (coding === 'gzip') return zlib.createGzip();
  if (coding === 'br') return zlib.createBrotliCompress();
  return zlib.createDeflate();
}

/**
 * The headers to send with the decoded bytes when a consumer cannot re-encode them (HAR
 * `content.text` is decoded by definition; nock wants hex for encoded bodies): without
 * content-encoding, and with any content-length restated as the decoded length.
 */
export function identityCodingHeaders(headers: [string, string][], decodedLength: number): [string, string][] {
  if (!headers.some(([name]) => name.toLowerCase() === 'content-encoding')) return headers;
  return headers
    .filter(([name]) => name.toLowerCase() !== 'content-encoding')
    .map(([name, value]): [string, string] => (name.toLowerCase() === 'content-length' ? [name, String(decodedLength)] : [name, value]));
}
