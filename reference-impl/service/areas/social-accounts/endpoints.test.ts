// Endpoints 24–27 of spec 2: social accounts. octocat links twitter.com/octocat,
// www.linkedin.com/in/octocat and fosstodon.org/@octocat (a host of no known provider).
import { expect, expectErrorBody, test } from '../../service.fixture.js';

const OWN = '/user/social_accounts';

const OCTOCAT = [
  { provider: 'twitter', url: 'https://twitter.com/octocat' },
  { provider: 'linkedin', url: 'https://www.linkedin.com/in/octocat' },
  { provider: 'generic', url: 'https://fosstodon.org/@octocat' },
];

test("anyone lists a user's accounts; a user lists their own with any token of theirs; 304 with the ETag", async ({ api }) => {
  expect((await api.get('/users/OctoCat/social_accounts')).json()).toEqual(OCTOCAT);
  expect((await api.get('/users/hubot/social_accounts')).json()).toEqual([]);
  expectErrorBody(await api.get('/users/nobody-here/social_accounts'), 404);
  const own = await api.get(OWN, { as: 'user-owner' });
  expect(own.json()).toEqual(OCTOCAT);
  expect((await api.get(OWN, { as: 'fine-grained-profile-reader' })).json()).toEqual(OCTOCAT);
  const again = await api.get(OWN, { as: 'user-owner', headers: { 'if-none-match': own.headers.etag as string } });
  expect(again.statusCode).toBe(304);
  expectErrorBody(await api.get(OWN), 401);
  expectErrorBody(await api.get(OWN, { as: 'app-installation' }), 403);
  const paged = await api.get(`${OWN}?per_page=2&page=2`, { as: 'user-owner' });
  expect(paged.json()).toEqual([OCTOCAT[2]]);
  expect(paged.headers.link).toContain('rel="first"');
});

test('add (201 with the added accounts, providers from the host), delete (204)', async ({ api }) => {
  const body = { account_urls: ['https://x.com/octo', 'https://www.youtube.com/@octo', 'https://x.com/octo', 'https://example.org/octo'] };
  const added = await api.call('POST', OWN, { as: 'user-scope', body });
  expect(added.statusCode).toBe(201);
  expect(added.json()).toEqual([
    { provider: 'twitter', url: 'https://x.com/octo' },
    { provider: 'youtube', url: 'https://www.youtube.com/@octo' },
    { provider: 'generic', url: 'https://example.org/octo' },
  ]);
  expect((await api.get('/users/octocat/social_accounts')).json()).toHaveLength(6);
  const removed = await api.call('DELETE', OWN, {
    as: 'fine-grained-profile-writer',
    body: { account_urls: ['https://x.com/octo', 'https://twitter.com/octocat'] },
  });
  expect(removed.statusCode).toBe(204);
  expect((await api.get(OWN, { as: 'user-owner' })).json().map((a: { url: string }) => a.url)).toEqual([
    'https://www.linkedin.com/in/octocat',
    'https://fosstodon.org/@octocat',
    'https://www.youtube.com/@octo',
    'https://example.org/octo',
  ]);
});

test('422, nothing changed: an empty list, a URL that is not one, one already linked, deleting one not linked', async ({ api }) => {
  const refused = [
    ['POST', { account_urls: [] }],
    ['POST', { account_urls: ['https://x.com/ok', 'not a url'] }],
    ['POST', { account_urls: ['ftp://example.org/x'] }],
    ['POST', { account_urls: ['https://localhost/x'] }],
    ['POST', { account_urls: ['https://twitter.com/octocat'] }],
    ['DELETE', { account_urls: ['https://twitter.com/octocat', 'https://x.com/never'] }],
    ['DELETE', { account_urls: [] }],
    ['POST', {}],
  ] as const;
  for (const [method, body] of refused) expectErrorBody(await api.call(method, OWN, { as: 'user-scope', body }), 422);
  expect((await api.get(OWN, { as: 'user-owner' })).json()).toEqual(OCTOCAT);
});

test('writes need the user scope or Profile (write)', async ({ api }) => {
  const body = { account_urls: ['https://reddit.com/u/octo'] };
  expectErrorBody(await api.call('POST', OWN, { as: 'user-owner', body }), 403);
  expectErrorBody(await api.call('POST', OWN, { as: 'fine-grained-profile-reader', body }), 403);
  expectErrorBody(await api.call('POST', OWN, { body }), 401);
  expect((await api.call('POST', OWN, { as: 'fine-grained-profile-writer', body })).statusCode).toBe(201);
});

test('social.duplicate-accepted and social.absent-delete-accepted: nothing to add twice, nothing to delete is no error', async ({
  api,
}) => {
  const scope = { as: 'user-scope' };
  await api.vary('social.duplicate-accepted', 'social.absent-delete-accepted');
  const added = await api.call('POST', OWN, { ...scope, body: { account_urls: ['https://twitter.com/octocat', 'https://x.com/octo'] } });
  expect(added.statusCode).toBe(201);
  expect(added.json()).toEqual([
    { provider: 'twitter', url: 'https://twitter.com/octocat' },
    { provider: 'twitter', url: 'https://x.com/octo' },
  ]);
  expect((await api.get(OWN, { as: 'user-owner' })).json()).toEqual([...OCTOCAT, { provider: 'twitter', url: 'https://x.com/octo' }]);
  expect(
    (await api.call('DELETE', OWN, { ...scope, body: { account_urls: ['https://x.com/octo', 'https://x.com/never'] } })).statusCode,
  ).toBe(204);
  expect((await api.get(OWN, { as: 'user-owner' })).json()).toEqual(OCTOCAT);
  // Strings that are no profile URL are still refused.
  expectErrorBody(await api.call('POST', OWN, { ...scope, body: { account_urls: ['not a url'] } }), 422);
});

test('social.empty-list-noop: an empty list is nothing to do', async ({ api }) => {
  await api.vary('social.empty-list-noop');
  const added = await api.call('POST', OWN, { as: 'user-scope', body: { account_urls: [] } });
  expect(added.statusCode).toBe(201);
  expect(added.json()).toEqual([]);
  expect((await api.call('DELETE', OWN, { as: 'user-scope', body: { account_urls: [] } })).statusCode).toBe(204);
  expect((await api.get(OWN, { as: 'user-owner' })).json()).toEqual(OCTOCAT);
});

test('social.add-answers-all, social.lists-newest-first, social.provider-generic-only: other answers', async ({ api }) => {
  await api.vary('social.add-answers-all');
  const added = await api.call('POST', OWN, { as: 'user-scope', body: { account_urls: ['https://x.com/octo'] } });
  expect(added.statusCode).toBe(201);
  expect(added.json()).toEqual([...OCTOCAT, { provider: 'twitter', url: 'https://x.com/octo' }]);
  await api.vary('social.lists-newest-first');
  expect((await api.get('/users/octocat/social_accounts')).json()).toEqual([
    { provider: 'twitter', url: 'https://x.com/octo' },
    ...[...OCTOCAT].reverse(),
  ]);
  await api.vary('social.provider-generic-only');
  expect((await api.get(OWN, { as: 'user-owner' })).json().map((a: { provider: string }) => a.provider)).toEqual([
    'generic',
    'generic',
    'generic',
    'generic',
  ]);
});
