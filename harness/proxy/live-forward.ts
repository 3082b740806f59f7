// The one way the proxy talks to the target: http-proxy with a keep-alive agent, never
// following redirects (each hop is its own interaction), the response handed to the
// caller, which writes it. URLs in Location, Content-Location and link that point at the
// target are rewritten to the proxy so a client keeps going through it.
import http from 'node:http';
import type { Socket } from 'node:net';
import type { Stream } from 'node:stream';
import https from 'node:https';
import httpProxy from 'http-proxy';
import type { HeaderPairs } from '../core/results.js';

export interface LiveForwarder {
  /**
   * Forwards `req` (or `body`, when the caller has already read it) and calls
   * `onResponse`; an upstream failure before any answer becomes a 502 from the proxy.
   */
  forward(req: http.IncomingMessage, res: http.ServerResponse, onResponse: (upstream: http.IncomingMessage) => void, body?: Buffer): void;
  /** Response header pairs with target URLs pointing at the proxy. */
  liveHeaders(upstream: http.IncomingMessage, proxyOrigin: string): HeaderPairs;
  readonly targetOrigin: string;
  close(): void;
}

const URL_HEADERS = new Set(['location', 'content-location', 'link']);
export const UPSTREAM_ERROR_HEADER = 'x-touchstone-upstream-error';

const ON_RESPONSE = Symbol('touchstone.onResponse');
type Routed = http.IncomingMessage & { [ON_RESPONSE]?: (upstream: http.IncomingMessage) => void };

/**
 * A body already read, in the one shape http-proxy asks of `buffer`: it only calls
 * `buffer.pipe(proxyReq)`. Ending the request with the bytes directly saves a stream per
 * request (Readable.from costs more than the forwarding).
 */
class BufferedBody {
  constructor(private readonly body: Buffer) {}
  pipe(proxyReq: http.ClientRequest): void {
    proxyReq.end(this.body.length ? this.body : undefined);
  }
}

export function headerPairs(raw: string[]): HeaderPairs {
  const pairs: HeaderPairs = [];
  for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i], raw[i + 1]]);
  return pairs;
}

export function createLiveForwarder(target: string, timeoutMs: number): LiveForwarder {
  const url = new URL(target);
  const agent = url.protocol === 'https:' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  // changeOrigin: the target sees its own Host, as a client talking to it directly would send.
  const proxy = httpProxy.createProxyServer({
    target,
    changeOrigin: true,
    selfHandleResponse: true,
    agent,
    proxyTimeout: timeoutMs,
    xfwd: false,
  });
  const targetOrigin = url.origin;
  // http-proxy reports every response, and every failure, on the one server: each is
  // routed to its request's caller through a symbol on the request (a WeakMap per
  // request costs the garbage collector more than the forwarding itself).
  const upstreamError = (error: Error, _req: http.IncomingMessage, res: http.ServerResponse | Socket) => {
    if (!(res instanceof http.ServerResponse) || res.headersSent) return res.destroy(error);
    const message = JSON.stringify({ error: `touchstone: the target ${targetOrigin} failed: ${error.message}` });
    // The reason phrase is given: a writeHead that threw on the target's has left it on `res`.
    res
      .writeHead(502, 'Bad Gateway', {
        'content-type': 'application/json',
        [UPSTREAM_ERROR_HEADER]: '1',
        'content-length': Buffer.byteLength(message),
      })
      .end(message);
  };
  // An answer Node's client took but its server cannot send on (a status under 100, a
  // control character in the reason phrase) makes writeHead throw inside http-proxy's event:
  // uncaught, it would end the proxy process. It is the target's failure, answered 502.
  proxy.on('proxyRes', (upstream, req, res) => {
    try {
      (req as Routed)[ON_RESPONSE]?.(upstream);
    } catch (error) {
      upstream.destroy();
      upstreamError(error as Error, req, res);
    }
  });
  return {
    targetOrigin,
    forward(req, res, onResponse, body) {
      (req as Routed)[ON_RESPONSE] = onResponse;
      // The target sees its own Host (changeOrigin) and, as behind any reverse proxy, where the
      // client really is: a target that builds URLs on X-Forwarded-Host links back through the
      // proxy, so a client following a URL from a body (download_url) is recorded too.
      const headers: Record<string, string> = req.headers.host ? { 'x-forwarded-host': req.headers.host, 'x-forwarded-proto': 'http' } : {};
      proxy.web(req, res, { headers, ...(body && { buffer: new BufferedBody(body) as unknown as Stream }) }, upstreamError);
    },
    liveHeaders(upstream, proxyOrigin) {
      return headerPairs(upstream.rawHeaders).map(([name, value]) =>
        URL_HEADERS.has(name.toLowerCase()) && value.includes(targetOrigin)
          ? [name, value.split(targetOrigin).join(proxyOrigin)]
          : [name, value],
      );
    },
    close() {
      proxy.close();
      agent.destroy();
    },
  };
}
