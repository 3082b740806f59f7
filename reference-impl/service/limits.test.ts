// The reference under slow and idle clients: a head that never ends and a body that stalls
// are cut (408, connection closed), an idle keep-alive connection is closed, a body over the
// cap is 413, and hundreds of idle connections do not stop it answering. Timeouts are set
// short here (clientTimeouts); the defaults are in service.ts. The waits are guards, not
// measurements.
import { expect, test } from '@playwright/test';
import { closedBy, openIdleConnections, slowHead, stalledBody } from '../../test-support/slow-clients.js';
import { createReferenceService, loadWorld, type ReferenceService } from './service.js';

let service: ReferenceService;
let url: string;
test.beforeAll(async () => {
  service = createReferenceService({ world: loadWorld(), clientTimeouts: { headersMs: 500, requestMs: 1000, idleMs: 500 } });
  url = await service.listen({ port: 0 });
});
test.afterAll(() => service.close());

const CLIENT = { 'user-agent': 'touchstone-tests', accept: 'application/vnd.service+json' };
const answers = async () => (await fetch(`${url}/repos/octo-org/widgets/assignees`, { headers: CLIENT })).status;

test('a request head that never ends is cut with 408, and the service goes on answering', async () => {
  const cut = await slowHead(url, 10_000);
  expect(cut.closed).toBe(true);
  expect(cut.answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(await answers()).toBe(200);
});

test('a body that stalls is cut with 408, and nothing of it is applied', async () => {
  const before = (await (await fetch(`${url}/_conformance/state`)).json()).digest;
  const cut = await stalledBody(
    url,
    '/orgs/octo-org/actions/variables',
    'User-Agent: t\r\nAuthorization: Bearer ts_classic_org_owner_0001\r\n',
    10_000,
  );
  expect(cut.closed).toBe(true);
  expect(cut.answer).toMatch(/^HTTP\/1\.1 408 /);
  expect((await (await fetch(`${url}/_conformance/state`)).json()).digest).toBe(before);
  expect(await answers()).toBe(200);
});

test('a body over the cap is 413 with the error body', async () => {
  const response = await fetch(`${url}/orgs/octo-org/actions/variables`, {
    method: 'POST',
    headers: { ...CLIENT, authorization: 'Bearer ts_classic_org_owner_0001', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'BIG', value: 'v'.repeat(2 * 1024 * 1024), visibility: 'all' }),
  });
  expect(response.status).toBe(413);
  expect(await response.json()).toMatchObject({ status: '413' });
  expect(await answers()).toBe(200);
});

test('500 idle connections do not stop it answering, and idle connections are closed', async () => {
  const idle = await openIdleConnections(url, 500);
  try {
    expect(await answers()).toBe(200);
    // Connections that never send a request are cut at the head timeout.
    expect(await Promise.all(idle.slice(0, 20).map((socket) => closedBy(socket, 10_000)))).toEqual(Array(20).fill(true));
  } finally {
    for (const socket of idle) socket.destroy();
  }
});
