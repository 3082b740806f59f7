// Turns a recorded response into what goes on the wire at replay: the recorded origin
// becomes the proxy's own (so Location and link lead back to the proxy), supplied
// secrets are restored, compressed bodies are re-encoded, and Content-Length follows
// the body actually sent. Prepared once per interaction, on first use.
import http from 'node:http';
import { encodeContent, utf8OrUndefined } from '../cassette/body-codec.js';
import { RECORDED_ORIGIN, type RecordedResponse } from '../cassette/cassette-format.js';
import { readBodyBytes, readWireBytes } from '../cassette/cassette-load.js';

export interface PreparedResponse {
  status: number;
  statusText?: string;
  /** Flat [name, value, name, value, …] in recorded order, duplicates kept. */
  headers: string[];
  body: Buffer;
}

/** Text substitutions applied to everything replayed (recorded origin, secret placeholders). */
export type Substitute = (text: string) => string;

export function prepareResponse(response: RecordedResponse, cassetteDir: string, substitute: Substitute): PreparedResponse {
  let body = response.body ? readWireBytes(response.body, cassetteDir) : Buffer.alloc(0);
  if (response.body) {
    const decoded = readBodyBytes(response.body, cassetteDir);
    const text = utf8OrUndefined(decoded);
    const replaced = text === undefined ? text : substitute(text);
    if (replaced !== undefined && replaced !== text) {
      const bytes = Buffer.from(replaced);
      body = response.body.contentEncoding ? encodeContent(response.body.contentEncoding, bytes) : bytes;
    }
  }
  const headers: string[] = [];
  for (const [name, value] of response.headers) {
    const lower = name.toLowerCase();
    // A HEAD or 304 answer has no body, but its Content-Length describes the one it stands for.
    headers.push(name, lower === 'content-length' && body.length > 0 ? String(body.length) : substitute(value));
  }
  return { status: response.status, statusText: response.statusText, headers, body };
}

export function writePrepared(res: http.ServerResponse, method: string, prepared: PreparedResponse): void {
  res.sendDate = false; // the recorded Date, if any, is among the headers
  if (prepared.statusText !== undefined) res.writeHead(prepared.status, prepared.statusText, prepared.headers);
  else res.writeHead(prepared.status, prepared.headers);
  res.end(method === 'HEAD' ? undefined : prepared.body);
}

/** Replaces the recorded origin with `origin` and restores secrets the run supplied. */
export function createSubstitute(origin: string, restore: (text: string) => string): Substitute {
  return (text) => restore(text.includes(RECORDED_ORIGIN) ? text.split(RECORDED_ORIGIN).join(origin) : text);
}

export function standardStatusText(status: number, text: string | undefined): string | undefined {
  return text === undefined || text === http.STATUS_CODES[status] ? undefined : text;
}

