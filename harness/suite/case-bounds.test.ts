// A request of a case that gets no answer is the target's failure (FAIL, citing the step's
// requirement and naming the request and the network error); the control API failing is
// ERROR naming the control API; the case's bound fails whatever is still waiting at it.
import { expect, test } from '@playwright/test';
import { HarnessError } from '../core/errors.js';
import { createTargetControl } from '../http/target-control.js';
import { createHttpTransport, type WireRequest } from '../http/transport.js';
import type { StepsCase } from '../core/suite-format.js';
import { runCase } from './case-runner.js';
import { context, respond } from './case-runner.fixture.js';

const DOWNLOAD = 'http://files.no-such-host.invalid/blob/1';

/** A target that hands out a URL on another host, and a case that follows it. */
const downloadCase = (requirement?: string): StepsCase => ({
  id: 'download',
  title: 'the download URL serves the file',
  requirements: ['test.must'],
  steps: [
    { request: { method: 'GET', path: '/thing' }, expect: { status: 200, capture: { download: 'body.download_url' } } },
    { request: { method: 'GET', url: '${download}' }, expect: { status: 200 }, ...(requirement && { requirement }) },
  ],
});

const dnsFails = (r: WireRequest) => {
  if (r.url.startsWith('http://files.'))
    throw new HarnessError('TARGET_IO', `GET ${r.url}: getaddrinfo ENOTFOUND files.no-such-host.invalid`);
  return respond(200, { download_url: DOWNLOAD });
};

test('a URL the target hands out that cannot be resolved is FAIL citing the step, naming the URL and the network error', async () => {
  const result = await runCase(downloadCase(), context(dnsFails).ctx);
  expect(result.outcome).toBe('FAIL');
  expect(result.failure).toMatchObject({ requirement: 'test.must', expected: 'an answer', endpoint: `GET ${DOWNLOAD}` });
  expect(result.message).toBe(
    `MUST test.must, as anonymous: expected an answer, got no answer: GET ${DOWNLOAD}: getaddrinfo ENOTFOUND files.no-such-host.invalid`,
  );
  // No exchange happened: none is shown as if it had.
  expect(result.failure?.exchange).toBeUndefined();
});

test('no answer where the step cites a SHOULD is graded at that level: WARN, and the case stops there', async () => {
  const result = await runCase(downloadCase('test.should'), context(dnsFails).ctx);
  expect(result.outcome).toBe('WARN');
  expect(result.failure?.requirement).toBe('test.should');
  expect(result.message).toContain('expected an answer, got no answer');
  expect(result.unverified).toBeDefined();
});

test('a refused connection, through the real transport, is FAIL naming the URL and ECONNREFUSED', async () => {
  const transport = createHttpTransport({ timeoutMs: 5_000 });
  const closed = 'http://127.0.0.1:9/blob/1';
  const { ctx } = context((r) => (r.url.startsWith('http://127.0.0.1:9') ? transport.send(r) : respond(200, { download_url: closed })));
  try {
    const result = await runCase(downloadCase(), ctx);
    expect(result.outcome).toBe('FAIL');
    expect(result.message).toContain(`expected an answer, got no answer: GET ${closed}: `);
    expect(result.message).toMatch(/ECONNREFUSED/);
  } finally {
    transport.close();
  }
});

test('a cleanup request with no answer after a passing case is FAIL, not a harness error', async () => {
  const withCleanup: StepsCase = {
    id: 'c',
    title: 'cleaned up',
    requirements: ['test.must'],
    steps: [{ request: { method: 'GET', path: '/thing' }, expect: { status: 200 } }],
    cleanup: [{ request: { method: 'DELETE', path: '/thing' }, expect: { status: 204 } }],
  };
  const { ctx } = context((r) => {
    if (r.method === 'DELETE') throw new HarnessError('TARGET_IO', `DELETE ${r.url}: socket hang up`);
    return respond(200, {});
  });
  const result = await runCase(withCleanup, ctx);
  expect(result).toMatchObject({ outcome: 'FAIL', failure: { requirement: 'test.must', endpoint: 'DELETE /thing' } });
  expect(result.message).toContain('socket hang up');
});

test('the control API giving no answer is ERROR, and the message names the control API', async () => {
  const control = createTargetControl(
    'http://target.test',
    async (r) => {
      throw new HarnessError('TARGET_IO', `${r.method} ${r.url}: read ECONNRESET`);
    },
    'test',
  );
  const { ctx } = context(() => respond(200, {}), { capabilities: ['control.reset'], control: { reset: control.reset } });
  const result = await runCase(downloadCase(), ctx);
  expect(result.outcome).toBe('ERROR');
  expect(result.message).toContain('the control API (POST /_conformance/reset) gave no answer');
});

test("a request still waiting at the case's bound fails there: FAIL, saying the bound and its option", async () => {
  const { ctx } = context((r) => (r.url.startsWith('http://files.') ? new Promise(() => {}) : respond(200, { download_url: DOWNLOAD })));
  const started = Date.now();
  const result = await runCase(downloadCase(), { ...ctx, caseTimeoutMs: 300 });
  expect(result.outcome).toBe('FAIL');
  expect(result.message).toBe(
    `MUST test.must, as anonymous: expected an answer, got no answer: GET ${DOWNLOAD}: no answer within the case's bound of 0.3 s (--case-timeout)`,
  );
  // Generous: the point is that a request that never ends does not hold the case.
  expect(Date.now() - started).toBeLessThan(10_000);
});

test("a control call still waiting at the case's bound is ERROR naming the control API", async () => {
  const { ctx } = context(() => respond(200, {}), { capabilities: ['control.reset'], control: { reset: () => new Promise(() => {}) } });
  const result = await runCase(downloadCase(), { ...ctx, caseTimeoutMs: 200 });
  expect(result.outcome).toBe('ERROR');
  expect(result.message).toContain("control API reset: no answer within the case's bound of 0.2 s (--case-timeout)");
});
