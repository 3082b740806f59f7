// The case runner's kinds of case and step: captures, clock, parallel and inject steps, redirects,
// auth matrices (rows without a token included), limits, and cases the run cannot serve.
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { WireRequest } from '../http/transport.js';
import { runCase } from './case-runner.js';
import { context, oneStep, respond, type Route } from './case-runner.fixture.js';
import type { Case } from '../core/suite-format.js';

const sha256Of = (text: string) => createHash('sha256').update(text).digest('hex');

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

test('a clock step may set the clock to a captured date', async () => {
  const testCase: Case = {
    id: 'c',
    title: 'clock from a capture',
    requirements: ['test.must'],
    steps: [
      { request: { method: 'GET', path: '/seat' }, expect: { capture: { until: 'body.until' } } },
      { clock: { set: '${until}T23:59:59Z' } },
    ],
  };
  const moves: unknown[] = [];
  const { ctx } = context(() => respond(200, { until: '2026-06-30' }), { control: { clock: async (move) => void moves.push(move) } });
  expect((await runCase(testCase, ctx)).outcome).toBe('PASS');
  expect(moves).toEqual([{ set: '2026-06-30T23:59:59Z' }]);
});

test('secrets of a case (sealed messages, their boxes, excluded texts) never reach its attachments or failure', async () => {
  const testCase: Case = {
    id: 'c',
    title: 'a target that echoes a secret',
    requirements: ['test.must'],
    steps: [
      {
        request: {
          method: 'PUT',
          path: '/secret',
          body: { encrypted_value: { $sealed_box: { public_key: Buffer.alloc(32, 7).toString('base64'), message: 'pa55word' } } },
        },
        expect: { bytes: { excludes: ['pa55word', 'also-secret'] } },
      },
    ],
  };
  // The target echoes what it was sent and the opened value.
  const { ctx, attached } = context((r) => respond(422, { got: JSON.parse(r.body!.toString()), opened: 'pa55word also-secret' }));
  const outcome = await runCase(testCase, ctx);
  expect(outcome.outcome).toBe('FAIL');
  const shown = JSON.stringify(outcome) + attached.join('\n');
  expect(shown).toContain('<redacted>');
  expect(shown).not.toContain('pa55word');
  expect(shown).not.toContain('also-secret');
  expect(shown).not.toMatch(/"encrypted_value":"[A-Za-z0-9+/]{20,}/);
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
  const puts = run.sent.filter((r) => r.method === 'PUT');
  expect(puts.map((r) => JSON.parse(r.body!.toString()).n)).toEqual(['1', '2', '3', '4']);
  // Each copy names itself, so a target can tell the copies apart whichever arrives first.
  expect(puts.map((r) => r.headers.find(([name]) => name === 'X-Request-Id')?.[1])).toEqual([1, 2, 3, 4].map((n) => `parallel-copy-${n}`));
  for (const statuses of [
    [200, 200, 409, 409],
    [200, 409, 409, 500],
    [409, 409, 409, 409],
  ]) {
    const outcome = await runCase(testCase, context(target(statuses).route).ctx);
    expect(outcome.outcome, statuses.join()).toBe('FAIL');
    expect(outcome.message, statuses.join()).toContain(`statuses ${statuses.join(', ')}`);
  }
  // at_most_one: every copy refused is fine too (nothing lost), two winners are not.
  const atMostOne: Case = {
    ...testCase,
    steps: [
      {
        parallel: {
          count: 4,
          request: { method: 'PUT', path: '/f', body: { n: '${i}' } },
          expect: { one: 200, rest: 409, at_most_one: true },
        },
      },
    ],
  };
  expect((await runCase(atMostOne, context(target([409, 409, 409, 409]).route).ctx)).outcome).toBe('PASS');
  expect((await runCase(atMostOne, context(target([409, 200, 409, 409]).route).ctx)).outcome).toBe('PASS');
  const twice = await runCase(atMostOne, context(target([200, 409, 200, 409]).route).ctx);
  expect(twice.outcome).toBe('FAIL');
  expect(twice.message).toContain('expected at most one of 4 at once 200, the others 409');
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

test('every row of an auth matrix runs after one breaks; each broken row is listed with its role and token', async () => {
  const matrix: Case = {
    id: 'm',
    title: 'a matrix',
    kind: 'auth-matrix',
    requirements: ['test.must'],
    request: { method: 'GET', path: '/x' },
    expect_by_role: { anonymous: 401, admin: [200, 404] },
  };
  // Both rows broken: anonymous gets in, admin is refused.
  const wrong = (r: WireRequest) => respond(r.headers.some(([k]) => k === 'Authorization') ? 403 : 200, {});
  const { ctx, sent } = context(wrong);
  const result = await runCase(matrix, ctx);
  expect(sent).toHaveLength(2);
  expect(result).toMatchObject({ outcome: 'FAIL', broken: ['test.must'], failure: { role: 'anonymous', actual: 'status 200' } });
  expect(result.unverified).toBeUndefined();
  expect(result.failures?.map((f) => [f.role, f.expected, f.actual])).toEqual([
    ['anonymous', 'status 401', 'status 200'],
    ['admin', 'status 200 or 404', 'status 403'],
  ]);
  expect(result.matrix).toEqual([
    { role: 'anonymous', token: 'no token (no Authorization header)', expected: '401', status: 200, outcome: 'FAIL' },
    { role: 'admin', token: 'classic token of a, scopes repo', expected: '200 or 404', status: 403, outcome: 'FAIL' },
  ]);
  expect(result.message?.split('\n')).toEqual([
    'MUST test.must, as anonymous: expected status 401, got status 200',
    'MUST test.must, as admin: expected status 200 or 404, got status 403',
  ]);
  // Each broken row's request can be sent again, with the row's own token as $TOKEN.
  expect(result.failures?.[1]?.reproduce).toContain('Bearer $TOKEN');
  expect(result.failures?.[0]?.reproduce).not.toContain('TOKEN');
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
  expect(partial).toMatchObject({
    outcome: 'PASS',
    message: '2 of 4 rows did not run: no token for role org-owner, workflow',
    unverified: ['test.must'],
    missing: { roles: ['org-owner', 'workflow'] },
  });
  expect(partial.matrix?.map((row) => [row.role, row.outcome, row.status])).toEqual([
    ['anonymous', 'PASS', 401],
    ['admin', 'PASS', 200],
    ['org-owner', 'SKIP', undefined],
    ['workflow', 'SKIP', undefined],
  ]);
  const failed = await runCase(matrix, context(() => respond(200, {})).ctx);
  expect(failed).toMatchObject({ outcome: 'FAIL', missing: { roles: ['org-owner', 'workflow'] }, failure: { actual: 'status 200' } });
  expect(failed.message).toContain('(2 of 4 rows did not run: no token for role org-owner, workflow)');
  const none: Case = { ...matrix, expect_by_role: { 'org-owner': 200, workflow: 403 } };
  expect(await runCase(none, context(correct).ctx)).toMatchObject({ outcome: 'SKIP', missing: { roles: ['org-owner', 'workflow'] } });
});

test('auth matrix whose cleanup acts as a row without a token: the case is SKIP, since nothing could undo the other rows', async () => {
  const matrix: Case = {
    id: 'm',
    title: 'a matrix',
    kind: 'auth-matrix',
    requirements: ['test.must'],
    request: { method: 'POST', path: '/x' },
    expect_by_role: { anonymous: 401, admin: 201, 'org-owner': 201 },
    cleanup: [{ request: { method: 'DELETE', path: '/x', as: 'org-owner' }, expect: { status: 204 } }],
  };
  const { ctx, sent } = context(() => respond(201, {}));
  expect(await runCase(matrix, ctx)).toMatchObject({ outcome: 'SKIP', missing: { roles: ['org-owner'] } });
  expect(sent).toHaveLength(0);
});
