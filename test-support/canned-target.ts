// Test support: stand-ins for a third-party target, each a node:http server on 127.0.0.1.
// `canned` answers every request with the same 200 JSON (a stateless mock: most cases
// FAIL against it); `hanging` accepts connections and never answers, except `GET
// /_conformance/capabilities` (404: no control API), so that touchstone's probe finds it there.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as pause } from 'node:timers/promises';

export interface CannedTarget {
  url: string;
  /** Requests received so far. */
  requests(): number;
  close(): Promise<void>;
}

export const CANNED_BODY = JSON.stringify({ id: 1, name: 'canned', message: 'the same answer to everything' });

/**
 * `body`: the canned answer's JSON text; as pieces, each is written after a pause, so a proxy in
 * front most likely reads it in those pieces (a test of what straddles chunk boundaries).
 */
export async function startCannedTarget(
  kind: 'canned' | 'hanging' = 'canned',
  body: string | readonly string[] = CANNED_BODY,
): Promise<CannedTarget> {
  const pieces = typeof body === 'string' ? [body] : body;
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    req.resume();
    if (kind === 'hanging' && req.url !== '/_conformance/capabilities') return;
    if (kind === 'hanging') return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(pieces.join('')) });
    void (async () => {
      for (const [i, piece] of pieces.entries()) {
        if (i > 0) await pause(2);
        if (res.destroyed) return;
        res.write(piece);
      }
      res.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        // A hanging target holds its connections open: end them, or close() waits for them.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
