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

test('who may: owners with admin:org or the Variables permission (by default); a private repository also needs repo', async ({ api }) => {
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

test('a member who collaborates on the repositories but owns nothing is refused; with variables.collaborators-manage she may', async ({
  api,
}) => {
  const member = { as: 'org-member-admin-scope' };
  expectErrorBody(await api.get(`${V}/DEPLOY_ENV`, member), 403, /organization owner/);
  await api.vary('variables.collaborators-manage');
  expect((await api.get(`${V}/DEPLOY_ENV`, member)).json()).toMatchObject({ value: 'production' });
  expect((await api.call('PATCH', `${V}/DEPLOY_ENV`, { ...member, body: { value: 'staging' } })).statusCode).toBe(204);
  expect((await api.call('PUT', `${V}/RELEASE_CHANNEL/repositories/1001`, member)).statusCode).toBe(204);
  // octo-labs owns no repository: she collaborates on none of its repositories.
  expectErrorBody(await api.get('/orgs/octo-labs/actions/variables', member), 403);
  // The scope and permission rules still hold.
  expectErrorBody(await api.get(V, { as: 'org-reader-scope' }), 403);
});

test('variables.private-repository-hidden: a private repository is not found (404) for a token without repo', async ({ api }) => {
  const R = `${V}/RELEASE_CHANNEL/repositories`;
  await api.vary('variables.private-repository-hidden');
  expectErrorBody(await api.call('PUT', `${R}/1001`, { as: 'org-admin-only-scope' }), 404);
  expectErrorBody(await api.call('DELETE', `${R}/1001`, { as: 'org-admin-only-scope' }), 404);
  expect((await api.call('PUT', `${R}/1005`, { as: 'org-admin-only-scope' })).statusCode).toBe(204);
  expect((await api.call('PUT', `${R}/1001`, owner)).statusCode).toBe(204);
  expect((await api.call('PUT', `${R}/1001`, { as: 'fine-grained-variables-writer' })).statusCode).toBe(204);
});

test('variables.list-default-per-page-30: 30 a page without per_page', async ({ api }) => {
  await api.vary('variables.list-default-per-page-30');
  expect((await api.get('/orgs/octo-labs/actions/variables', owner)).json().variables).toHaveLength(30);
});

test('variables.selected-ids-400 and variables.update-ids-ignored: the other answers to ids without selected', async ({ api }) => {
  await api.vary('variables.selected-ids-400');
  const stray = { name: 'STRAY', value: 'v', visibility: 'all', selected_repository_ids: [1000] };
  expectErrorBody(await api.call('POST', V, { ...owner, body: stray }), 400);
  expectErrorBody(await api.call('PATCH', `${V}/VAULT_PATH`, { ...owner, body: { selected_repository_ids: [1000] } }), 400);
  await api.vary('variables.update-ids-ignored');
  expectErrorBody(await api.call('POST', V, { ...owner, body: stray }), 422);
  expect((await api.call('PATCH', `${V}/VAULT_PATH`, { ...owner, body: { selected_repository_ids: [1000] } })).statusCode).toBe(204);
  expect((await api.get(`${V}/VAULT_PATH`, owner)).json().visibility).toBe('private');
  expectErrorBody(await api.get(`${V}/VAULT_PATH/repositories`, owner), 409);
  // Switched to selected later, the variable starts with no repository: the ids were not kept.
  await api.call('PATCH', `${V}/VAULT_PATH`, { ...owner, body: { visibility: 'selected' } });
  expect((await api.get(`${V}/VAULT_PATH/repositories`, owner)).json().total_count).toBe(0);
});

test('variables.unknown-repositories-accepted: ids of no repository of the organization are dropped', async ({ api }) => {
  await api.vary('variables.unknown-repositories-accepted');
  const body = { name: 'STRAY', value: 'v', visibility: 'selected', selected_repository_ids: [1000, 1003] };
  expect((await api.call('POST', V, { ...owner, body })).statusCode).toBe(201);
  expect((await api.get(`${V}/STRAY/repositories`, owner)).json()).toMatchObject({ total_count: 1, repositories: [{ id: 1000 }] });
  expect((await api.call('PUT', `${V}/STRAY/repositories`, { ...owner, body: { selected_repository_ids: [1003] } })).statusCode).toBe(204);
  expect((await api.get(`${V}/STRAY/repositories`, owner)).json().total_count).toBe(0);
  expectErrorBody(await api.call('PUT', `${V}/STRAY/repositories/1003`, owner), 404);
});

test('variables.duplicate-name-overwrites: a create or a rename onto a name replaces the variable there', async ({ api }) => {
  await api.vary('variables.duplicate-name-overwrites');
  expect((await api.call('POST', V, { ...owner, body: { name: 'DEPLOY_ENV', value: 'staging', visibility: 'all' } })).statusCode).toBe(201);
  expect((await api.get(`${V}/DEPLOY_ENV`, owner)).json().value).toBe('staging');
  expect((await api.call('PATCH', `${V}/VAULT_PATH`, { ...owner, body: { name: 'DEPLOY_ENV' } })).statusCode).toBe(204);
  expect((await api.get(`${V}/DEPLOY_ENV`, owner)).json()).toMatchObject({ value: 'secret/app', visibility: 'private' });
  expect((await api.get(V, owner)).json().total_count).toBe(2);
});

test('variables.names-any-string and variables.names-as-sent: other rules for names', async ({ api }) => {
  await api.vary('variables.names-any-string');
  for (const name of ['has space', '1ST', 'dash-ed'])
    expect((await api.call('POST', V, { ...owner, body: { name, value: 'v', visibility: 'all' } })).statusCode).toBe(201);
  expect((await api.get(`${V}/${encodeURIComponent('has space')}`, owner)).json().name).toBe('HAS SPACE');
  expectErrorBody(await api.call('POST', V, { ...owner, body: { name: '', value: 'v', visibility: 'all' } }), 422);
  await api.vary('variables.names-as-sent');
  expect((await api.call('POST', V, { ...owner, body: { name: 'build_flags', value: 'v', visibility: 'all' } })).statusCode).toBe(201);
  expect((await api.get(`${V}/build_flags`, owner)).json().name).toBe('build_flags');
  expectErrorBody(await api.get(`${V}/BUILD_FLAGS`, owner), 404);
  expectErrorBody(await api.get(`${V}/deploy_env`, owner), 404);
  expect((await api.get(`${V}/DEPLOY_ENV`, owner)).statusCode).toBe(200);
  // Another case is another name.
  expect((await api.call('POST', V, { ...owner, body: { name: 'Deploy_Env', value: 'v', visibility: 'all' } })).statusCode).toBe(201);
});

test("variables.repositories-by-name: a variable's repositories by name", async ({ api }) => {
  const names = async () =>
    (await api.get(`${V}/RELEASE_CHANNEL/repositories`, owner)).json().repositories.map((r: { name: string }) => r.name);
  expect(await names()).toEqual(['widgets', 'crowd']);
  await api.vary('variables.repositories-by-name');
  expect(await names()).toEqual(['crowd', 'widgets']);
});

test('17 and 18 also need Metadata (read): held with any permission, or only when granted (auth.metadata-explicit)', async ({ api }) => {
  const R = `${V}/RELEASE_CHANNEL/repositories/1005`;
  expect((await api.call('PUT', R, { as: 'fine-grained-variables-writer' })).statusCode).toBe(204);
  await api.vary('auth.metadata-explicit');
  expectErrorBody(await api.call('PUT', R, { as: 'fine-grained-variables-writer' }), 403, /metadata:read/);
  expectErrorBody(await api.call('DELETE', R, { as: 'fine-grained-variables-writer' }), 403, /metadata:read/);
  expect((await api.call('DELETE', R, { as: 'fine-grained-variables-metadata' })).statusCode).toBe(204);
  // Only 17 and 18 name Metadata: the other endpoints take the Variables permission alone.
  expect((await api.get(`${V}/RELEASE_CHANNEL/repositories`, { as: 'fine-grained-variables-writer' })).statusCode).toBe(200);
  // Classic tokens have no permissions to check.
  expect((await api.call('PUT', R, owner)).statusCode).toBe(204);
});
