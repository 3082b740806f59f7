import { expect, expectErrorBody, test } from '../service.fixture.js';

// The auth model of the README against the world's token roles, one behaviour per test.

const WIDGETS = '/repos/octo-org/widgets';
const LIMITS = `${WIDGETS}/interaction-limits`;
const ORG_LIMITS = '/orgs/octo-org/interaction-limits';
const ASSIGN = `${WIDGETS}/issues/1/assignees`;
const withToken = (authorization: string) => ({ headers: { authorization } });

test.describe('credentials', () => {
  test('Bearer and token schemes, scheme case-insensitive', async ({ api }) => {
    for (const authorization of [
      'Bearer ts_classic_repo_admin_0002',
      'token ts_classic_repo_admin_0002',
      'BEARER ts_classic_repo_admin_0002',
      'Token  ts_classic_repo_admin_0002',
    ]) {
      expect((await api.get(LIMITS, withToken(authorization))).statusCode, authorization).toBe(200);
    }
  });

  test('unknown token, other scheme, empty token: 401 Bad credentials, even on a public read', async ({ api }) => {
    for (const authorization of [
      'Bearer nope_not_a_token',
      'Basic dXNlcjpwYXNz',
      'Bearer',
      'Bearer ',
      '',
      'ts_classic_repo_admin_0002',
      'Bearer a b',
    ]) {
      expectErrorBody(await api.get(`${WIDGETS}/assignees`, withToken(authorization)), 401, /^Bad credentials$/);
    }
  });

  test('bad credentials are refused on unknown routes too', async ({ api }) => {
    expectErrorBody(await api.get('/no/such/route', withToken('Bearer nope_not_a_token')), 401);
  });
});

test.describe('anonymous callers', () => {
  test('may read public assignees', async ({ api }) => {
    expect((await api.get(`${WIDGETS}/assignees`)).statusCode).toBe(200);
  });

  test('writes: 401 Requires authentication, whatever the repository', async ({ api }) => {
    expectErrorBody(await api.call('POST', ASSIGN, { body: { assignees: ['hubot'] } }), 401, 'Requires authentication');
    expectErrorBody(await api.call('PUT', '/repos/octo-org/vault/interaction-limits', { body: { limit: 'existing_users' } }), 401);
    expectErrorBody(await api.call('DELETE', '/repos/nobody/nothing/interaction-limits'), 401);
    expectErrorBody(await api.call('PUT', ORG_LIMITS, { body: { limit: 'existing_users' } }), 401);
  });

  test('reads that need authentication: 401', async ({ api }) => {
    expectErrorBody(await api.get(LIMITS), 401, 'Requires authentication');
    expectErrorBody(await api.get(ORG_LIMITS), 401);
  });

  test('any request with a body needs authentication', async ({ api }) => {
    expectErrorBody(await api.call('GET', `${WIDGETS}/assignees`, { raw: '{}' }), 401, 'Requires authentication');
  });

  test('nothing changes after a refused write', async ({ api }) => {
    await api.call('POST', ASSIGN, { body: { assignees: ['hubot'] } });
    const issue = await api.call('POST', ASSIGN, { as: 'repo-admin', body: { assignees: [] } });
    expect(issue.json().assignees).toEqual([]);
  });
});

test.describe('classic and OAuth tokens', () => {
  test('public repository reads need no scope', async ({ api }) => {
    expect((await api.get(LIMITS, { as: 'admin-no-scope' })).statusCode).toBe(200);
    expect((await api.get(`${WIDGETS}/assignees`, { as: 'admin-no-scope' })).statusCode).toBe(200);
  });

  test('public repository writes need repo or public_repo: 403 naming the scopes otherwise', async ({ api }) => {
    const refused = await api.call('PUT', LIMITS, { as: 'admin-no-scope', body: { limit: 'existing_users' } });
    expectErrorBody(refused, 403, /Resource not accessible by personal access token.*repo or public_repo/);
    expect((await api.get(LIMITS, { as: 'repo-admin' })).json()).toEqual({});
    const allowed = await api.call('PUT', LIMITS, { as: 'admin-public-repo-scope', body: { limit: 'existing_users' } });
    expect(allowed.statusCode).toBe(200);
  });

  test('a private repository without the repo scope is not visible: 404', async ({ api }) => {
    expectErrorBody(await api.get('/repos/octo-org/vault/assignees', { as: 'admin-public-repo-scope' }), 404);
    expectErrorBody(await api.get('/repos/octo-org/vault/interaction-limits', { as: 'admin-no-scope' }), 404);
    expect((await api.get('/repos/octo-org/vault/interaction-limits', { as: 'repo-admin' })).statusCode).toBe(200);
  });

  test('an OAuth token acts like a classic one', async ({ api }) => {
    expect((await api.call('PUT', LIMITS, { as: 'oauth-admin', body: { limit: 'existing_users' } })).statusCode).toBe(200);
  });

  test('repository administration needs admin rights: 403 for maintain, write, read, outsiders', async ({ api }) => {
    for (const role of ['repo-maintainer', 'repo-writer', 'repo-reader', 'outsider']) {
      expectErrorBody(await api.get(LIMITS, { as: role }), 403, 'Must have admin rights to Repository.');
      expectErrorBody(await api.call('DELETE', LIMITS, { as: role }), 403);
    }
  });

  test('organization owners are admins of the organization repositories', async ({ api }) => {
    expect((await api.call('PUT', LIMITS, { as: 'org-owner', body: { limit: 'existing_users' } })).statusCode).toBe(200);
  });

  test('a private repository the user has no role on: 404, not 403', async ({ api }) => {
    expectErrorBody(await api.get('/repos/octo-org/vault/interaction-limits', { as: 'outsider' }), 404);
    // Organization members who are not collaborators do not see private repositories either.
    expectErrorBody(await api.get('/repos/octo-org/vault/interaction-limits', { as: 'repo-maintainer' }), 404);
  });

  test('organization endpoints need read:org/admin:org and ownership', async ({ api }) => {
    expect((await api.get(ORG_LIMITS, { as: 'org-owner' })).statusCode).toBe(200);
    expectErrorBody(await api.get(ORG_LIMITS, { as: 'repo-admin' }), 403, /read:org or admin:org/);
    expectErrorBody(await api.get(ORG_LIMITS, { as: 'user-owner' }), 403);
  });
});

test.describe('fine-grained tokens', () => {
  test('act with their permissions: read allows GET, not PUT', async ({ api }) => {
    expect((await api.get(LIMITS, { as: 'reader-fine-grained' })).statusCode).toBe(200);
    expectErrorBody(
      await api.call('PUT', LIMITS, { as: 'reader-fine-grained', body: { limit: 'existing_users' } }),
      403,
      /Resource not accessible by personal access token.*administration:write/,
    );
    expect((await api.call('PUT', LIMITS, { as: 'fine-grained-admin', body: { limit: 'existing_users' } })).statusCode).toBe(200);
  });

  test('metadata:read alone does not read assignees: 403', async ({ api }) => {
    expectErrorBody(await api.get(`${WIDGETS}/assignees`, { as: 'fine-grained-metadata-only' }), 403, /issues:read or pull_requests:read/);
  });

  test('pull_requests:write is enough to assign (any of the listed permissions)', async ({ api }) => {
    const response = await api.call('POST', ASSIGN, { as: 'fine-grained-pull-requests', body: { assignees: ['hubot'] } });
    expect(response.statusCode).toBe(201);
    expect(response.json().assignees.map((u: { login: string }) => u.login)).toEqual(['hubot']);
  });

  test('issues:read cannot write assignees: 403, nothing assigned', async ({ api }) => {
    expectErrorBody(await api.call('POST', ASSIGN, { as: 'reader-fine-grained', body: { assignees: ['hubot'] } }), 403);
    expect((await api.call('POST', ASSIGN, { as: 'repo-admin', body: { assignees: [] } })).json().assignees).toEqual([]);
  });

  test('a repository outside the selection is not visible: 404; inside it works', async ({ api }) => {
    expectErrorBody(await api.get(LIMITS, { as: 'fine-grained-other-repo' }), 404);
    expectErrorBody(await api.get(`${WIDGETS}/assignees`, { as: 'fine-grained-other-repo' }), 404);
    expect((await api.get('/repos/octo-org/crowd/interaction-limits', { as: 'fine-grained-other-repo' })).statusCode).toBe(200);
  });

  test('organization administration permissions', async ({ api }) => {
    expect((await api.get(ORG_LIMITS, { as: 'fine-grained-org-reader' })).statusCode).toBe(200);
    expectErrorBody(await api.call('PUT', ORG_LIMITS, { as: 'fine-grained-org-reader', body: { limit: 'existing_users' } }), 403);
    expect((await api.call('PUT', ORG_LIMITS, { as: 'fine-grained-org-admin', body: { limit: 'existing_users' } })).statusCode).toBe(200);
    // A repository-only token of an admin cannot administer the organization.
    expectErrorBody(await api.get(ORG_LIMITS, { as: 'fine-grained-admin' }), 403, /organization_administration:read/);
  });
});

test.describe('app and workflow tokens', () => {
  test('app-user acts for its user on every repository the user can see', async ({ api }) => {
    expect((await api.call('PUT', LIMITS, { as: 'app-user', body: { limit: 'existing_users' } })).statusCode).toBe(200);
    expect((await api.get('/repos/octo-org/vault/interaction-limits', { as: 'app-user' })).statusCode).toBe(200);
    // monalisa has no role on octocat/hello-world: visible (public), but not admin.
    expectErrorBody(await api.get('/repos/octocat/hello-world/interaction-limits', { as: 'app-user' }), 403);
  });

  test('app-installation: admin of its account repositories, but no organization owner (it acts as the app, not a person)', async ({
    api,
  }) => {
    expect(
      (await api.call('PUT', '/repos/octo-org/vault/interaction-limits', { as: 'app-installation', body: { limit: 'existing_users' } }))
        .statusCode,
    ).toBe(200);
    expectErrorBody(await api.call('PUT', ORG_LIMITS, { as: 'app-installation', body: { limit: 'collaborators_only' } }), 403);
    const assigned = await api.call('POST', '/repos/octo-org/crowd/issues/1/assignees', {
      as: 'app-installation',
      body: { assignees: ['dev-001'] },
    });
    expect(assigned.json().assignees.map((u: { login: string }) => u.login)).toEqual(['dev-001']);
  });

  test('app-installation sees nothing outside its account: 404', async ({ api }) => {
    expectErrorBody(await api.get('/repos/octocat/hello-world/interaction-limits', { as: 'app-installation' }), 404);
  });

  test('workflow token: its repository only, with push access and its permissions', async ({ api }) => {
    const response = await api.call('POST', ASSIGN, { as: 'workflow', body: { assignees: ['defunkt'] } });
    expect(response.statusCode).toBe(201);
    expect(response.json().assignees.map((u: { login: string }) => u.login)).toEqual(['defunkt']);
    expectErrorBody(await api.get('/repos/octo-org/crowd/assignees', { as: 'workflow' }), 404);
    expectErrorBody(await api.get(LIMITS, { as: 'workflow' }), 403, /Resource not accessible by integration/);
    expectErrorBody(await api.get(ORG_LIMITS, { as: 'workflow' }), 403);
  });
});
