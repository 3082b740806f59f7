import { expect, expectErrorBody, test, type Api } from '../../service.fixture.js';
import { addCalendarMonths } from './limit-state.js';

// Every row of the spec's interaction-restriction state table, plus the README's choices.
// The world's clock starts at 2026-06-01T12:00:00Z; sheriff (owner of sheriff/town) has a
// six-month user-level limit from the world.

const WIDGETS = '/repos/octo-org/widgets/interaction-limits';
const CROWD = '/repos/octo-org/crowd/interaction-limits';
const VAULT = '/repos/octo-org/vault/interaction-limits';
const TOWN = '/repos/sheriff/town/interaction-limits';
const HELLO = '/repos/octocat/hello-world/interaction-limits';
const ORG = '/orgs/octo-org/interaction-limits';

test.describe('repository interaction limits', () => {
  test('GET with no limit set returns 200 and an empty object', async ({ api }) => {
    const response = await api.get(WIDGETS, { as: 'repo-admin' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({});
  });

  test('none → PUT: 200 with the limit, origin repository, expiry one_day by default', async ({ api }) => {
    const response = await api.call('PUT', WIDGETS, { as: 'repo-admin', body: { limit: 'contributors_only' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ limit: 'contributors_only', origin: 'repository', expires_at: '2026-06-02T12:00:00Z' });
    expect((await api.get(WIDGETS, { as: 'repo-admin' })).json()).toEqual(response.json());
  });

  for (const [expiry, expiresAt] of [
    ['one_day', '2026-06-02T12:00:00Z'],
    ['three_days', '2026-06-04T12:00:00Z'],
    ['one_week', '2026-06-08T12:00:00Z'],
    ['one_month', '2026-07-01T12:00:00Z'],
    ['six_months', '2026-11-28T12:00:00Z'],
  ]) {
    test(`PUT with expiry ${expiry} expires at ${expiresAt}`, async ({ api }) => {
      const response = await api.call('PUT', WIDGETS, { as: 'repo-admin', body: { limit: 'existing_users', expiry } });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ limit: 'existing_users', origin: 'repository', expires_at: expiresAt });
    });
  }

  test('active → PUT: replaced by the new values, computed from the current clock', async ({ api }) => {
    await api.call('PUT', WIDGETS, { as: 'repo-admin', body: { limit: 'existing_users', expiry: 'one_week' } });
    await api.advance(3600);
    const response = await api.call('PUT', WIDGETS, { as: 'repo-admin', body: { limit: 'collaborators_only', expiry: 'three_days' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ limit: 'collaborators_only', origin: 'repository', expires_at: '2026-06-04T13:00:00Z' });
    expect((await api.get(WIDGETS, { as: 'repo-admin' })).json()).toEqual(response.json());
  });

  test('active → DELETE: 204 with no body, then none', async ({ api }) => {
    await api.call('PUT', WIDGETS, { as: 'repo-admin', body: { limit: 'existing_users' } });
    const response = await api.call('DELETE', WIDGETS, { as: 'repo-admin' });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await api.get(WIDGETS, { as: 'repo-admin' })).json()).toEqual({});
  });

  test('DELETE with no limit set is 204 too', async ({ api }) => {
    expect((await api.call('DELETE', WIDGETS, { as: 'repo-admin' })).statusCode).toBe(204);
  });

  test('active → expiry elapses: gone exactly at expires_at, present one second before', async ({ api }) => {
    await api.call('PUT', WIDGETS, { as: 'repo-admin', body: { limit: 'existing_users', expiry: 'one_day' } });
    await api.advance(24 * 3600 - 1);
    expect((await api.get(WIDGETS, { as: 'repo-admin' })).json()).toMatchObject({ limit: 'existing_users' });
    await api.advance(1);
    expect((await api.get(WIDGETS, { as: 'repo-admin' })).json()).toEqual({});
  });

  test('limits of different repositories are independent', async ({ api }) => {
    await api.call('PUT', WIDGETS, { as: 'repo-admin', body: { limit: 'existing_users' } });
    expect((await api.get(CROWD, { as: 'repo-admin' })).json()).toEqual({});
    expect((await api.get(VAULT, { as: 'repo-admin' })).json()).toEqual({});
  });

  test('the user owner of a user-owned repository is its admin', async ({ api }) => {
    const response = await api.call('PUT', HELLO, { as: 'user-owner', body: { limit: 'collaborators_only' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ origin: 'repository', limit: 'collaborators_only' });
  });
});

test.describe('conflicts with owner-level limits (409)', () => {
  test('PUT and DELETE on a repository of an organization with a limit: 409, repository unchanged', async ({ api }) => {
    await api.call('PUT', WIDGETS, { as: 'repo-admin', body: { limit: 'existing_users' } });
    await api.call('PUT', ORG, { as: 'org-owner', body: { limit: 'contributors_only' } });
    const before = (await api.get(WIDGETS, { as: 'repo-admin' })).json();

    const put = await api.call('PUT', WIDGETS, { as: 'repo-admin', body: { limit: 'collaborators_only' } });
    expectErrorBody(put, 409, 'Interaction limits are already set at the organization level');
    const del = await api.call('DELETE', WIDGETS, { as: 'repo-admin' });
    expectErrorBody(del, 409, 'Interaction limits are already set at the organization level');

    expect((await api.get(WIDGETS, { as: 'repo-admin' })).json()).toEqual(before);
  });

  test('the 409 ends when the organization limit is deleted', async ({ api }) => {
    await api.call('PUT', ORG, { as: 'org-owner', body: { limit: 'contributors_only' } });
    await api.call('DELETE', ORG, { as: 'org-owner' });
    const response = await api.call('PUT', WIDGETS, { as: 'repo-admin', body: { limit: 'collaborators_only' } });
    expect(response.statusCode).toBe(200);
  });

  test('the 409 ends when the organization limit expires', async ({ api }) => {
    await api.call('PUT', ORG, { as: 'org-owner', body: { limit: 'contributors_only', expiry: 'one_day' } });
    await api.advance(24 * 3600);
    expect((await api.get(ORG, { as: 'org-owner' })).json()).toEqual({});
    const response = await api.call('PUT', WIDGETS, { as: 'repo-admin', body: { limit: 'collaborators_only' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ origin: 'repository' });
  });

  test('sheriff/town, whose owning user has a limit: PUT and DELETE are 409 at the user level', async ({ api }) => {
    expectErrorBody(
      await api.call('PUT', TOWN, { as: 'limited-user-owner', body: { limit: 'existing_users' } }),
      409,
      'Interaction limits are already set at the user level',
    );
    expectErrorBody(await api.call('DELETE', TOWN, { as: 'limited-user-owner' }), 409, 'user level');
    // The repository itself holds no limit: GET shows the repository's stored limit only.
    expect((await api.get(TOWN, { as: 'limited-user-owner' })).json()).toEqual({});
  });

  test('sheriff/town: the user-level limit expires after six months, then PUT works', async ({ api }) => {
    await api.advance(180 * 24 * 3600);
    const response = await api.call('PUT', TOWN, { as: 'limited-user-owner', body: { limit: 'existing_users' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ origin: 'repository', limit: 'existing_users' });
  });

  test('a caller without admin rights gets 403, not 409', async ({ api }) => {
    await api.call('PUT', ORG, { as: 'org-owner', body: { limit: 'contributors_only' } });
    expectErrorBody(await api.call('PUT', WIDGETS, { as: 'repo-writer', body: { limit: 'existing_users' } }), 403);
  });
});

test.describe('organization interaction limits', () => {
  test('GET with no limit: 200 {}', async ({ api }) => {
    const response = await api.get(ORG, { as: 'org-owner' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({});
  });

  test('PUT: 200 with origin organization, expiry one_day by default; GET shows it', async ({ api }) => {
    const response = await api.call('PUT', ORG, { as: 'org-owner', body: { limit: 'collaborators_only' } });
    expect(response.statusCode).toBe(200);
    const limit = { limit: 'collaborators_only', origin: 'organization', expires_at: '2026-06-02T12:00:00Z' };
    expect(response.json()).toEqual(limit);
    expect((await api.get(ORG, { as: 'org-owner' })).json()).toEqual(limit);
  });

  test('PUT accepts the repository expiry values', async ({ api }) => {
    const response = await api.call('PUT', ORG, { as: 'org-owner', body: { limit: 'existing_users', expiry: 'one_month' } });
    expect(response.json()).toEqual({ limit: 'existing_users', origin: 'organization', expires_at: '2026-07-01T12:00:00Z' });
  });

  test('PUT overwrites the limits of every repository of the organization with origin organization', async ({ api }) => {
    await api.call('PUT', WIDGETS, { as: 'repo-admin', body: { limit: 'existing_users', expiry: 'six_months' } });
    await api.call('PUT', ORG, { as: 'org-owner', body: { limit: 'contributors_only', expiry: 'three_days' } });
    const expected = { limit: 'contributors_only', origin: 'organization', expires_at: '2026-06-04T12:00:00Z' };
    for (const path of [WIDGETS, CROWD, VAULT]) {
      expect((await api.get(path, { as: 'repo-admin' })).json(), path).toEqual(expected);
    }
    // Repositories of other owners are untouched.
    expect((await api.get(HELLO, { as: 'user-owner' })).json()).toEqual({});
  });

  test('PUT again replaces the organization limit and the copies', async ({ api }) => {
    await api.call('PUT', ORG, { as: 'org-owner', body: { limit: 'contributors_only' } });
    await api.call('PUT', ORG, { as: 'org-owner', body: { limit: 'existing_users', expiry: 'one_week' } });
    const expected = { limit: 'existing_users', origin: 'organization', expires_at: '2026-06-08T12:00:00Z' };
    expect((await api.get(ORG, { as: 'org-owner' })).json()).toEqual(expected);
    expect((await api.get(CROWD, { as: 'repo-admin' })).json()).toEqual(expected);
  });

  test('DELETE: 204, removes the organization limit and the repository copies', async ({ api }) => {
    await api.call('PUT', ORG, { as: 'org-owner', body: { limit: 'contributors_only' } });
    const response = await api.call('DELETE', ORG, { as: 'org-owner' });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await api.get(ORG, { as: 'org-owner' })).json()).toEqual({});
    for (const path of [WIDGETS, CROWD, VAULT]) expect((await api.get(path, { as: 'repo-admin' })).json(), path).toEqual({});
  });

  test('the organization limit and its copies expire together', async ({ api }) => {
    await api.call('PUT', ORG, { as: 'org-owner', body: { limit: 'contributors_only', expiry: 'one_week' } });
    await api.advance(7 * 24 * 3600);
    expect((await api.get(ORG, { as: 'org-owner' })).json()).toEqual({});
    expect((await api.get(WIDGETS, { as: 'repo-admin' })).json()).toEqual({});
  });

  test('unknown organization: 404; a user account is not an organization: 404', async ({ api }) => {
    expectErrorBody(await api.get('/orgs/no-such-org/interaction-limits', { as: 'org-owner' }), 404, 'Not Found');
    expectErrorBody(await api.get('/orgs/octocat/interaction-limits', { as: 'org-owner' }), 404);
  });

  test('organization names are case-insensitive', async ({ api }) => {
    await api.call('PUT', '/orgs/OCTO-ORG/interaction-limits', { as: 'org-owner', body: { limit: 'existing_users' } });
    expect((await api.get(ORG, { as: 'org-owner' })).json()).toMatchObject({ limit: 'existing_users' });
  });
});

test.describe('invalid limit bodies: 422, state unchanged', () => {
  const cases: [string, unknown, { field: string; code: string }][] = [
    ['an unknown limit', { limit: 'everyone' }, { field: 'limit', code: 'invalid' }],
    ['an unknown expiry', { limit: 'existing_users', expiry: 'forever' }, { field: 'expiry', code: 'invalid' }],
    ['a limit of the wrong type', { limit: 3 }, { field: 'limit', code: 'invalid' }],
    ['no limit', { expiry: 'one_day' }, { field: 'limit', code: 'missing_field' }],
    ['an unknown field', { limit: 'existing_users', until: 'tomorrow' }, { field: 'until', code: 'invalid' }],
  ];
  for (const path of [WIDGETS, ORG]) {
    for (const [name, body, issue] of cases) {
      test(`PUT ${path} with ${name}`, async ({ api }) => {
        const role = path === ORG ? 'org-owner' : 'repo-admin';
        await api.call('PUT', path, { as: role, body: { limit: 'existing_users', expiry: 'one_week' } });
        const before = (await api.get(path, { as: role })).json();
        const error = expectErrorBody(await api.call('PUT', path, { as: role, body }), 422, 'Validation Failed');
        expect(error.errors).toEqual([{ resource: 'InteractionLimit', ...issue }]);
        expect((await api.get(path, { as: role })).json()).toEqual(before);
      });
    }
  }

  test('DELETE with body fields is refused and deletes nothing', async ({ api }) => {
    await api.call('PUT', WIDGETS, { as: 'repo-admin', body: { limit: 'existing_users' } });
    const error = expectErrorBody(await api.call('DELETE', WIDGETS, { as: 'repo-admin', body: { force: true } }), 422);
    expect(error.errors).toEqual([{ resource: 'InteractionLimit', field: 'force', code: 'invalid' }]);
    expect((await api.get(WIDGETS, { as: 'repo-admin' })).json()).toMatchObject({ limit: 'existing_users' });
  });
});

// Variations: other readings of what the spec leaves open (suites/variants/interaction-limits.yaml).
// Each is off by default (the tests above, and the first lines of each test below) and switched
// on here through the control API.
const put = (api: Api, path: string, body: object, as = path === ORG ? 'org-owner' : 'repo-admin') => api.call('PUT', path, { as, body });

test.describe('variations', () => {
  test('addCalendarMonths: same day and time, or the last day of a shorter month', () => {
    const at = (iso: string) => Date.parse(iso);
    expect(addCalendarMonths(at('2026-07-01T00:00:00Z'), 1)).toBe(at('2026-08-01T00:00:00Z'));
    expect(addCalendarMonths(at('2026-07-01T00:00:00Z'), 6)).toBe(at('2027-01-01T00:00:00Z'));
    expect(addCalendarMonths(at('2026-01-31T08:30:00Z'), 1)).toBe(at('2026-02-28T08:30:00Z'));
    expect(addCalendarMonths(at('2027-08-31T12:00:00Z'), 6)).toBe(at('2028-02-29T12:00:00Z'));
  });

  test('limits.calendar-months: one_month and six_months add calendar months, on both endpoints; days stay days', async ({ api }) => {
    // Clock 2026-06-01T12:00:00Z: by default 30 and 180 days.
    expect((await put(api, WIDGETS, { limit: 'existing_users', expiry: 'one_month' })).json().expires_at).toBe('2026-07-01T12:00:00Z');
    await api.vary('limits.calendar-months');
    expect((await put(api, WIDGETS, { limit: 'existing_users', expiry: 'one_month' })).json().expires_at).toBe('2026-07-01T12:00:00Z');
    expect((await put(api, WIDGETS, { limit: 'existing_users', expiry: 'six_months' })).json().expires_at).toBe('2026-12-01T12:00:00Z');
    expect((await put(api, WIDGETS, { limit: 'existing_users', expiry: 'one_week' })).json().expires_at).toBe('2026-06-08T12:00:00Z');
    expect((await put(api, ORG, { limit: 'existing_users', expiry: 'six_months' })).json().expires_at).toBe('2026-12-01T12:00:00Z');
    await api.call('DELETE', ORG, { as: 'org-owner' });
    await api.advance(31 * 24 * 3600); // 2026-07-02: a 30-day July month would differ from a calendar one
    expect((await put(api, WIDGETS, { limit: 'existing_users', expiry: 'one_month' })).json().expires_at).toBe('2026-08-02T12:00:00Z');
  });

  test('limits.active-at-expires-at: the limit holds at the instant expires_at, gone a second later', async ({ api }) => {
    await api.vary('limits.active-at-expires-at');
    await put(api, WIDGETS, { limit: 'existing_users', expiry: 'one_day' });
    await api.advance(24 * 3600);
    expect((await api.get(WIDGETS, { as: 'repo-admin' })).json()).toMatchObject({
      limit: 'existing_users',
      expires_at: '2026-06-02T12:00:00Z',
    });
    await api.advance(1);
    expect((await api.get(WIDGETS, { as: 'repo-admin' })).json()).toEqual({});
  });

  test('limits.org-default-one-week: an organization limit without expiry lasts a week; the repository one a day', async ({ api }) => {
    expect((await put(api, ORG, { limit: 'existing_users' })).json().expires_at).toBe('2026-06-02T12:00:00Z');
    await api.call('DELETE', ORG, { as: 'org-owner' });
    await api.vary('limits.org-default-one-week');
    expect((await put(api, ORG, { limit: 'existing_users' })).json().expires_at).toBe('2026-06-08T12:00:00Z');
    expect((await put(api, ORG, { limit: 'existing_users', expiry: 'three_days' })).json().expires_at).toBe('2026-06-04T12:00:00Z');
    await api.call('DELETE', ORG, { as: 'org-owner' });
    expect((await put(api, WIDGETS, { limit: 'existing_users' })).json().expires_at).toBe('2026-06-02T12:00:00Z');
  });

  test('limits.unknown-expiry-default: an unknown expiry is read as one_day (200); a wrong type and a bad limit stay 422', async ({
    api,
  }) => {
    expectErrorBody(await put(api, WIDGETS, { limit: 'existing_users', expiry: 'forever' }), 422);
    await api.vary('limits.unknown-expiry-default');
    const response = await put(api, WIDGETS, { limit: 'existing_users', expiry: 'forever' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ limit: 'existing_users', origin: 'repository', expires_at: '2026-06-02T12:00:00Z' });
    const wrongType = expectErrorBody(await put(api, WIDGETS, { limit: 'existing_users', expiry: 7 }), 422);
    expect(wrongType.errors).toEqual([{ resource: 'InteractionLimit', field: 'expiry', code: 'invalid' }]);
    expectErrorBody(await put(api, WIDGETS, { limit: 'everyone', expiry: 'forever' }), 422);
  });

  test('limits.org-delete-keeps-repository-limits: the organization DELETE leaves the limits it wrote into repositories', async ({
    api,
  }) => {
    await api.vary('limits.org-delete-keeps-repository-limits');
    await put(api, ORG, { limit: 'contributors_only' });
    expect((await api.call('DELETE', ORG, { as: 'org-owner' })).statusCode).toBe(204);
    expect((await api.get(ORG, { as: 'org-owner' })).json()).toEqual({});
    const kept = { limit: 'contributors_only', origin: 'organization', expires_at: '2026-06-02T12:00:00Z' };
    expect((await api.get(WIDGETS, { as: 'repo-admin' })).json()).toEqual(kept);
    // No organization limit is active any more: the repository's admin may delete the copy.
    expect((await api.call('DELETE', WIDGETS, { as: 'repo-admin' })).statusCode).toBe(204);
    expect((await api.get(WIDGETS, { as: 'repo-admin' })).json()).toEqual({});
  });

  test('limits.delete-none-404: DELETE with nothing to delete is 404 on both levels; with a limit still 204', async ({ api }) => {
    expect((await api.call('DELETE', ORG, { as: 'org-owner' })).statusCode).toBe(204);
    await api.vary('limits.delete-none-404');
    expectErrorBody(await api.call('DELETE', WIDGETS, { as: 'repo-admin' }), 404);
    expectErrorBody(await api.call('DELETE', ORG, { as: 'org-owner' }), 404);
    // A caller without the role is still refused first.
    expectErrorBody(await api.call('DELETE', WIDGETS, { as: 'repo-writer' }), 403);
    await put(api, WIDGETS, { limit: 'existing_users' });
    expect((await api.call('DELETE', WIDGETS, { as: 'repo-admin' })).statusCode).toBe(204);
    await put(api, ORG, { limit: 'existing_users' });
    expect((await api.call('DELETE', ORG, { as: 'org-owner' })).statusCode).toBe(204);
  });

  test('limits.denied-as-404: callers without the role, permission or scope get 404 instead of 403; anonymous still 401', async ({
    api,
  }) => {
    expectErrorBody(await api.get(WIDGETS, { as: 'repo-writer' }), 403);
    await api.vary('limits.denied-as-404');
    expectErrorBody(await api.get(WIDGETS, { as: 'repo-writer' }), 404);
    expectErrorBody(await put(api, WIDGETS, { limit: 'existing_users' }, 'reader-fine-grained'), 404);
    expectErrorBody(await put(api, WIDGETS, { limit: 'existing_users' }, 'admin-no-scope'), 404);
    expectErrorBody(await api.get(ORG, { as: 'org-member-admin-scope' }), 404);
    expectErrorBody(await api.call('DELETE', ORG, { as: 'repo-admin' }), 404);
    expectErrorBody(await api.get(WIDGETS), 401);
    expect((await api.get(WIDGETS, { as: 'repo-admin' })).statusCode).toBe(200);
  });

  test('limits.public-repository-no-scope: a classic token without scope changes a public repository, not a private one', async ({
    api,
  }) => {
    expectErrorBody(await put(api, WIDGETS, { limit: 'existing_users' }, 'admin-no-scope'), 403);
    await api.vary('limits.public-repository-no-scope');
    expect((await put(api, WIDGETS, { limit: 'existing_users' }, 'admin-no-scope')).statusCode).toBe(200);
    expect((await api.call('DELETE', WIDGETS, { as: 'admin-no-scope' })).statusCode).toBe(204);
    // A private repository still needs repo (the reference hides it from a token without: 404).
    expectErrorBody(await put(api, VAULT, { limit: 'existing_users' }, 'admin-no-scope'), 404);
  });

  test('limits.repo-scope-only: public_repo is not enough for a public repository; repo is', async ({ api }) => {
    expect((await put(api, WIDGETS, { limit: 'existing_users' }, 'admin-public-repo-scope')).statusCode).toBe(200);
    await api.vary('limits.repo-scope-only');
    expectErrorBody(await put(api, WIDGETS, { limit: 'existing_users' }, 'admin-public-repo-scope'), 403);
    expectErrorBody(await api.get(WIDGETS, { as: 'admin-public-repo-scope' }), 403);
    expect((await put(api, WIDGETS, { limit: 'existing_users' }, 'repo-admin')).statusCode).toBe(200);
  });

  test('limits.expires-at-offset: expires_at with milliseconds and +00:00, the same instant', async ({ api }) => {
    expect((await put(api, WIDGETS, { limit: 'existing_users' })).json().expires_at).toBe('2026-06-02T12:00:00Z');
    await api.vary('limits.expires-at-offset');
    expect((await put(api, WIDGETS, { limit: 'existing_users' })).json().expires_at).toBe('2026-06-02T12:00:00.000+00:00');
    expect((await api.get(WIDGETS, { as: 'repo-admin' })).json().expires_at).toBe('2026-06-02T12:00:00.000+00:00');
  });
});
