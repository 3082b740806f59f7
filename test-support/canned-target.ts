// Test support: stand-ins for a third-party target, each a node:http server on 127.0.0.1.
// `canned` answers every request with the same 200 JSON (a stateless mock: most cases
// FAIL against it); `hanging` accepts connections and never answers, except `GET
// /_conformance/capabilities` (404: no control API), so that touchstone's probe finds it there.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CannedTarget {
  url: string;
  /** Requests received so far. */
  requests(): number;
  close(): Promise<void>;
}

export const CANNED_BODY = JSON.stringify({ id: 1, name: 'canned', message: 'the same answer to everything' });

/** `body`: the canned answer's JSON text. */
export async function startCannedTarget(kind: 'canned' | 'hanging' = 'canned', body = CANNED_BODY): Promise<CannedTarget> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    req.resume();
    if (kind === 'hanging' && req.url !== '/_conformance/capabilities') return;
    if (kind === 'hanging') return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
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
