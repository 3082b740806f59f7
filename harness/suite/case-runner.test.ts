import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { zipSync } from 'fflate';
import { createRedactor } from '../http/exchange-record.js';
import { loadSchemaRegistry } from '../http/schema-registry.js';
import { createTargetClient } from '../http/target-client.js';
import type { TargetControl } from '../http/target-control.js';
import type { Transport, WireRequest, WireResponse } from '../http/transport.js';
import { HarnessError } from '../core/errors.js';
import { runCase, type CaseContext } from './case-runner.js';
import type { Case, Expectation, Requirement, StepsCase } from '../core/suite-format.js';
import { suitePaths } from '../core/suite-paths.js';

const TOKEN = 'ts_secret_canary_token_42';
const registry = new Map<string, Requirement>(
  (['MUST', 'SHOULD', 'MAY'] as const).map((level) => [
    `test.${level.toLowerCase()}`,
    { id: `test.${level.toLowerCase()}`, source: 's', quote: 'q', level },
  ]),
);
const schemas = loadSchemaRegistry(suitePaths.schemas);

type Route = (request: WireRequest) => WireResponse | Promise<WireResponse>;
const respond = (status: number, body?: unknown, headers: [string, string][] = []): WireResponse => ({
  status,
  headers: [['Content-Type', 'application/json; charset=utf-8'], ...headers],
  body:
    body === undefined
      ? Buffer.alloc(0)
      : Buffer.isBuffer(body)
        ? body
        : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
});

function context(route: Route, options: { capabilities?: string[]; strict?: boolean; control?: Partial<TargetControl> } = {}) {
  const sent: WireRequest[] = [];
  const transport: Transport = async (request) => {
    sent.push(request);
    return route(request);
  };
  const attached: string[] = [];
  const ctx: CaseContext = {
    client: createTargetClient({ baseUrl: 'http://target.test', tokens: { admin: TOKEN }, transport, userAgent: 'test' }),
    control: {
      capabilities: async () => new Set(),
      reset: async () => {},
      clock: async () => {},
      faults: async () => {},
      inject: async () => {},
      ...options.control,
    },
    capabilities: new Set(options.capabilities ?? []),
    schemas,
    registry,
    redact: createRedactor([TOKEN]),
    strict: options.strict ?? false,
    hooks: { step: (_title, body) => body(), attach: async (_name, record) => void attached.push(JSON.stringify(record)) },
  };
  return { ctx, sent, attached };
}

const oneStep = (expectation: Expectation, requirement = 'test.must'): StepsCase => ({
  id: 'c',
  title: 'a one-step case',
  requirements: [requirement],
  as: 'admin',
  steps: [{ request: { method: 'GET', path: '/thing' }, expect: expectation }],
});

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

test('captures flow into later requests and expectations', async () => {
  const testCase: Case = {
    id: 'c',
    title: 'captures flow',
    requirements: ['test.must'],
    steps: [
      { request: { method: 'GET', path: '/a' }, expect: { capture: { tag: 'header.etag', id: 'body.id' } } },
      {
        request: { method: 'GET', path: '/b/{id}', params: { id: '${id}' }, headers: { 'If-None-Match': '${tag}' } },
        expect: { json: { seen: '${tag}' } },
      },
    ],
  };
  const { ctx, sent } = context((r) =>
    r.url.endsWith('/a') ? respond(200, { id: 9 }, [['ETag', '"v1"']]) : respond(200, { seen: '"v1"' }),
  );
  expect((await runCase(testCase, ctx)).outcome).toBe('PASS');
  expect(sent[1].url).toBe('http://target.test/b/9');
  expect(sent[1].headers).toContainEqual(['If-None-Match', '"v1"']);
});

test('parallel: the copies go out at once; exactly one winner passes and is captured, two winners or a stray status fail', async () => {
  const injected: unknown[] = [];
  const testCase: Case = {
    id: 'c',
    title: 'writes at once',
    requirements: ['test.must'],
    as: 'admin',
    steps: [
      { inject: { storage: 1 } },
      {
        parallel: {
          count: 4,
          request: { method: 'PUT', path: '/f', body: { n: '${i}' } },
          expect: { one: 200, rest: 409 },
          capture: 'won',
        },
      },
      { request: { method: 'GET', path: '/f' }, expect: { json: { n: '${won}' } } },
    ],
  };
  /** A target answering `statuses` to the PUTs in the order they arrive, and the body of the winning one to the GET. */
  const target = (statuses: number[]) => {
    let stored = '';
    let inFlight = 0;
    let overlapped = false;
    const route: Route = async (r) => {
      if (r.method === 'GET') return respond(200, { n: stored });
      inFlight += 1;
      overlapped ||= inFlight > 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      const status = statuses.shift()!;
      if (status === 200) stored = JSON.parse(r.body!.toString()).n;
      return respond(status, {});
    };
    return { route, overlapped: () => overlapped };
  };
  const good = target([409, 200, 409, 409]);
  const run = context(good.route, { control: { inject: async (f) => void injected.push(f) } });
  expect(await runCase(testCase, run.ctx)).toEqual({ outcome: 'PASS' });
  expect(good.overlapped()).toBe(true);
  expect(injected).toEqual([{ storage: 1 }]);
  expect(run.sent.filter((r) => r.method === 'PUT').map((r) => JSON.parse(r.body!.toString()).n)).toEqual(['1', '2', '3', '4']);
  for (const statuses of [
    [200, 200, 409, 409],
    [200, 409, 409, 500],
    [409, 409, 409, 409],
  ]) {
    const outcome = await runCase(testCase, context(target(statuses).route).ctx);
    expect(outcome.outcome, statuses.join()).toBe('FAIL');
    expect(outcome.message, statuses.join()).toContain(`statuses ${statuses.join(', ')}`);
  }
});

test('a redirect is checked, followed through its captured Location (relative or on another origin) and reused', async () => {
  const download: Case = {
    id: 'c',
    title: 'a download through a redirect',
    requirements: ['test.must'],
    as: 'admin',
    steps: [
      {
        request: { method: 'GET', path: '/artifact/zip' },
        expect: { status: 302, headers: { location: { matches: '/blobs/' } }, capture: { location: 'header.location' } },
      },
      {
        request: { method: 'GET', url: '${location}' },
        expect: { status: 200, bytes: { text: 'ok' }, capture: { digest: 'bytes.sha256' } },
      },
      { request: { method: 'GET', path: '/artifact' }, expect: { json: { digest: 'sha256:${digest}' } } },
      { request: { method: 'GET', url: '${location}' }, expect: { status: 410 } },
    ],
  };
  for (const location of ['/blobs/1?sig=x', 'http://storage.test/blobs/1?sig=x']) {
    let fetched = 0;
    const { ctx, sent } = context((r) => {
      if (r.url.endsWith('/artifact/zip')) return respond(302, undefined, [['Location', location]]);
      if (r.url.includes('/blobs/1')) return fetched++ === 0 ? respond(200, 'ok') : respond(410, {});
      return respond(200, { digest: `sha256:${sha256Of('ok')}` });
    });
    expect(await runCase(download, ctx)).toEqual({ outcome: 'PASS' });
    const followed = sent[1];
    expect(followed.url).toBe(new URL(location, 'http://target.test/').toString());
    // The token goes to the target only: a Location on another origin gets no Authorization.
    expect(followed.headers.some(([name]) => name === 'Authorization')).toBe(location.startsWith('/'));
  }
  const { ctx } = context((r) =>
    r.url.endsWith('/artifact/zip') ? respond(302, undefined, [['Location', 'http://x.test/other']]) : respond(200, 'ok'),
  );
  const failed = await runCase(download, ctx);
  expect(failed.outcome).toBe('FAIL');
  expect(failed.message).toContain('location matching //blobs//');
});

test('auth matrix: each role gets its expected status, and one wrong answer fails', async () => {
  const matrix: Case = {
    id: 'm',
    title: 'an auth matrix',
    kind: 'auth-matrix',
    requirements: ['test.must'],
    request: { method: 'GET', path: '/x' },
    expect_by_role: { anonymous: 401, admin: 200 },
  };
  const correct = (r: WireRequest) => respond(r.headers.some(([k]) => k === 'Authorization') ? 200 : 401, {});
  expect((await runCase(matrix, context(correct).ctx)).outcome).toBe('PASS');
  const leaky = () => respond(200, {});
  const failed = await runCase(matrix, context(leaky).ctx);
  expect(failed.outcome).toBe('FAIL');
  expect(failed.failure?.actual).toBe('status 200');
});

test('limits: below, at and above are sent with n-1, n and n+1 values, and a breach above the limit fails', async () => {
  const limits: Case = {
    id: 'l',
    title: 'a limits case',
    kind: 'limits',
    requirements: ['test.must'],
    as: 'admin',
    limit: 3,
    list: ['a', 'b', 'c', 'd'],
    request: { method: 'POST', path: '/add', body: { names: '$list' } },
    expect: { below: { status: 201 }, at: { status: 201 }, above: { status: 422 } },
  };
  const obeys = (r: WireRequest) => respond(JSON.parse(r.body!.toString()).names.length > 3 ? 422 : 201, {});
  const { ctx, sent } = context(obeys);
  expect((await runCase(limits, ctx)).outcome).toBe('PASS');
  expect(sent.map((r) => JSON.parse(r.body!.toString()).names.length)).toEqual([2, 3, 4]);
  expect((await runCase(limits, context(() => respond(201, {})).ctx)).outcome).toBe('FAIL');
});

test('a case needing a capability or a role the run lacks is SKIP, naming everything it lacks', async () => {
  const needsClock: Case = { ...oneStep({ status: 200 }), requires: ['control.clock', 'control.reset'] };
  expect(await runCase(needsClock, context(() => respond(200, {})).ctx)).toEqual({
    outcome: 'SKIP',
    message: 'the target lacks capability control.clock, control.reset',
    missing: { capabilities: ['control.clock', 'control.reset'] },
  });
  const otherRoles: Case = {
    ...oneStep({ status: 200 }),
    as: 'org-owner',
    cleanup: [{ request: { method: 'DELETE', path: '/x', as: 'workflow' }, expect: { status: 204 } }],
  };
  const skipped = await runCase(otherRoles, context(() => respond(200, {})).ctx);
  expect(skipped).toMatchObject({ outcome: 'SKIP', missing: { roles: ['org-owner', 'workflow'] } });
  expect(skipped.message).toBe('no token for role org-owner, workflow (map them with --tokens)');
});

test('a transport failure is ERROR, not a conformance failure, and checks nothing', async () => {
  const broken = () => {
    throw new HarnessError('TARGET_IO', 'connection reset');
  };
  expect(await runCase(oneStep({ status: 200 }), context(broken).ctx)).toEqual({
    outcome: 'ERROR',
    message: 'HarnessError: connection reset',
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
  expect(warned.message).toBe('MAY test.may: expected status 200, got status 500 (and 1 more broken check)');
  const failed = await runCase(steps(204), context(answers).ctx);
  expect(failed).toMatchObject({
    outcome: 'FAIL',
    broken: ['test.may', 'test.should', 'test.must'],
    failure: { requirement: 'test.must', endpoint: 'GET /c' },
    unverified: ['test.other'],
  });
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

test('auth matrix with roles the run has no token for: the other rows run, the rows left out are named', async () => {
  const matrix: Case = {
    id: 'm',
    title: 'a matrix',
    kind: 'auth-matrix',
    requirements: ['test.must'],
    request: { method: 'GET', path: '/x' },
    expect_by_role: { anonymous: 401, admin: 200, 'org-owner': 200, workflow: 403 },
  };
  const correct = (r: WireRequest) => respond(r.headers.some(([k]) => k === 'Authorization') ? 200 : 401, {});
  const { ctx, sent } = context(correct);
  const partial = await runCase(matrix, ctx);
  expect(sent).toHaveLength(2);
  expect(partial).toEqual({
    outcome: 'PASS',
    message: '2 of 4 rows did not run: no token for role org-owner, workflow',
    unverified: ['test.must'],
    missing: { roles: ['org-owner', 'workflow'] },
  });
  const failed = await runCase(matrix, context(() => respond(200, {})).ctx);
  expect(failed).toMatchObject({ outcome: 'FAIL', missing: { roles: ['org-owner', 'workflow'] }, failure: { actual: 'status 200' } });
  expect(failed.message).toContain('(2 of 4 rows did not run: no token for role org-owner, workflow)');
  const none: Case = { ...matrix, expect_by_role: { 'org-owner': 200, workflow: 403 } };
  expect(await runCase(none, context(correct).ctx)).toMatchObject({ outcome: 'SKIP', missing: { roles: ['org-owner', 'workflow'] } });
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
