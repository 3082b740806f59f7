// Cassette -> HAR 1.2, for Playwright's routeFromHAR, mitmproxy's server replay and
// browser tools (DESIGN "Cassette format": HAR is an export). The fields HAR requires but a
// cassette deliberately lacks (timings, sizes on the wire) get neutral values, so the same
// cassette always exports the same file.
//
// Decisions where the brief is silent:
// - HAR's content.text is the decoded body by definition, and Playwright serves response
//   headers verbatim, so a response stored with a content coding is exported without its
//   content-encoding header and with content-length restated for the decoded bytes.
// - RECORDED_ORIGIN is replaced by `origin` in the URL and in every header value (Location,
//   Link; the host header becomes origin's host), not in bodies: bodies stay the recorded data.
// - A binary request body is written as base64 with `encoding: "base64"` on postData: HAR 1.2
//   cannot carry binary request bodies, this is the 1.3 proposal, and Playwright reads it.
// - mimeType is the content-type header, or "" when there is none; bodySize is the decoded
//   size (the wire size is not recorded for coded bodies); headersSize is -1 (unknown).
// - creator.version is the cassette format version the export was made from.
import http from 'node:http';
import type { HeaderPairs } from '../core/results.js';
import { identityCodingHeaders } from './body-codec.js';
import type { Entry, Har, Header } from 'har-format';
import { strictUtf8Text } from '../core/strict-utf8.js';
import { CASSETTE_VERSION, isDigestOnly, RECORDED_ORIGIN, type Body, type Cassette, type Interaction } from './cassette-format.js';

export interface HarExportOptions {
  /** Replaces RECORDED_ORIGIN in URLs and header values; default RECORDED_ORIGIN. */
  origin?: string;
  /** Decoded bytes of a body; sidecars are read by the caller. */
  readBody: (b: Body) => Buffer;
}

/**
 * HAR 1.2's types are @types/har-format's (the format's own field names and documentation);
 * touchstone writes a subset: text or base64 content, no cookies, no cache, no page, and `_seq`
 * (HAR's custom-field form) so that an import restores the order of the recording.
 */
export type { Har };

export const HTTP_VERSION = 'HTTP/1.1';

const headerValue = (headers: HeaderPairs, name: string) => headers.find(([k]) => k.toLowerCase() === name)?.[1];
const nameValues = (headers: HeaderPairs): Header[] => headers.map(([name, value]) => ({ name, value }));

/** Text when the bytes are UTF-8, else base64: HAR's two ways to carry a body. */
function harText(bytes: Buffer): { text: string; encoding?: 'base64' } {
  const text = strictUtf8Text(bytes);
  return text === undefined ? { text: bytes.toString('base64'), encoding: 'base64' } : { text };
}

function toEntry(interaction: Interaction, startedDateTime: string, origin: string, readBody: (b: Body) => Buffer): Entry {
  const host = new URL(origin).host;
  const rebase = (headers: HeaderPairs): HeaderPairs =>
    headers.map(([k, v]) => [k, k.toLowerCase() === 'host' ? host : v.replaceAll(RECORDED_ORIGIN, origin)]);
  const { request, response } = interaction;
  const url = new URL(request.url, `${origin}/`);
  const digestOnly = request.body && isDigestOnly(request.body) ? request.body : undefined;
  const requestBytes = request.body && !isDigestOnly(request.body) ? readBody(request.body) : undefined;
  const responseBytes = response.body ? readBody(response.body) : Buffer.alloc(0);
  const responseHeaders = identityCodingHeaders(rebase(response.headers), responseBytes.length);
  return {
    startedDateTime,
    time: 0,
    request: {
      method: request.method,
      url: `${origin}${request.url}`,
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: nameValues(rebase(request.headers)),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(requestBytes && { postData: { mimeType: headerValue(request.headers, 'content-type') ?? '', ...harText(requestBytes) } }),
      // HAR has no form for "these bytes, not kept": the size stays true and a comment says why.
      ...(digestOnly && { comment: `body of ${digestOnly.size} bytes not kept by the recording (sha256 ${digestOnly.sha256})` }),
      headersSize: -1,
      bodySize: requestBytes?.length ?? digestOnly?.size ?? 0,
    },
    response: {
      status: response.status,
      statusText: response.statusText ?? http.STATUS_CODES[response.status] ?? '',
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: nameValues(responseHeaders),
      content: { size: responseBytes.length, mimeType: headerValue(response.headers, 'content-type') ?? '', ...harText(responseBytes) },
      redirectURL: headerValue(responseHeaders, 'location') ?? '',
      headersSize: -1,
      bodySize: responseBytes.length,
    },
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
    _seq: interaction.seq,
  };
}

export function toHar(c: Cassette, options: HarExportOptions): Har {
  const origin = (options.origin ?? RECORDED_ORIGIN).replace(/\/+$/, '');
  return {
    log: {
      version: '1.2',
      creator: { name: 'touchstone', version: String(CASSETTE_VERSION) },
      entries: c.interactions.map((i) => toEntry(i, c.recordedAt, origin, options.readBody)),
    },
  };
}
