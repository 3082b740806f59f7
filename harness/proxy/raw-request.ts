// What the proxy reads from an incoming request before deciding anything: header values from
// the raw list (node builds req.headers on first use, a cost on replay's per-request path),
// whether a body follows, and a body read whole, within a cap.
import type http from 'node:http';

/** Request bodies read before forwarding (replay, record-missing, verify) are capped here. */
export const MAX_BUFFERED_REQUEST = 64 * 1024 * 1024;

/** A request body over MAX_BUFFERED_REQUEST where the proxy must hold it whole: 413. */
export class BodyTooLarge extends Error {}

/** The value of a header from the raw list (repeats joined by ", ", as node does for unknown names), or undefined. */
export function rawHeader(raw: string[], lower: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === lower.length && raw[i].toLowerCase() === lower)
      value = value === undefined ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
  }
  return value;
}

/** Whether a body follows the head (RFC 9112 6.3): a length above 0, or chunked framing. */
export function hasBody(raw: string[]): boolean {
  return Number(rawHeader(raw, 'content-length') ?? 0) > 0 || rawHeader(raw, 'transfer-encoding') !== undefined;
}

export function readRequestBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BUFFERED_REQUEST) return void chunks.push(chunk);
      req.off('data', onData);
      chunks.length = 0;
      reject(new BodyTooLarge(`a request body over ${MAX_BUFFERED_REQUEST} bytes cannot be matched`));
    };
    req.on('data', onData);
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
