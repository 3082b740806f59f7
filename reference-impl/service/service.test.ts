import net from 'node:net';
import { Writable } from 'node:stream';
import { expect, test } from '@playwright/test';
import { createReferenceService } from './service.js';
import { loadWorld } from './world-loader.js';

test('listen binds 127.0.0.1 by default, answers over HTTP and resolves to its URL', async () => {
  const service = createReferenceService({ world: loadWorld() });
  try {
    const url = await service.listen({ port: 0 });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${url}/repos/octo-org/crowd/assignees`, { headers: { 'user-agent': 'touchstone-tests' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-service-api-version')).toBe('2022-11-28');
    // Links are built on the Host the client used.
    expect(response.headers.get('link')).toContain(`<${url}/repos/octo-org/crowd/assignees?page=2>; rel="next"`);
  } finally {
    await service.close();
  }
});

test('an unexpected failure is a 500 with the error body, logged, and its details stay inside', async () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const service = createReferenceService({ world: loadWorld(), logger: { level: 'error', stream } });
  // A deliberately broken route: the reference's own routes must never get here. It is
  // marked as declared (endpoint.ts refuses any other route) and has no access rule.
  service.app.get('/_test/boom', { config: { endpoint: 'test.boom' } }, async () => {
    throw new Error('secret internal detail');
  });
  const response = await service.app.inject({ url: '/_test/boom', headers: { 'user-agent': 'touchstone-tests' } });
  expect(response.statusCode).toBe(500);
  expect(response.json()).toEqual({ message: 'Internal Server Error', documentation_url: expect.any(String), status: '500' });
  expect(response.body).not.toContain('secret');
  expect(lines.join('')).toContain('secret internal detail');
  await service.close();
});

test('services are independent: state lives in each instance', async () => {
  const world = loadWorld();
  const one = createReferenceService({ world });
  const two = createReferenceService({ world });
  const headers = { 'user-agent': 't', authorization: 'Bearer ts_classic_org_owner_0001', 'content-type': 'application/json' };
  await one.app.inject({ method: 'PUT', url: '/orgs/octo-org/interaction-limits', headers, payload: '{"limit":"existing_users"}' });
  const fromTwo = await two.app.inject({ url: '/orgs/octo-org/interaction-limits', headers });
  expect(fromTwo.json()).toEqual({});
  await Promise.all([one.close(), two.close()]);
});

test('malformed HTTP on the wire: 400 with the error body, nothing changed', async () => {
  const service = createReferenceService({ world: loadWorld() });
  try {
    const url = new URL(await service.listen({ port: 0 }));
    const send = (raw: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(url.port), '127.0.0.1', () => socket.end(raw));
        let answer = '';
        socket.on('data', (chunk) => (answer += String(chunk)));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const headers = 'Host: a\r\nUser-Agent: t\r\nAuthorization: Bearer ts_classic_repo_admin_0002\r\nConnection: close\r\n';
    const body = '{"limit":"existing_users"}';
    // The body is shorter than its Content-Length, and the client gives up.
    const short = await send(
      `PUT /repos/octo-org/widgets/interaction-limits HTTP/1.1\r\n${headers}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n${body}`,
    );
    expect(short.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(short.split('\r\n\r\n')[1])).toMatchObject({ status: '400', message: 'Bad Request' });
    const garbage = await send('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    const after = await send(`GET /repos/octo-org/widgets/interaction-limits HTTP/1.1\r\n${headers}\r\n`);
    expect(after.split('\r\n\r\n')[1]).toBe('{}');
  } finally {
    await service.close();
  }
});
