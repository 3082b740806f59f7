// @octokit/rest against the social accounts: its users methods, the 304 it sees as an error,
// and the 422 of a refused URL.
import { expect, test } from '../../octokit.fixture.js';

test('addSocialAccountForAuthenticatedUser, listSocialAccountsForUser, deleteSocialAccountForAuthenticatedUser', async ({ octokit }) => {
  const client = octokit('user-scope');
  const added = await client.rest.users.addSocialAccountForAuthenticatedUser({ account_urls: ['https://www.instagram.com/octo'] });
  expect(added.status).toBe(201);
  expect(added.data).toEqual([{ provider: 'instagram', url: 'https://www.instagram.com/octo' }]);
  const listed = await octokit('outsider').rest.users.listSocialAccountsForUser({ username: 'octocat' });
  expect(listed.data.map((a) => a.provider)).toEqual(['twitter', 'linkedin', 'generic', 'instagram']);
  const own = await client.rest.users.listSocialAccountsForAuthenticatedUser();
  expect(own.data).toHaveLength(4);
  await expect(client.request('GET /user/social_accounts', { headers: { 'if-none-match': own.headers.etag } })).rejects.toMatchObject({
    status: 304,
  });
  expect(
    (await client.rest.users.deleteSocialAccountForAuthenticatedUser({ account_urls: ['https://www.instagram.com/octo'] })).status,
  ).toBe(204);
  await expect(client.rest.users.addSocialAccountForAuthenticatedUser({ account_urls: ['not a url'] })).rejects.toMatchObject({
    status: 422,
  });
});
