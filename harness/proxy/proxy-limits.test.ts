// The replaying proxy under slow and idle clients: a head that never ends and a body that
// stalls are cut (408), a body too big to match is 413 (not a dropped connection), and
// hundreds of idle connections do not stop it answering. Short timeouts here
// (clientTimeouts); the defaults are in proxy-options.ts. The waits are guards.
import net from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { closedBy, openIdleConnections, slowHead, stalledBody } from '../../test-support/slow-clients.js';
import { useProxyTestBed } from '../../test-support/proxy-test-client.js';
import { createProxy, type RunningProxy } from './proxy-server.js';

const bed = useProxyTestBed();
let proxy: RunningProxy;
test.beforeEach(async () => {
  const cassette = path.join(bed.dir, 'limits.cassette.json');
  const recorder = await createProxy({ mode: 'record', target: bed.fixture.url, cassette });
  await bed.client.send(recorder.url, { path: '/length' });
  await recorder.close();
  proxy = await createProxy({
    mode: 'replay',
    cassette,
    exhausted: 'repeat-last',
    clientTimeouts: { headersMs: 500, requestMs: 1000, idleMs: 500 },
  });
});
test.afterEach(() => proxy.close());

const answers = async () => (await bed.client.send(proxy.url, { path: '/length' })).status;

test('a request head that never ends, and a body that stalls, are cut with 408; replay goes on', async () => {
  const head = await slowHead(proxy.url, 10_000);
  expect(head.closed).toBe(true);
  expect(head.answer).toMatch(/^HTTP\/1\.1 408 /);
  const body = await stalledBody(proxy.url, '/echo', '', 10_000);
  expect(body.closed).toBe(true);
  expect(body.answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(await answers()).toBe(200);
});

test('a body too big to match is answered 413 with the reason, and replay goes on', async () => {
  const size = 65 * 1024 * 1024;
  const { hostname, port } = new URL(proxy.url);
  const socket = net.connect(Number(port), hostname);
  socket.on('error', () => {});
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(`POST /echo HTTP/1.1\r\nHost: ${proxy.url.slice(7)}\r\nContent-Length: ${size}\r\n\r\n`);
  const chunk = Buffer.alloc(1024 * 1024, 0x61);
  // Written with backpressure until the proxy answers and closes (or all of it is sent).
  for (let sent = 0; sent < size && !socket.destroyed && answer === ''; sent += chunk.length) {
    if (!socket.write(chunk)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
  }
  await closed;
  expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  expect(answer).toContain('cannot be matched');
  expect(await answers()).toBe(200);
});

test('500 idle connections do not stop it answering, and silent ones are closed', async () => {
  const idle = await openIdleConnections(proxy.url, 500);
  try {
    expect(await answers()).toBe(200);
    expect(await Promise.all(idle.slice(0, 20).map((socket) => closedBy(socket, 10_000)))).toEqual(Array(20).fill(true));
  } finally {
    for (const socket of idle) socket.destroy();
  }
});
