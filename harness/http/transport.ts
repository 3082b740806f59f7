// Sends one HTTP request with exact control over headers (node:http adds no User-Agent
// or Accept of its own, so cases can omit them) and returns the raw answer.
import http from 'node:http';
import https from 'node:https';
import { HarnessError } from '../core/errors.js';
import type { HeaderPairs } from '../core/results.js';

export interface WireRequest {
  method: string;
  url: string;
  headers: HeaderPairs;
  body?: Buffer;
}

export interface WireResponse {
  status: number;
  headers: HeaderPairs;
  body: Buffer;
  /** The body went past the transport's bound: `body` holds its start only (checks of the body cannot run). */
  truncated?: boolean;
}

/** The one seam between checks and the network: negative controls pass a fake. */
export type Transport = (request: WireRequest) => Promise<WireResponse>;

export interface HttpTransport {
  send: Transport;
  close(): void;
}

/**
 * Bodies are kept up to this size. A larger answer keeps its status and headers, so a target
 * that serves a file it should refuse is judged by its status; the rest is not read.
 */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * `timeoutMs` bounds each request from its start to the last byte of its answer (not only the
 * silence between bytes: a target trickling an answer slowly is bounded too); `timeoutOption`
 * names the option that set it, for the message.
 */
export function createHttpTransport({
  timeoutMs = 15_000,
  timeoutOption,
}: {
  timeoutMs?: number;
  timeoutOption?: string;
} = {}): HttpTransport {
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  const send: Transport = (request) =>
    new Promise((resolve, reject) => {
      const url = new URL(request.url);
      const secure = url.protocol === 'https:';
      // With raw header pairs node:http adds no Host of its own.
      const hasHost = request.headers.some(([k]) => k.toLowerCase() === 'host');
      const headers = [
        ...(hasHost ? [] : [['Host', url.host]]),
        ...request.headers,
        ...(request.body ? [['Content-Length', String(request.body.length)]] : []),
      ];
      const req = (secure ? https : http).request(url, {
        method: request.method,
        headers: headers.flat(),
        agent: secure ? agents.https : agents.http,
      });
      const fail = (error: HarnessError) => {
        clearTimeout(timer);
        reject(error);
      };
      const bound = `${timeoutMs / 1000} s${timeoutOption ? ` (${timeoutOption})` : ''}`;
      const timer = setTimeout(() => {
        fail(new HarnessError('TARGET_IO', `${request.method} ${request.url}: no answer within ${bound}`));
        req.destroy();
      }, timeoutMs);
      req.on('error', (error) => fail(new HarnessError('TARGET_IO', `${request.method} ${request.url}: ${error.message}`)));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const answer = (truncated: boolean) => {
          const pairs: HeaderPairs = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks), ...(truncated && { truncated }) });
        };
        res.on('data', (chunk: Buffer) => {
          if (size > MAX_BODY_BYTES) return;
          if (size + chunk.length > MAX_BODY_BYTES) {
            chunks.push(chunk.subarray(0, MAX_BODY_BYTES - size));
            size = MAX_BODY_BYTES + 1;
            answer(true);
            // The connection is not reused: the rest of the body is never read.
            req.destroy();
            return;
          }
          size += chunk.length;
          chunks.push(chunk);
        });
        res.on('error', (error) => fail(new HarnessError('TARGET_IO', `${request.method} ${request.url}: ${error.message}`)));
        res.on('end', () => answer(false));
      });
      req.end(request.body);
    });
  return {
    send,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

export function headerValue(headers: HeaderPairs, name: string): string | undefined {
  const lower = name.toLowerCase();
  const values = headers.filter(([k]) => k.toLowerCase() === lower).map(([, v]) => v);
  return values.length ? values.join(', ') : undefined;
}
