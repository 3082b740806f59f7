// A recording or passing-through proxy in front of a target that misbehaves at the HTTP level:
// its failure is the client's answer (502, x-touchstone-upstream-error), never the proxy's end.
import http from 'node:http';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createTestClient } from '../../test-support/proxy-test-client.js';
import { UPSTREAM_ERROR_HEADER } from './live-forward.js';
import { createProxy } from './proxy-server.js';

/** A target answering every request with `head` and a two-byte body. */
async function rawTarget(head: string): Promise<{ url: string; close: () => void }> {
  const server = net.createServer((socket) => socket.once('data', () => socket.end(`${head}\r\ncontent-length: 2\r\n\r\nok`)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, close: () => server.close() };
}

test('a status line Node can read but not send on (status 099, a DEL in the reason) is a 502 naming why; the proxy goes on', async () => {
  const client = createTestClient();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-upstream-'));
  try {
    for (const [head, why] of [
      ['HTTP/1.1 099 Odd', /Invalid status code: 99/],
      ['HTTP/1.1 200 O\x7fK', /Invalid character in statusMessage/],
    ] as const) {
      const target = await rawTarget(head);
      for (const mode of ['record', 'passthrough'] as const) {
        const proxy = await createProxy({ mode, target: target.url, cassette: path.join(dir, `${mode}.cassette.json`) });
        for (let i = 0; i < 2; i++) {
          const answer = await client.send(proxy.url, { path: '/x' });
          expect(answer.status, `${mode}: ${head}`).toBe(502);
          expect(answer.headers.find(([name]) => name === UPSTREAM_ERROR_HEADER)?.[1]).toBe('1');
          expect(answer.body.toString()).toMatch(why);
        }
        await proxy.close();
      }
      target.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a download the client drops releases the target at once, in record and passthrough', async () => {
  // A target streaming 16 MiB with backpressure; it sees its response closed early.
  const size = 16 * 1024 * 1024;
  let cutShort = 0;
  const target = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(size) });
    const chunk = Buffer.alloc(64 * 1024, 7);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => sent < size && cutShort++);
    pump();
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-upstream-'));
  const openConnections = () => new Promise<number>((resolve) => target.getConnections((_error, count) => resolve(count)));
  try {
    for (const mode of ['record', 'passthrough'] as const) {
      const url = `http://127.0.0.1:${(target.address() as net.AddressInfo).port}`;
      const proxy = await createProxy({ mode, target: url, cassette: path.join(dir, `${mode}.cassette.json`) });
      const before = cutShort;
      await new Promise<void>((resolve) => {
        const request = http.get(`${proxy.url}/big`, { agent: false }, (response) => {
          let received = 0;
          response.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (received > 256 * 1024) request.destroy(), resolve();
          });
        });
        request.on('error', () => {});
      });
      // The upstream timeout is 30 s by default: the target must see the end long before.
      await expect.poll(() => cutShort - before, { timeout: 10_000 }).toBe(1);
      await expect.poll(openConnections, { timeout: 10_000 }).toBe(0);
      await proxy.close();
    }
  } finally {
    target.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
