// The origin every absolute URL of a response is built on: the request's own, so a
// service behind a proxy (X-Forwarded-Host, X-Forwarded-Proto) or on a random port still
// links to where its client reached it. The forwarded headers count only from a trusted
// proxy (Fastify's trustProxy, set by the service: this machine by default, `serve
// --trust-proxy ADDR` for others); from anyone else they are client input and ignored.
import type { FastifyRequest } from 'fastify';
import { boundedMemo } from '../../lib/bounded-memo.js';

// A Host header is client input; anything that is not a plain host[:port] is ignored
// rather than spliced into URLs.
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

// Every absolute URL of an answer asks for it (the representer, the link header, the ETag):
// worked out once per request and kept on it (service.ts decorates every request with the field).
export function requestOrigin(request: FastifyRequest): string {
  if (request.origin === '') request.origin = originOf(request);
  return request.origin;
}

function originOf(request: FastifyRequest): string {
  // Fastify reads X-Forwarded-Proto and X-Forwarded-Host only when the peer is a trusted proxy.
  const scheme = request.protocol === 'https' ? 'https' : 'http';
  // Behind a proxy (touchstone's recording proxy among them) the client's host is X-Forwarded-Host.
  const host = HOST.test(request.host) ? request.host : request.headers.host;
  if (host === undefined || !HOST.test(host)) return `${scheme}://localhost`;
  return parseOrigin(`${scheme}://${host}`);
}

// The few origins a service is reached at, each parsed once (at most 64 kept: a Host header is client input).
const parseOrigin = boundedMemo(64, (given: string) => {
  try {
    // Through URL so a default port is dropped the same way in every link (http://h:80 → http://h).
    return new URL(given).origin;
  } catch {
    return `${given.slice(0, given.indexOf(':'))}://localhost`; // e.g. port 99999 or a malformed IPv6 literal
  }
});
