// Endpoints 10–18 of spec 2: organization variables. octo-org has DEPLOY_ENV (all),
// VAULT_PATH (private) and RELEASE_CHANNEL (selected: widgets 1000, crowd 1002); vault 1001
// is private; octo-labs has FLAG_001…FLAG_035.
import { expect, expectErrorBody, test } from '../../service.fixture.js';

const V = '/orgs/octo-org/actions/variables';
const owner = { as: 'org-owner' };

test('list: {total_count, variables} by name, 10 a page by default and at most 30', async ({ api }) => {
  const list = (await api.get(V, owner)).json();
  expect(list.total_count).toBe(3);
  expect(list.variables.map((v: { name: string }) => v.name)).toEqual(['DEPLOY_ENV', 'RELEASE_CHANNEL', 'VAULT_PATH']);
  expect(list.variables[1]).toEqual({
    name: 'RELEASE_CHANNEL',
    value: 'stable',
    created_at: '2026-05-03T10:00:00Z',
    updated_at: '2026-05-03T10:00:00Z',
    visibility: 'selected',
    selected_repositories_url: 'http://localhost/orgs/octo-org/actions/variables/RELEASE_CHANNEL/repositories',
  });
  const labs = '/orgs/octo-labs/actions/variables';
  expect((await api.get(labs, owner)).json().variables).toHaveLength(10);
  const most = await api.get(`${labs}?per_page=100`, owner);
  expect(most.json().variables).toHaveLength(30);
  expect(most.headers.link).toContain('per_page=30&page=2>; rel="next"');
});

test('create (201, no body), get in any case, rename by PATCH (204), delete (204)', async ({ api }) => {
  const created = await api.call('POST', V, { ...owner, body: { name: 'build_flags', value: '-O2', visibility: 'all' } });
  expect(created.statusCode).toBe(201);
  expect(created.body).toBe('');
  await api.advance(60);
  expect((await api.get(`${V}/Build_Flags`, owner)).json()).toMatchObject({ name: 'BUILD_FLAGS', value: '-O2', visibility: 'all' });
  expect((await api.call('PATCH', `${V}/build_flags`, { ...owner, body: { name: 'OPT_FLAGS', value: '-O3' } })).statusCode).toBe(204);
  expectErrorBody(await api.get(`${V}/BUILD_FLAGS`, owner), 404);
  const renamed = (await api.get(`${V}/OPT_FLAGS`, owner)).json();
  expect(renamed).toMatchObject({ value: '-O3', created_at: '2026-06-01T12:00:00Z', updated_at: '2026-06-01T12:01:00Z' });
  expect((await api.call('DELETE', `${V}/opt_flags`, owner)).statusCode).toBe(204);
  expectErrorBody(await api.get(`${V}/OPT_FLAGS`, owner), 404);
});

test('422 for bad names, values over 48 KiB, ids without selected, foreign ids; 409 for an existing name', async ({ api }) => {
  for (const name of ['1ST', 'HAS SPACE', 'dash-ed', '', 'A'.repeat(256)])
    expectErrorBody(await api.call('POST', V, { ...owner, body: { name, value: 'v', visibility: 'all' } }), 422);
  expectErrorBody(await api.call('POST', V, { ...owner, body: { name: 'BIG', value: 'x'.repeat(48 * 1024 + 1), visibility: 'all' } }), 422);
  expectErrorBody(
    await api.call('POST', V, { ...owner, body: { name: 'X', value: 'v', visibility: 'all', selected_repository_ids: [1000] } }),
    422,
  );
  expectErrorBody(
    await api.call('POST', V, { ...owner, body: { name: 'X', value: 'v', visibility: 'selected', selected_repository_ids: [1003] } }),
    422,
  );
  expectErrorBody(await api.call('POST', V, { ...owner, body: { name: 'deploy_env', value: 'v', visibility: 'all' } }), 409);
  expectErrorBody(await api.call('PATCH', `${V}/VAULT_PATH`, { ...owner, body: { name: 'DEPLOY_ENV' } }), 409);
  expectErrorBody(await api.call('PATCH', `${V}/VAULT_PATH`, { ...owner, body: { selected_repository_ids: [1000] } }), 422);
  expect((await api.get(`${V}/VAULT_PATH`, owner)).json().visibility).toBe('private');
});

test('repositories: listed, replaced, added and removed while selected; 409 otherwise; leaving selected empties the set', async ({
  api,
}) => {
  const R = `${V}/RELEASE_CHANNEL/repositories`;
  const names = async () => (await api.get(R, owner)).json().repositories.map((r: { name: string }) => r.name);
  const first = (await api.get(R, owner)).json();
  expect(first.total_count).toBe(2);
  expect(first.repositories[0]).toMatchObject({
    id: 1000,
    full_name: 'octo-org/widgets',
    private: false,
    owner: { login: 'octo-org', type: 'Organization' },
  });
  expect((await api.call('PUT', R, { ...owner, body: { selected_repository_ids: [1001, 1005] } })).statusCode).toBe(204);
  expect(await names()).toEqual(['vault', 'empty']);
  expect((await api.call('PUT', `${R}/1000`, owner)).statusCode).toBe(204);
  expect((await api.call('PUT', `${R}/1000`, owner)).statusCode).toBe(204);
  expect((await api.call('DELETE', `${R}/1005`, owner)).statusCode).toBe(204);
  expect((await api.call('DELETE', `${R}/1005`, owner)).statusCode).toBe(204);
  expect(await names()).toEqual(['widgets', 'vault']);
  expectErrorBody(await api.call('PUT', `${R}/1003`, owner), 404);
  expectErrorBody(await api.call('PUT', R, { ...owner, body: { selected_repository_ids: [1003] } }), 422);
  expect((await api.call('PATCH', `${V}/RELEASE_CHANNEL`, { ...owner, body: { visibility: 'all' } })).statusCode).toBe(204);
  for (const [method, url] of [
    ['GET', R],
    ['PUT', `${R}/1000`],
    ['DELETE', `${R}/1000`],
  ])
    expectErrorBody(await api.call(method, url, owner), 409);
  expectErrorBody(await api.call('PUT', R, { ...owner, body: { selected_repository_ids: [] } }), 409);
  await api.call('PATCH', `${V}/RELEASE_CHANNEL`, { ...owner, body: { visibility: 'selected' } });
  expect(await names()).toEqual([]);
});

test('who may: owners with admin:org or the Variables permission; a private repository also needs repo', async ({ api }) => {
  expect((await api.get(V, { as: 'fine-grained-variables-reader' })).statusCode).toBe(200);
  expectErrorBody(
    await api.call('POST', V, { as: 'fine-grained-variables-reader', body: { name: 'A', value: 'v', visibility: 'all' } }),
    403,
  );
  expect(
    (await api.call('POST', V, { as: 'fine-grained-variables-writer', body: { name: 'A', value: 'v', visibility: 'all' } })).statusCode,
  ).toBe(201);
  expectErrorBody(await api.get(V, { as: 'org-reader-scope' }), 403);
  expectErrorBody(await api.get(V, { as: 'org-member-admin-scope' }), 403);
  expectErrorBody(await api.get(V), 401);
  // hubot's classic token with admin:org only: a public repository yes, the private vault no.
  const R = `${V}/RELEASE_CHANNEL/repositories`;
  expect((await api.call('PUT', `${R}/1005`, { as: 'org-owner' })).statusCode).toBe(204);
  expectErrorBody(await api.call('PUT', `${R}/1001`, { as: 'org-admin-only-scope' }), 403, /repo scope for a private repository/);
  expect((await api.call('PUT', `${R}/1005`, { as: 'org-admin-only-scope' })).statusCode).toBe(204);
});
