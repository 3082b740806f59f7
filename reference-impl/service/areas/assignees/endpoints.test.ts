import { expect, expectErrorBody, test, type Api } from '../../service.fixture.js';

// Endpoints 6–9. Push access on octo-org/widgets: hubot (organization owner), monalisa
// (admin), wanstrath (maintain), defunkt (write); mojombo only reads.

const WIDGETS = '/repos/octo-org/widgets';
const logins = (users: { login: string }[]) => users.map((user) => user.login);

/** The issue as the service holds it now: an empty POST changes nothing and returns it. */
async function issueNow(api: Api, repo: string, number: number) {
  const response = await api.call('POST', `${repo}/issues/${number}/assignees`, { as: 'repo-admin', body: { assignees: [] } });
  expect(response.statusCode).toBe(201);
  return response.json() as Record<string, any>;
}

test.describe('GET assignees', () => {
  test('lists the users with push access, organization owners included, ordered by id', async ({ api }) => {
    const response = await api.get(`${WIDGETS}/assignees`);
    expect(response.statusCode).toBe(200);
    expect(logins(response.json())).toEqual(['hubot', 'monalisa', 'defunkt', 'wanstrath']);
    expect(response.headers.link).toBeUndefined();
  });

  test('users are full User objects with absolute URLs on the request origin', async ({ api }) => {
    const response = await api.get(`${WIDGETS}/assignees`, { headers: { host: 'api.test:8080' } });
    const [hubot] = response.json();
    const base = 'http://api.test:8080';
    expect(hubot).toEqual({
      login: 'hubot',
      id: 2,
      node_id: 'MDQ6VXNlcjI=',
      avatar_url: `${base}/avatars/u/2?v=4`,
      gravatar_id: '',
      url: `${base}/users/hubot`,
      html_url: `${base}/hubot`,
      followers_url: `${base}/users/hubot/followers`,
      following_url: `${base}/users/hubot/following{/other_user}`,
      gists_url: `${base}/users/hubot/gists{/gist_id}`,
      starred_url: `${base}/users/hubot/starred{/owner}{/repo}`,
      subscriptions_url: `${base}/users/hubot/subscriptions`,
      organizations_url: `${base}/users/hubot/orgs`,
      repos_url: `${base}/users/hubot/repos`,
      events_url: `${base}/users/hubot/events{/privacy}`,
      received_events_url: `${base}/users/hubot/received_events`,
      type: 'User',
      site_admin: false,
    });
  });

  test('owner and repository names are case-insensitive', async ({ api }) => {
    const response = await api.get('/repos/OCTO-ORG/Widgets/assignees');
    expect(response.statusCode).toBe(200);
    expect(logins(response.json())).toEqual(['hubot', 'monalisa', 'defunkt', 'wanstrath']);
  });

  test('a user-owned repository lists its owner', async ({ api }) => {
    expect(logins((await api.get('/repos/octocat/hello-world/assignees')).json())).toEqual(['octocat', 'defunkt']);
  });

  test('a private repository: 404 for anonymous callers and outsiders, the list for collaborators', async ({ api }) => {
    expectErrorBody(await api.get('/repos/octo-org/vault/assignees'), 404, 'Not Found');
    expectErrorBody(await api.get('/repos/octo-org/vault/assignees', { as: 'outsider' }), 404);
    const response = await api.get('/repos/octo-org/vault/assignees', { as: 'repo-reader' });
    expect(response.statusCode).toBe(200);
    expect(logins(response.json())).toEqual(['hubot', 'monalisa']);
  });

  test('an unknown repository or owner: 404', async ({ api }) => {
    expectErrorBody(await api.get('/repos/octo-org/nothing/assignees'), 404);
    expectErrorBody(await api.get('/repos/nobody/widgets/assignees'), 404);
  });
});

test.describe('GET assignees/{assignee}', () => {
  test('204 with no body when the user can be assigned', async ({ api }) => {
    for (const login of ['hubot', 'monalisa', 'defunkt', 'wanstrath', 'DEFUNKT']) {
      const response = await api.get(`${WIDGETS}/assignees/${login}`);
      expect(response.statusCode, login).toBe(204);
      expect(response.body).toBe('');
    }
  });

  test('404 for a reader, an outsider, an unknown user', async ({ api }) => {
    for (const login of ['mojombo', 'pjhyett', 'no-such-user']) {
      expectErrorBody(await api.get(`${WIDGETS}/assignees/${login}`), 404, 'Not Found');
    }
  });

  test('404 on a private repository the caller cannot see, 204 for one who can', async ({ api }) => {
    expectErrorBody(await api.get('/repos/octo-org/vault/assignees/hubot'), 404);
    expect((await api.get('/repos/octo-org/vault/assignees/hubot', { as: 'repo-reader' })).statusCode).toBe(204);
  });
});

test.describe('POST issue assignees', () => {
  test('adds the named users in order: 201 with the Issue', async ({ api }) => {
    const response = await api.call('POST', `${WIDGETS}/issues/1/assignees`, {
      as: 'repo-writer',
      body: { assignees: ['wanstrath', 'defunkt'] },
    });
    expect(response.statusCode).toBe(201);
    const issue = response.json();
    expect(logins(issue.assignees)).toEqual(['wanstrath', 'defunkt']);
    expect(issue.assignee.login).toBe('wanstrath');
    expect(issue.created_at).toBe('2026-05-01T09:00:00Z');
    expect(issue.updated_at).toBe('2026-06-01T12:00:00Z');
    expect(logins((await issueNow(api, WIDGETS, 1)).assignees)).toEqual(['wanstrath', 'defunkt']);
  });

  test('never replaces users already assigned, nor assigns anyone twice', async ({ api }) => {
    const response = await api.call('POST', `${WIDGETS}/issues/3/assignees`, {
      as: 'repo-admin',
      body: { assignees: ['defunkt', 'hubot', 'HUBOT'] },
    });
    expect(response.statusCode).toBe(201);
    expect(logins(response.json().assignees)).toEqual(['monalisa', 'defunkt', 'hubot']);
  });

  test('an unchanged issue keeps its updated_at', async ({ api }) => {
    const response = await api.call('POST', `${WIDGETS}/issues/3/assignees`, { as: 'repo-admin', body: { assignees: ['defunkt'] } });
    expect(response.json().updated_at).toBe('2026-05-03T09:00:00Z');
  });

  test('names that cannot be assigned (reader, outsider, unknown) are ignored', async ({ api }) => {
    const response = await api.call('POST', `${WIDGETS}/issues/1/assignees`, {
      as: 'repo-admin',
      body: { assignees: ['mojombo', 'pjhyett', 'no-such-user', 'hubot'] },
    });
    expect(response.statusCode).toBe(201);
    expect(logins(response.json().assignees)).toEqual(['hubot']);
  });

  test('more than 10 names in one request: 422 naming assignees, nothing assigned', async ({ api }) => {
    const names = Array.from({ length: 11 }, (_, i) => `dev-${String(i + 1).padStart(3, '0')}`);
    const error = expectErrorBody(
      await api.call('POST', '/repos/octo-org/crowd/issues/1/assignees', { as: 'repo-admin', body: { assignees: names } }),
      422,
      'Validation Failed',
    );
    expect(error.errors).toEqual([{ resource: 'Issue', field: 'assignees', code: 'invalid' }]);
    expect((await issueNow(api, '/repos/octo-org/crowd', 1)).assignees).toEqual([]);
  });

  test('10 names are accepted; an issue never holds more than 10 assignees', async ({ api }) => {
    const crowd = '/repos/octo-org/crowd/issues/1/assignees';
    const first = Array.from({ length: 10 }, (_, i) => `dev-${String(i + 1).padStart(3, '0')}`);
    const response = await api.call('POST', crowd, { as: 'repo-admin', body: { assignees: first } });
    expect(response.statusCode).toBe(201);
    expect(logins(response.json().assignees)).toEqual(first);
    const more = await api.call('POST', crowd, { as: 'repo-admin', body: { assignees: ['dev-011', 'hubot'] } });
    expect(more.statusCode).toBe(201);
    expect(logins(more.json().assignees)).toEqual(first);
  });

  test('a caller without push access is accepted and silently ignored: 201, issue unchanged', async ({ api }) => {
    for (const role of ['repo-reader', 'outsider']) {
      const response = await api.call('POST', `${WIDGETS}/issues/1/assignees`, { as: role, body: { assignees: ['hubot'] } });
      expect(response.statusCode, role).toBe(201);
      expect(response.json().assignees, role).toEqual([]);
      expect(response.json().updated_at).toBe('2026-05-01T09:00:00Z');
    }
    expect((await issueNow(api, WIDGETS, 1)).assignees).toEqual([]);
  });

  test('an unknown or non-numeric issue number: 404', async ({ api }) => {
    for (const number of ['99', 'abc', '0', '-1', '1.0', '99999999999999999999']) {
      expectErrorBody(await api.call('POST', `${WIDGETS}/issues/${number}/assignees`, { as: 'repo-admin', body: { assignees: [] } }), 404);
    }
  });

  for (const [name, body, issue] of [
    ['no assignees field', {}, { field: 'assignees', code: 'missing_field' }],
    ['assignees as a string', { assignees: 'hubot' }, { field: 'assignees', code: 'invalid' }],
    ['a non-string name', { assignees: ['hubot', 7] }, { field: 'assignees', code: 'invalid' }],
    ['an unknown field', { assignees: ['hubot'], assignee: 'hubot' }, { field: 'assignee', code: 'invalid' }],
  ] as const) {
    test(`a body with ${name}: 422, nothing assigned`, async ({ api }) => {
      const error = expectErrorBody(await api.call('POST', `${WIDGETS}/issues/1/assignees`, { as: 'repo-admin', body }), 422);
      expect(error.errors).toEqual([{ resource: 'Issue', ...issue }]);
      expect((await issueNow(api, WIDGETS, 1)).assignees).toEqual([]);
    });
  }
});

test.describe('DELETE issue assignees', () => {
  test('removes the named users: 200 with the Issue', async ({ api }) => {
    const response = await api.call('DELETE', `${WIDGETS}/issues/3/assignees`, { as: 'repo-writer', body: { assignees: ['MONALISA'] } });
    expect(response.statusCode).toBe(200);
    const issue = response.json();
    expect(logins(issue.assignees)).toEqual(['defunkt']);
    expect(issue.assignee.login).toBe('defunkt');
    expect(issue.updated_at).toBe('2026-06-01T12:00:00Z');
  });

  test('removing everyone leaves assignee null and assignees empty', async ({ api }) => {
    const response = await api.call('DELETE', `${WIDGETS}/issues/3/assignees`, {
      as: 'repo-admin',
      body: { assignees: ['monalisa', 'defunkt'] },
    });
    expect(response.json()).toMatchObject({ assignee: null, assignees: [] });
  });

  test('names not assigned are ignored', async ({ api }) => {
    const response = await api.call('DELETE', `${WIDGETS}/issues/3/assignees`, {
      as: 'repo-admin',
      body: { assignees: ['hubot', 'nobody'] },
    });
    expect(response.statusCode).toBe(200);
    expect(logins(response.json().assignees)).toEqual(['monalisa', 'defunkt']);
  });

  test('a caller without push access: 200, issue unchanged', async ({ api }) => {
    const response = await api.call('DELETE', `${WIDGETS}/issues/3/assignees`, { as: 'repo-reader', body: { assignees: ['monalisa'] } });
    expect(response.statusCode).toBe(200);
    expect(logins(response.json().assignees)).toEqual(['monalisa', 'defunkt']);
    expect(logins((await issueNow(api, WIDGETS, 3)).assignees)).toEqual(['monalisa', 'defunkt']);
  });

  test('a missing body: 422 missing_field, nothing removed', async ({ api }) => {
    const error = expectErrorBody(await api.call('DELETE', `${WIDGETS}/issues/3/assignees`, { as: 'repo-admin' }), 422);
    expect(error.errors).toEqual([{ resource: 'Issue', field: 'assignees', code: 'missing_field' }]);
    expect(logins((await issueNow(api, WIDGETS, 3)).assignees)).toEqual(['monalisa', 'defunkt']);
  });
});

test.describe('Issue representation', () => {
  test('a pull request carries pull_request, labels, milestone and the author association', async ({ api }) => {
    const issue = await issueNow(api, WIDGETS, 2);
    const base = 'http://localhost';
    expect(issue).toMatchObject({
      id: 100000002,
      node_id: expect.any(String),
      url: `${base}/repos/octo-org/widgets/issues/2`,
      repository_url: `${base}/repos/octo-org/widgets`,
      labels_url: `${base}/repos/octo-org/widgets/issues/2/labels{/name}`,
      comments_url: `${base}/repos/octo-org/widgets/issues/2/comments`,
      events_url: `${base}/repos/octo-org/widgets/issues/2/events`,
      html_url: `${base}/octo-org/widgets/pull/2`,
      number: 2,
      state: 'open',
      title: 'Stop the wobble',
      body: null,
      locked: false,
      active_lock_reason: null,
      comments: 0,
      closed_at: null,
      closed_by: null,
      state_reason: null,
      author_association: 'MEMBER',
      created_at: '2026-05-02T09:00:00Z',
      pull_request: {
        url: `${base}/repos/octo-org/widgets/pulls/2`,
        html_url: `${base}/octo-org/widgets/pull/2`,
        diff_url: `${base}/octo-org/widgets/pull/2.diff`,
        patch_url: `${base}/octo-org/widgets/pull/2.patch`,
      },
    });
    expect(issue.user.login).toBe('defunkt');
    expect(issue.labels).toEqual([
      {
        id: 5001,
        node_id: expect.any(String),
        url: `${base}/repos/octo-org/widgets/labels/bug`,
        name: 'bug',
        description: 'Something is not working',
        color: 'd73a4a',
        default: true,
      },
    ]);
    expect(issue.milestone).toMatchObject({
      url: `${base}/repos/octo-org/widgets/milestones/1`,
      html_url: `${base}/octo-org/widgets/milestone/1`,
      labels_url: `${base}/repos/octo-org/widgets/milestones/1/labels`,
      id: 6001,
      number: 1,
      state: 'open',
      title: 'v1.0',
      description: null,
      open_issues: 1,
      closed_issues: 0,
      closed_at: null,
      due_on: '2026-09-01T00:00:00Z',
    });
    expect(issue.milestone.creator.login).toBe('monalisa');
  });

  test('an issue that is not a pull request has no pull_request; absent parts are null', async ({ api }) => {
    const issue = await issueNow(api, WIDGETS, 1);
    expect('pull_request' in issue).toBe(false);
    expect(issue).toMatchObject({ html_url: 'http://localhost/octo-org/widgets/issues/1', milestone: null, assignee: null, labels: [] });
  });

  test('author_association: OWNER for the repository owner, MEMBER for organization members', async ({ api }) => {
    expect((await issueNow(api, '/repos/octocat/hello-world', 1)).author_association).toBe('OWNER');
    expect((await issueNow(api, '/repos/octo-org/crowd', 1)).author_association).toBe('MEMBER');
  });
});

// Variations: other readings of what the spec leaves open (suites/variants/assignees.yaml).
// Each is off by default (the tests above) and switched on here through the control API.
const bare = { headers: { 'user-agent': undefined, accept: undefined, 'x-service-api-version': undefined } };

test.describe('variations', () => {
  test('assignees.assignable-readers: readers and organization members can be assigned too', async ({ api }) => {
    await api.vary('assignees.assignable-readers');
    expect(logins((await api.get(`${WIDGETS}/assignees`)).json())).toEqual(['hubot', 'monalisa', 'defunkt', 'mojombo', 'wanstrath']);
    expect((await api.get(`${WIDGETS}/assignees/mojombo`)).statusCode).toBe(204);
    expect((await api.get(`${WIDGETS}/assignees/pjhyett`)).statusCode).toBe(404);
    // crowd: 105 writers, monalisa, hubot, and the three members who read it.
    expect((await api.get('/repos/octo-org/crowd/assignees?per_page=100&page=2')).json()).toHaveLength(10);
    const added = await api.call('POST', `${WIDGETS}/issues/1/assignees`, { as: 'repo-admin', body: { assignees: ['mojombo'] } });
    expect(logins(added.json().assignees)).toEqual(['mojombo']);
  });

  test('assignees.assignable-collaborators-only: an organization owner who is no collaborator cannot be assigned', async ({ api }) => {
    await api.vary('assignees.assignable-collaborators-only');
    expect(logins((await api.get(`${WIDGETS}/assignees`)).json())).toEqual(['monalisa', 'defunkt', 'wanstrath']);
    expectErrorBody(await api.get(`${WIDGETS}/assignees/hubot`), 404);
    expect((await api.get(`${WIDGETS}/assignees/wanstrath`)).statusCode).toBe(204);
    // The owner of a user-owned repository stays assignable.
    expect(logins((await api.get('/repos/octocat/hello-world/assignees')).json())).toEqual(['octocat', 'defunkt']);
    const added = await api.call('POST', `${WIDGETS}/issues/1/assignees`, { as: 'repo-admin', body: { assignees: ['hubot', 'defunkt'] } });
    expect(logins(added.json().assignees)).toEqual(['defunkt']);
  });

  test('assignees.empty-list-refused: an empty list is 422 on POST and DELETE, nothing changes', async ({ api }) => {
    await api.vary('assignees.empty-list-refused');
    for (const method of ['POST', 'DELETE']) {
      const error = expectErrorBody(
        await api.call(method, `${WIDGETS}/issues/3/assignees`, { as: 'repo-admin', body: { assignees: [] } }),
        422,
      );
      expect(error.errors).toEqual([{ resource: 'Issue', field: 'assignees', code: 'invalid' }]);
    }
    const same = await api.call('POST', `${WIDGETS}/issues/3/assignees`, { as: 'repo-admin', body: { assignees: ['monalisa'] } });
    expect(logins(same.json().assignees)).toEqual(['monalisa', 'defunkt']);
  });

  test('assignees.over-ten-first-ten: 11 names add the first 10 with 201', async ({ api }) => {
    await api.vary('assignees.over-ten-first-ten');
    const names = Array.from({ length: 11 }, (_, i) => `dev-${String(i + 1).padStart(3, '0')}`);
    const response = await api.call('POST', '/repos/octo-org/crowd/issues/1/assignees', { as: 'repo-admin', body: { assignees: names } });
    expect(response.statusCode).toBe(201);
    expect(logins(response.json().assignees)).toEqual(names.slice(0, 10));
  });

  test('assignees.cap-per-call: each call adds at most 10, an issue may hold more', async ({ api }) => {
    await api.vary('assignees.cap-per-call');
    const crowd = '/repos/octo-org/crowd/issues/1/assignees';
    const names = Array.from({ length: 12 }, (_, i) => `dev-${String(i + 1).padStart(3, '0')}`);
    await api.call('POST', crowd, { as: 'repo-admin', body: { assignees: names.slice(0, 10) } });
    const more = await api.call('POST', crowd, { as: 'repo-admin', body: { assignees: names.slice(10) } });
    expect(more.statusCode).toBe(201);
    expect(logins(more.json().assignees)).toEqual(names);
    // More than 10 names in one call is still refused.
    const eleven = Array.from({ length: 11 }, (_, i) => `dev-${String(i + 20).padStart(3, '0')}`);
    expectErrorBody(await api.call('POST', crowd, { as: 'repo-admin', body: { assignees: eleven } }), 422);
  });

  test('assignees.pull-request-url-web: pull_request.url is the web address of the pull request', async ({ api }) => {
    await api.vary('assignees.pull-request-url-web');
    expect((await issueNow(api, WIDGETS, 2)).pull_request.url).toBe('http://localhost/octo-org/widgets/pull/2');
  });

  test('assignees.denied-as-404: a token that sees the repository but lacks the permission gets 404, not 403', async ({ api }) => {
    const vault = '/repos/octo-org/vault/assignees';
    expectErrorBody(await api.get(vault, { as: 'fine-grained-metadata-only' }), 403);
    await api.vary('assignees.denied-as-404');
    expectErrorBody(await api.get(vault, { as: 'fine-grained-metadata-only' }), 404);
    expectErrorBody(await api.get(`${vault}/monalisa`, { as: 'fine-grained-metadata-only' }), 404);
    expect((await api.get(vault, { as: 'reader-fine-grained' })).statusCode).toBe(200);
    // Writes keep their 403.
    const write = await api.call('POST', `${WIDGETS}/issues/2/assignees`, { as: 'reader-fine-grained', body: { assignees: ['defunkt'] } });
    expectErrorBody(write, 403);
  });

  test('every variation is off after a reset, and the defaults hold again', async ({ api }) => {
    await api.vary('assignees.assignable-readers', 'assignees.empty-list-refused', 'assignees.pull-request-url-web');
    expect((await api.call('POST', '/_conformance/reset', bare)).statusCode).toBe(204);
    expect(logins((await api.get(`${WIDGETS}/assignees`)).json())).toEqual(['hubot', 'monalisa', 'defunkt', 'wanstrath']);
    expect((await issueNow(api, WIDGETS, 2)).pull_request.url).toBe('http://localhost/repos/octo-org/widgets/pulls/2');
  });
});
