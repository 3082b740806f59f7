// Cassette -> nock definitions, for Node tests that replay in-process with `nock.define()`
// (one cassette loaded by the proxy, by Playwright through HAR and by nock alike). nock consumes each definition
// once, first match first, so identical requests are answered in recorded order, as the
// proxy does.
//
// Decisions where the brief is silent:
// - Content-coded responses are served decoded: content-encoding is dropped and
//   content-length restated (identityCodingHeaders), because nock insists on hex for a
//   response whose headers name a coding, and decoded data is what the cassette holds.
// - A response body is a JSON value only when stored as `json`. Text that JSON.parse would
//   accept is written as hex instead, because nock.define parses any JSON-looking string and
//   re-serialises it, which would change pretty-printed or big-integer bodies. Non-UTF-8
//   bodies are hex with responseIsBinary, like nock's recorder. So is every response to a
//   non-UTF-8 request body: nock then tries to read a string response as hex.
// - The request body matcher is the JSON value, the text, or hex for binary (nock compares a
//   non-UTF-8 request body as hex).
// - reqheaders holds only content-type, matched exactly; other request headers vary
//   between clients (accept, user-agent) and nock would refuse the request.
// - RECORDED_ORIGIN in response header values (Location, Link) becomes `origin`; bodies stay.
// - nock is imported for its types only: importing it at run time switches interception on.
import type nock from 'nock';
import type { HeaderPairs } from '../core/results.js';
import { identityCodingHeaders } from './body-codec.js';
import { strictUtf8Text } from '../core/strict-utf8.js';
import { isDigestOnly, RECORDED_ORIGIN, type Body, type Cassette, type Interaction } from './cassette-format.js';

export interface NockExportOptions {
  /** The scope every definition answers on; default RECORDED_ORIGIN. */
  origin?: string;
  /** Decoded bytes of a body; sidecars are read by the caller. */
  readBody: (b: Body) => Buffer;
}

/** nock's types leave out what define() reads from its own recorder's output. */
export type NockDefinition = nock.Definition & { rawHeaders?: string[]; responseIsBinary?: boolean };

type ResponseBody = Pick<NockDefinition, 'response' | 'responseIsBinary'>;

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function responseBody(body: Body | undefined, bytes: Buffer, requestIsBinary: boolean): ResponseBody {
  if (!body) return {};
  if ('json' in body && !requestIsBinary) return { response: body.json as nock.Definition['response'] };
  const text = strictUtf8Text(bytes);
  if (text !== undefined && !requestIsBinary && !parsesAsJson(text)) return { response: text };
  return { response: bytes.toString('hex'), responseIsBinary: true };
}

function requestBody(body: Body | undefined, bytes: Buffer | undefined): Pick<nock.Definition, 'body'> {
  if (!body || !bytes) return {};
  if ('json' in body) return { body: body.json as nock.Definition['body'] };
  const text = strictUtf8Text(bytes);
  return { body: text ?? bytes.toString('hex') };
}

function toDefinition(interaction: Interaction, origin: string, readBody: (b: Body) => Buffer): NockDefinition {
  const { request, response } = interaction;
  // A request body kept only as its digest has no bytes to match on: the definition matches any body.
  const keptBody = request.body && !isDigestOnly(request.body) ? request.body : undefined;
  const requestBytes = keptBody ? readBody(keptBody) : undefined;
  const requestIsBinary = requestBytes !== undefined && strictUtf8Text(requestBytes) === undefined;
  const responseBytes = response.body ? readBody(response.body) : Buffer.alloc(0);
  const rebased: HeaderPairs = response.headers.map(([k, v]) => [k, v.replaceAll(RECORDED_ORIGIN, origin)]);
  const contentType = request.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  return {
    scope: origin,
    method: request.method,
    path: request.url,
    ...requestBody(keptBody, requestBytes),
    status: response.status,
    ...responseBody(response.body, responseBytes, requestIsBinary),
    // define() passes rawHeaders to reply(), which takes the flat [name, value, …] array its
    // recorder writes; only that keeps order and repeated headers such as set-cookie.
    rawHeaders: identityCodingHeaders(rebased, responseBytes.length).flat(),
    ...(contentType !== undefined && { reqheaders: { 'content-type': contentType } }),
  };
}

export function toNockDefinitions(c: Cassette, options: NockExportOptions): NockDefinition[] {
  const origin = (options.origin ?? RECORDED_ORIGIN).replace(/\/+$/, '');
  return c.interactions.map((i) => toDefinition(i, origin, options.readBody));
}
