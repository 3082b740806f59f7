// Turns a recorded response into what goes on the wire at replay: the recorded origin
// becomes the proxy's own (so Location and link lead back to the proxy), supplied
// secrets are restored, compressed bodies are re-encoded, and Content-Length follows
// the body actually sent. Prepared once per interaction, at its first hit.
import http from 'node:http';
import { encodeContent } from '../cassette/body-codec.js';
import { strictUtf8Text } from '../core/strict-utf8.js';
import { RECORDED_ORIGIN, type Body, type Interaction, type RecordedResponse } from '../cassette/cassette-format.js';
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
  const body = response.body ? wireBody(response.body, cassetteDir, substitute) : EMPTY;
  const headers: string[] = [];
  for (const [name, value] of response.headers) {
    const lower = name.toLowerCase();
    // A HEAD or 304 answer has no body, but its Content-Length describes the one it stands for.
    headers.push(name, lower === 'content-length' && body.length > 0 ? String(body.length) : substitute(value));
  }
  return { status: response.status, statusText: response.statusText, headers, body };
}

const EMPTY = Buffer.alloc(0);

export interface PreparedAnswers {
  /** The answer of the recorded interaction with this seq, made wire-ready at its first hit and kept. */
  answer(seq: number): PreparedResponse;
}

/**
 * Decision: an answer is prepared at its first hit, not the whole cassette at the first
 * request: a 100,000-interaction cassette's first answer waited 0.6-0.9 s for all of them
 * (measured), and a cassette's load is what a user waits for at every start.
 */
export function createPreparedAnswers(
  interaction: (seq: number) => Interaction,
  cassetteDir: string,
  substitute: Substitute,
): PreparedAnswers {
  // By seq: an array index, where a Map of a big cassette's answers cost a scattered lookup per hit.
  const answers: PreparedResponse[] = [];
  // Identical header lists (most of a cassette's, bar content-length) share one array, so a
  // big cassette's answers keep touching the same few strings.
  const sameHeaders = new Map<string, string[]>();
  return {
    answer(seq) {
      let prepared = answers[seq];
      if (prepared === undefined) {
        const recorded = interaction(seq);
        prepared = prepareResponse(recorded.response, cassetteDir, substitute);
        const key = prepared.headers.join('\0');
        prepared.headers = sameHeaders.get(key) ?? (sameHeaders.set(key, prepared.headers), prepared.headers);
        answers[seq] = prepared;
        // From now on the answer lives in off-heap bytes; letting the parsed body go keeps a
        // big cassette's heap small, and with it the garbage collector's every pass.
        delete recorded.response.body;
      }
      return prepared;
    },
  };
}

/** Each replayed interaction passes here once, so the text forms skip the byte round trips. */
function wireBody(body: Body, cassetteDir: string, substitute: Substitute): Buffer {
  const inline = 'json' in body ? JSON.stringify(body.json) : 'text' in body ? body.text : undefined;
  const text = inline ?? strictUtf8Text(readBodyBytes(body, cassetteDir));
  const replaced = text === undefined ? undefined : substitute(text);
  if (replaced !== undefined && replaced !== text) {
    const bytes = Buffer.from(replaced);
    return body.contentEncoding ? encodeContent(body.contentEncoding, bytes) : bytes;
  }
  if (inline !== undefined && !body.contentEncoding) return Buffer.from(inline);
  return readWireBytes(body, cassetteDir);
}

export function writePrepared(res: http.ServerResponse, method: string, prepared: PreparedResponse): void {
  res.sendDate = false; // the recorded Date, if any, is among the headers
  if (prepared.statusText !== undefined) res.writeHead(prepared.status, prepared.statusText, prepared.headers);
  else res.writeHead(prepared.status, prepared.headers);
  res.end(method === 'HEAD' ? undefined : prepared.body);
}

/** Replaces the recorded origin with `origin` and restores secrets the run supplied. */
export function createSubstitute(origin: string, restore: (text: string) => string): Substitute {
  return (text) => {
    const rebased = text.includes(RECORDED_ORIGIN) ? text.split(RECORDED_ORIGIN).join(origin) : text;
    // Placeholders are <secret:NAME> or %3Csecret%3ANAME%3E; most texts hold neither.
    return rebased.includes('secret') ? restore(rebased) : rebased;
  };
}

export function standardStatusText(status: number, text: string | undefined): string | undefined {
  return text === undefined || text === http.STATUS_CODES[status] ? undefined : text;
}
