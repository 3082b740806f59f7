// HAR 1.2 -> cassette (DESIGN "Cassette format": HAR is also an import), so a session
// recorded by a browser, mitmproxy or our own export can be replayed by the proxy. A HAR is
// outside data: its shape is checked here and every refusal names the entry and the fix.
//
// Decisions where the brief is silent:
// - One origin per cassette, the first entry's; it becomes RECORDED_ORIGIN in the URL and in
//   header values (Location, Link), and the request's host header becomes RECORDED_HOST.
// - Entries are ordered by `_seq` when every entry has one (our export), else by
//   startedDateTime (stable), as HAR asks readers to do; seq is renumbered from 1.
// - HAR text is decoded, so a response's content-encoding header is dropped and its
//   content-length restated (identityCodingHeaders): replay then serves identity bytes,
//   rather than re-encoding with node's defaults and pretending they were the wire bytes.
// - HTTP/2 pseudo-headers (":authority", ":path" …) are dropped: they are not headers an
//   HTTP/1.1 replay can send.
// - recordedAt is the first entry's startedDateTime (as written when it is RFC 3339); an entry without a response (status 0,
//   as browsers write for aborted requests) or with `_file` content is refused.
// - An empty body is no body. Import does not write sidecars, so a body too big to inline
//   is an error. Redaction is the writer's job, as for recording (the store redacts).
import http from 'node:http';
import { HarnessError } from '../core/errors.js';
import type { HeaderPairs } from '../core/results.js';
import { identityCodingHeaders, toInlineBody } from './body-codec.js';
import { CASSETTE_VERSION, RECORDED_HOST, RECORDED_ORIGIN, type Body, type Cassette, type Interaction } from './cassette-format.js';

type Json = Record<string, unknown>;
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function fail(message: string): never {
  throw new HarnessError('CONFIG', `HAR import: ${message}`);
}

function field<T>(owner: Json, key: string, where: string, check: (v: unknown) => v is T, expected: string): T {
  const value = owner[key];
  if (!check(value)) fail(`${where}.${key} must be ${expected}, got ${JSON.stringify(value) ?? 'nothing'}`);
  return value;
}
const isString = (v: unknown): v is string => typeof v === 'string';
const isArray = (v: unknown): v is unknown[] => Array.isArray(v);

function headerPairs(owner: Json, where: string): HeaderPairs {
  return field(owner, 'headers', where, isArray, 'an array').map((h, i) => {
    if (!isObject(h) || !isString(h.name) || !isString(h.value)) fail(`${where}.headers[${i}] must be {name, value} strings`);
    return [h.name, h.value] as [string, string];
  });
}

function inlineBody(text: string, encoding: unknown, what: string): Body | undefined {
  if (encoding !== undefined && encoding !== 'base64')
    fail(`${what}: encoding ${JSON.stringify(encoding)} is not supported (only "base64")`);
  const bytes = Buffer.from(text, encoding === 'base64' ? 'base64' : 'utf8');
  if (bytes.length === 0) return undefined;
  const body = toInlineBody(bytes);
  if (!body)
    fail(
      `${what} is ${bytes.length} bytes, too big to keep inline (import writes no sidecar files); trim the HAR or record it through the proxy`,
    );
  return body;
}

function toInteraction(
  entry: unknown,
  index: number,
  origin: { value?: string },
): { interaction: Interaction; started: string; seq?: number } {
  const where = `log.entries[${index}]`;
  if (!isObject(entry)) fail(`${where} must be an object`);
  const request = field(entry, 'request', where, isObject, 'an object');
  const response = field(entry, 'response', where, isObject, 'an object');
  const method = field(request, 'method', `${where}.request`, isString, 'a string');
  const rawUrl = field(request, 'url', `${where}.request`, isString, 'a string');
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    fail(`${where}.request.url ${JSON.stringify(rawUrl)} is not an absolute URL`);
  }
  const what = `${where} (${method} ${rawUrl})`;
  origin.value ??= url.origin;
  if (url.origin !== origin.value) {
    fail(
      `${what} is on ${url.origin}, but a cassette records one origin, the first entry's (${origin.value}); split the HAR by host and import each part`,
    );
  }
  const status = field(response, 'status', `${where}.response`, (v): v is number => Number.isInteger(v), 'an integer');
  if (status < 100 || status > 999) fail(`${what} has status ${status}: the request got no response; remove the entry`);
  const statusText =
    typeof response.statusText === 'string' && response.statusText !== '' && response.statusText !== http.STATUS_CODES[status]
      ? response.statusText
      : undefined;
  const content = field(response, 'content', `${where}.response`, isObject, 'an object');
  if (content._file !== undefined) fail(`${what}: content._file (attached content) is not supported; export the HAR with embedded content`);
  const responseBody = typeof content.text === 'string' ? inlineBody(content.text, content.encoding, `${what} response body`) : undefined;
  const toRecorded = (headers: HeaderPairs): HeaderPairs =>
    headers
      .filter(([k]) => !k.startsWith(':'))
      .map(([k, v]) => [k, k.toLowerCase() === 'host' ? RECORDED_HOST : v.replaceAll(origin.value!, RECORDED_ORIGIN)]);
  const postData = request.postData;
  if (postData !== undefined && (!isObject(postData) || (postData.text !== undefined && !isString(postData.text))))
    fail(`${where}.request.postData must be an object with a text string`);
  const requestBody =
    isObject(postData) && isString(postData.text) ? inlineBody(postData.text, postData.encoding, `${what} request body`) : undefined;
  const responseLength =
    typeof content.text === 'string' ? Buffer.byteLength(content.text, content.encoding === 'base64' ? 'base64' : 'utf8') : 0;
  const interaction: Interaction = {
    seq: 0,
    request: {
      method,
      url: `${url.pathname}${url.search}`,
      headers: toRecorded(headerPairs(request, `${where}.request`)),
      ...(requestBody && { body: requestBody }),
    },
    response: {
      status,
      ...(statusText !== undefined && { statusText }),
      headers: identityCodingHeaders(toRecorded(headerPairs(response, `${where}.response`)), responseLength),
      ...(responseBody && { body: responseBody }),
    },
  };
  const started = field(entry, 'startedDateTime', where, isString, 'a date-time string');
  if (Number.isNaN(Date.parse(started))) fail(`${where}.startedDateTime ${JSON.stringify(started)} is not a date-time`);
  return { interaction, started, seq: Number.isInteger(entry._seq) ? (entry._seq as number) : undefined };
}

export function fromHar(har: unknown, name: string): Cassette {
  if (!isObject(har) || !isObject(har.log)) fail('the file must be a JSON object with a "log" object (HAR 1.2)');
  const entries = field(har.log, 'entries', 'log', isArray, 'an array');
  if (entries.length === 0) fail('log.entries is empty: there is nothing to replay');
  const origin: { value?: string } = {};
  const read = entries.map((entry, index) => toInteraction(entry, index, origin));
  const bySeq = read.every((r) => r.seq !== undefined);
  const ordered = read
    .map((r, index) => ({ ...r, index }))
    .sort((a, b) => (bySeq ? a.seq! - b.seq! : Date.parse(a.started) - Date.parse(b.started)) || a.index - b.index);
  return {
    cassetteVersion: CASSETTE_VERSION,
    name,
    recordedAt: RFC3339.test(ordered[0].started) ? ordered[0].started : new Date(Date.parse(ordered[0].started)).toISOString(),
    redactions: [],
    interactions: ordered.map((r, i) => ({ ...r.interaction, seq: i + 1 })),
  };
}
