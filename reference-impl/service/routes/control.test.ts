import { SERVICE_FAULTS } from '../faults.js';
import { SERVICE_VARIANTS } from '../variants.js';
import { createReferenceService } from '../service.js';
import { expect, expectErrorBody, test } from '../service.fixture.js';

// The control API: no User-Agent, version or auth rules; reset, clock, faults, variations, capabilities.

const bare = { headers: { 'user-agent': undefined, accept: undefined, 'x-service-api-version': undefined } };

test('capabilities', async ({ api }) => {
  const response = await api.get('/_conformance/capabilities', bare);
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual({
    capabilities: [
      'control.reset',
      'control.clock',
      'control.faults',
      'control.variants',
      'control.failures',
      'control.key-rotation',
      'control.state',
    ],
    faults: [...SERVICE_FAULTS],
    variants: [...SERVICE_VARIANTS],
  });
});

const assigneesOfCrowd = '/repos/octo-org/crowd/assignees?per_page=10';

test('POST faults switches built-in faults on at run time, GET lists them, and a reset switches them off', async ({ api }) => {
  expect((await api.get(assigneesOfCrowd)).headers.link).toContain('rel="next"');
  const set = await api.call('POST', '/_conformance/faults', {
    ...bare,
    body: { faults: ['pagination.no-link-header', 'assignees.check-200'] },
  });
  expect(set.statusCode).toBe(200);
  // Listed in registry order, whatever the order asked.
  expect(set.json()).toEqual({ active: ['pagination.no-link-header', 'assignees.check-200'] });
  expect((await api.get('/_conformance/faults', bare)).json()).toEqual({ active: ['pagination.no-link-header', 'assignees.check-200'] });
  expect((await api.get(assigneesOfCrowd)).headers.link).toBeUndefined();
  expect((await api.get('/repos/octo-org/widgets/assignees/defunkt')).statusCode).toBe(200);
  expect((await api.call('POST', '/_conformance/reset', bare)).statusCode).toBe(204);
  expect((await api.get('/_conformance/faults', bare)).json()).toEqual({ active: [] });
  expect((await api.get(assigneesOfCrowd)).headers.link).toContain('rel="next"');
});

test('POST faults with an unknown fault is 422 naming it, and changes nothing', async ({ api }) => {
  const response = await api.call('POST', '/_conformance/faults', {
    ...bare,
    body: { faults: ['pagination.no-link-header', 'no.such-fault'] },
  });
  const body = expectErrorBody(response, 422);
  expect(body.errors).toEqual([{ resource: 'Faults', field: 'faults', code: 'custom', message: 'unknown fault no.such-fault' }]);
  expect((await api.get('/_conformance/faults', bare)).json()).toEqual({ active: [] });
  expectErrorBody(await api.call('POST', '/_conformance/faults', { ...bare, body: { faults: 'pagination.no-link-header' } }), 422);
});

test('faults the service starts with stay on across resets; an empty POST switches them off until the next reset', async ({ world }) => {
  const service = createReferenceService({ world, faults: ['assignees.check-200'] });
  try {
    const check = () =>
      service.app.inject({ method: 'GET', url: '/repos/octo-org/widgets/assignees/defunkt', headers: { 'user-agent': 't' } });
    expect((await check()).statusCode).toBe(200);
    await service.app.inject({ method: 'POST', url: '/_conformance/faults', payload: { faults: [] } });
    expect((await check()).statusCode).toBe(204);
    await service.app.inject({ method: 'POST', url: '/_conformance/reset' });
    expect((await check()).statusCode).toBe(200);
  } finally {
    await service.close();
  }
});

test('failures: POST sets how many storage writes fail, GET shows what is pending, bad bodies are 422, a reset clears them', async ({
  api,
}) => {
  expect((await api.get('/_conformance/failures', bare)).json()).toEqual({ pending: { storage: 0, internal: 0, maintenance: 0 } });
  expect((await api.call('POST', '/_conformance/failures', { ...bare, body: { storage: 2 } })).json()).toEqual({
    pending: { storage: 2, internal: 0, maintenance: 0 },
  });
  for (const body of [{}, { storage: -1 }, { storage: 'x' }, { disk: 1 }])
    expectErrorBody(await api.call('POST', '/_conformance/failures', { ...bare, body }), 422);
  expect((await api.get('/_conformance/failures', bare)).json()).toEqual({ pending: { storage: 2, internal: 0, maintenance: 0 } });
  await api.call('POST', '/_conformance/reset', bare);
  expect((await api.get('/_conformance/failures', bare)).json()).toEqual({ pending: { storage: 0, internal: 0, maintenance: 0 } });
});

test('secret-keys/rotate: a new key for a known repository (any case), 422 for an unknown one or a bad body', async ({ api }) => {
  const before = (await api.get('/repos/octo-org/widgets/devenv/secrets/public-key', { as: 'repo-admin' })).json();
  const rotated = await api.call('POST', '/_conformance/secret-keys/rotate', { ...bare, body: { repository: 'Octo-Org/Widgets' } });
  expect(rotated.statusCode).toBe(200);
  expect(rotated.json().key_id).not.toBe(before.key_id);
  for (const body of [{ repository: 'octo-org/nothing' }, { repository: 'widgets' }, {}])
    expectErrorBody(await api.call('POST', '/_conformance/secret-keys/rotate', { ...bare, body }), 422);
});

test('GET clock: the world start', async ({ api }) => {
  expect((await api.get('/_conformance/clock', bare)).json()).toEqual({ now: '2026-06-01T12:00:00Z' });
});

test('POST clock advance_seconds moves it forward', async ({ api }) => {
  const response = await api.call('POST', '/_conformance/clock', { ...bare, body: { advance_seconds: 90 } });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual({ now: '2026-06-01T12:01:30Z' });
  expect((await api.get('/_conformance/clock', bare)).json()).toEqual({ now: '2026-06-01T12:01:30Z' });
});

test('POST clock set jumps to a time, normalised to UTC and whole seconds', async ({ api }) => {
  for (const [set, now] of [
    ['2027-01-02T03:04:05Z', '2027-01-02T03:04:05Z'],
    ['2027-01-02T05:04:05+02:00', '2027-01-02T03:04:05Z'],
    ['2027-01-02T03:04:05.999Z', '2027-01-02T03:04:05Z'],
    ['2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z'],
  ]) {
    expect((await api.call('POST', '/_conformance/clock', { ...bare, body: { set } })).json(), set).toEqual({ now });
  }
});

for (const [name, body, field] of [
  ['an empty object', {}, ''],
  ['both set and advance_seconds', { set: '2027-01-01T00:00:00Z', advance_seconds: 1 }, ''],
  ['a negative advance', { advance_seconds: -1 }, 'advance_seconds'],
  ['a fractional advance', { advance_seconds: 1.5 }, 'advance_seconds'],
  ['an advance as a string', { advance_seconds: '60' }, 'advance_seconds'],
  ['an advance past the representable range', { advance_seconds: 1e15 }, 'advance_seconds'],
  ['a set that is not a date-time', { set: 'tomorrow' }, 'set'],
  ['a date without time', { set: '2027-01-01' }, 'set'],
  ['an impossible date', { set: '2027-02-30T00:00:00Z' }, 'set'],
  ['a set before 1970', { set: '1969-12-31T23:59:59Z' }, 'set'],
  ['an unknown field', { rewind: 1 }, 'rewind'],
] as const) {
  test(`POST clock with ${name}: 422, clock unchanged`, async ({ api }) => {
    const error = expectErrorBody(await api.call('POST', '/_conformance/clock', { ...bare, body }), 422, 'Validation Failed');
    expect((error.errors as { field: string }[]).map((e) => e.field)).toContain(field);
    expect((await api.get('/_conformance/clock', bare)).json()).toEqual({ now: '2026-06-01T12:00:00Z' });
  });
}

test('reset: 204, back to the world, clock included', async ({ api }) => {
  await api.call('PUT', '/orgs/octo-org/interaction-limits', { as: 'org-owner', body: { limit: 'existing_users' } });
  await api.call('PUT', '/repos/octocat/hello-world/interaction-limits', { as: 'user-owner', body: { limit: 'existing_users' } });
  await api.call('DELETE', '/repos/octo-org/widgets/issues/3/assignees', { as: 'repo-admin', body: { assignees: ['monalisa'] } });
  await api.advance(180 * 24 * 3600);

  const reset = await api.call('POST', '/_conformance/reset', bare);
  expect(reset.statusCode).toBe(204);
  expect(reset.body).toBe('');

  expect((await api.get('/_conformance/clock', bare)).json()).toEqual({ now: '2026-06-01T12:00:00Z' });
  expect((await api.get('/orgs/octo-org/interaction-limits', { as: 'org-owner' })).json()).toEqual({});
  expect((await api.get('/repos/octocat/hello-world/interaction-limits', { as: 'user-owner' })).json()).toEqual({});
  const issue = await api.call('POST', '/repos/octo-org/widgets/issues/3/assignees', { as: 'repo-admin', body: { assignees: [] } });
  expect(issue.json().assignees.map((u: { login: string }) => u.login)).toEqual(['monalisa', 'defunkt']);
  expect(issue.json().updated_at).toBe('2026-05-03T09:00:00Z');
  // The world's user-level limit is back too (it had expired after six months).
  expect((await api.call('DELETE', '/repos/sheriff/town/interaction-limits', { as: 'limited-user-owner' })).statusCode).toBe(409);
});

test('reset refuses a body with fields', async ({ api }) => {
  expectErrorBody(await api.call('POST', '/_conformance/reset', { ...bare, body: { hard: true } }), 422);
});

test('unknown control paths: 404', async ({ api }) => {
  expectErrorBody(await api.get('/_conformance/nothing', bare), 404);
  expectErrorBody(await api.call('PUT', '/_conformance/clock', { ...bare, body: { set: '2027-01-01T00:00:00Z' } }), 404);
});

test('GET state digests what requests can change: the same after reads and refused writes, another after a write, the first again after a reset', async ({
  api,
}) => {
  const state = async () => (await api.get('/_conformance/state', bare)).json() as { digest: string; areas: Record<string, string> };
  const before = await state();
  expect(before.digest).toMatch(/^[0-9a-f]{64}$/);
  expect(Object.keys(before.areas)).toContain('variables');
  // Reads, a first read of a repository's Git content among them, and a refused write.
  expect((await api.get('/repos/octo-org/widgets/contents/README.md', { as: 'org-owner' })).statusCode).toBe(200);
  expect((await api.call('POST', '/orgs/octo-org/actions/variables', { as: 'org-owner', body: { name: 'X' } })).statusCode).toBe(422);
  expect(await state()).toEqual(before);
  const created = await api.call('POST', '/orgs/octo-org/actions/variables', {
    as: 'org-owner',
    body: { name: 'FUZZ_X', value: '1', visibility: 'all' },
  });
  expect(created.statusCode).toBe(201);
  const after = await state();
  expect(after.digest).not.toBe(before.digest);
  expect(
    Object.entries(after.areas)
      .filter(([name, digest]) => digest !== before.areas[name])
      .map(([name]) => name),
  ).toEqual(['variables']);
  expect((await api.call('POST', '/_conformance/reset', bare)).statusCode).toBe(204);
  expect(await state()).toEqual(before);
});

test('a fault narrowed to an area deviates on its endpoints only, switched on at start or through the control API', async ({ world }) => {
  const service = createReferenceService({ world, faults: ['user-agent.not-required-on-contents'] });
  try {
    const withoutAgent = (url: string) => service.app.inject({ method: 'GET', url, headers: { 'user-agent': undefined } });
    expect((await withoutAgent('/repos/octo-org/widgets/contents/README.md')).statusCode).toBe(200);
    expect((await withoutAgent('/repos/octo-org/widgets/readme')).statusCode).toBe(200);
    // The same convention on another area's endpoint, and on no endpoint at all, holds.
    expect((await withoutAgent('/repos/octo-org/widgets/assignees')).statusCode).toBe(403);
    expect((await withoutAgent('/no/such/route')).statusCode).toBe(403);
    await service.app.inject({ method: 'POST', url: '/_conformance/faults', payload: { faults: ['names.case-sensitive-on-assistant'] } });
    expect((await withoutAgent('/repos/octo-org/widgets/contents/README.md')).statusCode).toBe(403);
    const seats = (org: string) =>
      service.app.inject({
        method: 'GET',
        url: `/orgs/${org}/assistant/billing`,
        headers: { 'user-agent': 't', authorization: `Bearer ${world.tokens.find((t) => t.role === 'assistant-manager')!.value}` },
      });
    expect((await seats('octo-org')).statusCode).toBe(200);
    expect((await seats('OCTO-ORG')).statusCode).toBe(404);
  } finally {
    await service.close();
  }
});
