// @octokit/rest against the Git blob endpoints: createBlob and getBlob, as a user calls them.
import { expect, test } from '../../octokit.fixture.js';

const widgets = { owner: 'octo-org', repo: 'widgets' };

test('createBlob then getBlob round-trips the bytes; an empty repository is a RequestError 409', async ({ octokit }) => {
  const client = octokit('repo-writer');
  const created = await client.rest.git.createBlob({
    ...widgets,
    content: Buffer.from([0, 1, 2, 255]).toString('base64'),
    encoding: 'base64',
  });
  expect(created.status).toBe(201);
  const blob = await client.rest.git.getBlob({ ...widgets, file_sha: created.data.sha });
  expect(blob.data.encoding).toBe('base64');
  expect([...Buffer.from(blob.data.content, 'base64')]).toEqual([0, 1, 2, 255]);
  const admin = octokit('repo-admin');
  await expect(admin.rest.git.createBlob({ owner: 'octo-org', repo: 'empty', content: 'x' })).rejects.toMatchObject({ status: 409 });
});
