// The case runner's outcomes: each expectation failing for its own reason, the level of a
// broken requirement deciding the outcome, errors, cleanup, resets and redaction.
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { zipSync } from 'fflate';
import type { WireRequest, WireResponse } from '../http/transport.js';
import { HarnessError } from '../core/errors.js';
import { runCase } from './case-runner.js';
import { context, oneStep, respond, TOKEN } from './case-runner.fixture.js';
import type { Case, Expectation } from '../core/suite-format.js';

const user = {
  login: 'a',
  id: 1,
  node_id: 'n',
  avatar_url: '',
  gravatar_id: '',
  url: '',
  html_url: '',
  followers_url: '',
  following_url: '',
  gists_url: '',
  starred_url: '',
  subscriptions_url: '',
  organizations_url: '',
  repos_url: '',
  events_url: '',
  received_events_url: '',
  type: 'User',
  site_admin: false,
};

const sha256Of = (text: string) => createHash('sha256').update(text).digest('hex');
const zipOf = (...names: string[]) => Buffer.from(zipSync(Object.fromEntries(names.map((n) => [n, new Uint8Array([1])]))));

// Each expectation kind: a response that obeys it passes, one that breaks it fails.
const expectationControls: [string, Expectation, WireResponse, WireResponse][] = [
  ['status', { status: 200 }, respond(200, {}), respond(500, {})],
  ['status class', { status: '4xx' }, respond(422, {}), respond(201, {})],
  ['header present', { headers: { etag: { present: true } } }, respond(200, {}, [['ETag', '"x"']]), respond(200, {})],
  ['header absent', { headers: { link: { present: false } } }, respond(200, {}), respond(200, {}, [['Link', '<x>; rel="next"']])],
  [
    'header exact',
    { headers: { 'content-type': 'application/json; charset=utf-8' } },
    respond(200, {}),
    { ...respond(200, {}), headers: [['Content-Type', 'text/plain']] },
  ],
  [
    'header pattern',
    { headers: { 'content-type': { matches: '^application/json' } } },
    respond(200, {}),
    { ...respond(200, {}), headers: [['Content-Type', 'text/html']] },
  ],
  ['empty body', { empty: true }, respond(200, {}), respond(200, { limit: 'x' })],
  ['schema', { schema: 'user' }, respond(200, user), respond(200, { ...user, id: 'one' })],
  ['schema of an array', { schema: 'user[]' }, respond(200, [user]), respond(200, user)],
  ['JSON subset', { json: { a: { b: 1 } } }, respond(200, { a: { b: 1, c: 2 }, d: 3 }), respond(200, { a: { b: 2 } })],
  [
    'equals',
    { assert: [{ path: 'xs[*].n', equals: [1, 2] }] },
    respond(200, { xs: [{ n: 1 }, { n: 2 }] }),
    respond(200, { xs: [{ n: 2 }, { n: 1 }] }),
  ],
  ['includes', { assert: [{ path: 'xs', includes: 'a' }] }, respond(200, { xs: ['a', 'b'] }), respond(200, { xs: ['b'] })],
  ['excludes', { assert: [{ path: 'xs', excludes: 'a' }] }, respond(200, { xs: ['b'] }), respond(200, { xs: ['a'] })],
  ['length', { assert: [{ path: '$', length: 2 }] }, respond(200, [1, 2]), respond(200, [1, 2, 3])],
  ['max_length', { assert: [{ path: 'xs', max_length: 2 }] }, respond(200, { xs: [1, 2] }), respond(200, { xs: [1, 2, 3] })],
  [
    'sorted',
    { assert: [{ path: '$[*].n', sorted: 'descending' }] },
    respond(200, [{ n: 3 }, { n: 3 }, { n: 1 }]),
    respond(200, [{ n: 1 }, { n: 3 }]),
  ],
  ['sorted strings', { assert: [{ path: 'xs', sorted: 'ascending' }] }, respond(200, { xs: ['a', 'b'] }), respond(200, { xs: ['b', 'a'] })],
  [
    'members',
    { assert: [{ path: 'xs', members: ['a', 'b', 'a'] }] },
    respond(200, { xs: ['b', 'a', 'a'] }),
    respond(200, { xs: ['a', 'b', 'b'] }),
  ],
  [
    'members of objects, extra fields allowed',
    { assert: [{ path: '$', members: [{ id: 1 }, { id: 2 }] }] },
    respond(200, [{ id: 2, extra: true }, { id: 1 }]),
    respond(200, [{ id: 2 }, { id: 2, extra: true }]),
  ],
  ['at_least', { assert: [{ path: 'n', at_least: 3 }] }, respond(200, { n: 3 }), respond(200, { n: 2 })],
  [
    'instant',
    { assert: [{ path: 't', instant: ['2026-07-31T00:00:00Z', '2026-08-01T00:00:00Z'] }] },
    respond(200, { t: '2026-08-01T00:00:00.000+00:00' }),
    respond(200, { t: '2026-08-02T00:00:00Z' }),
  ],
  [
    'instant without a zone',
    { assert: [{ path: 't', instant: '2026-08-01T00:00:00Z' }] },
    respond(200, { t: '2026-08-01T00:00:00Z' }),
    respond(200, { t: '2026-08-01T00:00:00' }),
  ],
  [
    'matches',
    { assert: [{ path: 't', matches: 'Z$' }] },
    respond(200, { t: '2026-01-01T00:00:00Z' }),
    respond(200, { t: '2026-01-01T00:00:00+02:00' }),
  ],
  ['capture needs the value', { capture: { id: 'body.id' } }, respond(200, { id: 7 }), respond(200, {})],
  ['body must be JSON', { json: {} }, respond(200, {}), respond(200, 'not json')],
  ['bytes: size and digest', { bytes: { size: 2, sha256: sha256Of('ok') } }, respond(200, 'ok'), respond(200, 'no')],
  ['bytes: text', { bytes: { text: 'ok' } }, respond(200, 'ok'), respond(200, 'ok\n')],
  ['bytes: archive', { bytes: { archive: { format: 'zip', count: 1 } } }, respond(200, zipOf('a')), respond(200, zipOf('a', 'b'))],
];

for (const [name, expectation, good, bad] of expectationControls) {
  test(`negative control: ${name}`, async () => {
    expect((await runCase(oneStep(expectation), context(() => good).ctx)).outcome).toBe('PASS');
    const failed = await runCase(oneStep(expectation), context(() => bad).ctx);
    expect(failed.outcome).toBe('FAIL');
    expect(failed.failure?.requirement).toBe('test.must');
  });
}

test('the outcome follows the level of the requirement that failed; --strict hardens SHOULD only', async () => {
  const fail = () => respond(500, {});
  expect((await runCase(oneStep({ status: 200 }, 'test.should'), context(fail).ctx)).outcome).toBe('WARN');
  expect((await runCase(oneStep({ status: 200 }, 'test.should'), context(fail, { strict: true }).ctx)).outcome).toBe('FAIL');
  expect((await runCase(oneStep({ status: 200 }, 'test.may'), context(fail, { strict: true }).ctx)).outcome).toBe('WARN');
  const stepLevel: Case = {
    ...oneStep({ status: 200 }),
    steps: [{ requirement: 'test.may', request: { method: 'GET', path: '/x' }, expect: { status: 200 } }],
  };
  expect((await runCase(stepLevel, context(fail).ctx)).failure?.requirement).toBe('test.may');
});

test("a request with no answer is the target's failure: FAIL citing the step's requirement, the rest unverified (case-bounds.test.ts has more)", async () => {
  const broken = () => {
    throw new HarnessError('TARGET_IO', 'GET http://target.test/thing: connection reset');
  };
  expect(await runCase({ ...oneStep({ status: 200 }), requirements: ['test.must', 'test.other'] }, context(broken).ctx)).toMatchObject({
    outcome: 'FAIL',
    message: 'MUST test.must, as admin: expected an answer, got no answer: GET http://target.test/thing: connection reset',
    broken: ['test.must'],
    unverified: ['test.other'],
  });
});

test('a broken SHOULD or MAY does not stop the case: a later broken MUST still fails it, and every broken rule is listed', async () => {
  const steps = (second: number): Case => ({
    id: 'c',
    title: 'three steps',
    requirements: ['test.must', 'test.other'],
    as: 'admin',
    steps: [
      { requirement: 'test.may', request: { method: 'GET', path: '/a' }, expect: { status: 200 } },
      { requirement: 'test.should', request: { method: 'GET', path: '/b' }, expect: { status: 200 } },
      { request: { method: 'GET', path: '/c' }, expect: { status: second } },
    ],
  });
  const answers = (r: WireRequest) => respond(r.url.endsWith('/c') ? 201 : 500, {});
  const { ctx, sent } = context(answers);
  const warned = await runCase(steps(201), ctx);
  expect(sent.map((r) => new URL(r.url).pathname)).toEqual(['/a', '/b', '/c']);
  expect(warned).toMatchObject({
    outcome: 'WARN',
    broken: ['test.may', 'test.should'],
    failure: { requirement: 'test.may', endpoint: 'GET /a' },
  });
  expect(warned.unverified).toBeUndefined();
  expect(warned.message).toBe(
    'MAY test.may, as admin: expected status 200, got status 500\nSHOULD test.should, as admin: expected status 200, got status 500',
  );
  expect(warned.failures?.map((f) => [f.requirement, f.endpoint, f.role])).toEqual([
    ['test.may', 'GET /a', 'admin'],
    ['test.should', 'GET /b', 'admin'],
  ]);
  const failed = await runCase(steps(204), context(answers).ctx);
  // The MUST decides the outcome and comes first; the warnings before it are still listed.
  expect(failed).toMatchObject({
    outcome: 'FAIL',
    broken: ['test.must', 'test.may', 'test.should'],
    failure: { requirement: 'test.must', endpoint: 'GET /c' },
    unverified: ['test.other'],
  });
  expect(failed.failures?.map((f) => f.requirement)).toEqual(['test.must', 'test.may', 'test.should']);
  expect(failed.message?.split('\n')).toEqual([
    'MUST test.must, as admin: expected status 204, got status 201',
    'MAY test.may, as admin: expected status 200, got status 500',
    'SHOULD test.should, as admin: expected status 200, got status 500',
  ]);
});

test('a broken MUST stops the case, and what it did not get to check is unverified', async () => {
  const testCase: Case = {
    id: 'c',
    title: 'two steps',
    requirements: ['test.must', 'test.should'],
    as: 'admin',
    steps: [
      { request: { method: 'GET', path: '/a' }, expect: { status: 200 } },
      { requirement: 'test.should', request: { method: 'GET', path: '/b' }, expect: { status: 200 } },
    ],
  };
  const { ctx, sent } = context(() => respond(500, {}));
  expect(await runCase(testCase, ctx)).toMatchObject({ outcome: 'FAIL', broken: ['test.must'], unverified: ['test.should'] });
  expect(sent).toHaveLength(1);
});

test('a soft failure in a step whose values later steps capture stops the case there', async () => {
  const testCase: Case = {
    id: 'c',
    title: 'capture after a warning',
    requirements: ['test.must'],
    as: 'admin',
    steps: [
      { requirement: 'test.may', request: { method: 'GET', path: '/a' }, expect: { status: 200, capture: { id: 'body.id' } } },
      { request: { method: 'GET', path: '/b/{id}', params: { id: '${id}' } }, expect: { status: 200 } },
    ],
  };
  const { ctx, sent } = context(() => respond(500, {}));
  expect(await runCase(testCase, ctx)).toMatchObject({ outcome: 'WARN', broken: ['test.may'], unverified: ['test.must'] });
  expect(sent).toHaveLength(1);
});

test('cleanup runs after a failure too, and a failed cleanup of a passing case is ERROR', async () => {
  const withCleanup: Case = {
    ...oneStep({ status: 200 }),
    cleanup: [{ request: { method: 'DELETE', path: '/thing' }, expect: { status: 204 } }],
  };
  const { ctx, sent } = context((r) => respond(r.method === 'DELETE' ? 204 : 500, {}));
  expect((await runCase(withCleanup, ctx)).outcome).toBe('FAIL');
  expect(sent.map((r) => r.method)).toEqual(['GET', 'DELETE']);
  const dirty = await runCase(withCleanup, context((r) => respond(r.method === 'DELETE' ? 500 : 200, {})).ctx);
  expect(dirty.outcome).toBe('ERROR');
  expect(dirty.message).toContain('cleanup failed');
});

test('the world is reset before each case when the target can reset', async () => {
  let resets = 0;
  const { ctx } = context(() => respond(200, {}), { capabilities: ['control.reset'], control: { reset: async () => void resets++ } });
  await runCase(oneStep({ status: 200 }), ctx);
  expect(resets).toBe(1);
});

test('a failure record holds no token: the exchange, the curl and the message say $TOKEN', async () => {
  const echo = (r: WireRequest) => respond(500, { echoed: r.headers.find(([k]) => k === 'Authorization')?.[1] });
  const { ctx, attached } = context(echo);
  const result = await runCase(oneStep({ json: { ok: true } }), ctx);
  const text = JSON.stringify(result) + attached.join('');
  expect(text).not.toContain(TOKEN);
  expect(result.failure?.reproduce).toContain('"Authorization: Bearer $TOKEN"');
  expect(result.failure?.exchange?.response?.body).toContain('Bearer $TOKEN');
  expect(result.failure?.endpoint).toBe('GET /thing');
});
