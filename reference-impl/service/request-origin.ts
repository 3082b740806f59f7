// The origin every absolute URL of a response is built on: the request's own, so a
// service behind a proxy or on a random port still links to itself.
import type { FastifyRequest } from 'fastify';

// A Host header is client input; anything that is not a plain host[:port] is ignored
// rather than spliced into URLs.
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function requestOrigin(request: FastifyRequest): string {
  const forwarded = String(request.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]
    .trim()
    .toLowerCase();
  const scheme = forwarded === 'https' ? 'https' : 'http';
  const host = request.headers.host;
  if (host === undefined || !HOST.test(host)) return `${scheme}://localhost`;
  try {
    // Through URL so a default port is dropped the same way in every link (http://h:80 → http://h).
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return `${scheme}://localhost`; // e.g. port 99999 or a malformed IPv6 literal
  }
}
