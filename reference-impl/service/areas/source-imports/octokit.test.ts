// @octokit/rest against the source imports. The client dropped its import methods when the
// endpoints were retired, so a client still driving an import uses octokit.request; the
// clock is set before the retirement through the control API.
import { expect, test } from '../../octokit.fixture.js';

const repo = { owner: 'octocat', repo: 'hello-world' };

test('start, read, restart, list authors and cancel an import; after the retirement a RequestError 410', async ({ octokit, api }) => {
  await api.call('POST', '/_conformance/clock', { body: { set: '2024-03-01T00:00:00Z' } });
  const client = octokit('user-owner');
  const started = await client.request('PUT /repos/{owner}/{repo}/import', {
    ...repo,
    vcs_url: 'https://svn.example.org/widgets/trunk',
    vcs: 'subversion',
  });
  expect(started.status).toBe(201);
  expect(started.data.status).toBe('importing');
  await api.advance(400);
  const { data } = await client.request('GET /repos/{owner}/{repo}/import', repo);
  expect(data).toMatchObject({ status: 'pushing', authors_count: 3 });
  const authors = await client.request('GET /repos/{owner}/{repo}/import/authors', { ...repo, since: 2 });
  expect(authors.data.map((a: { name: string }) => a.name)).toEqual(['grace']);
  expect((await client.request('PATCH /repos/{owner}/{repo}/import', repo)).data.status).toBe('importing');
  expect((await client.request('DELETE /repos/{owner}/{repo}/import', repo)).status).toBe(204);
  await api.call('POST', '/_conformance/clock', { body: { set: '2024-04-12T00:00:00Z' } });
  await expect(client.request('GET /repos/{owner}/{repo}/import', repo)).rejects.toMatchObject({ status: 410 });
});
