// A recording or passing-through proxy in front of a target that misbehaves at the HTTP level:
// its failure is the client's answer (502, x-touchstone-upstream-error), never the proxy's end.
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
