// @octokit/rest against the organization variables: its actions methods, paginate over the
// {total_count, repositories} list, and its errors.
import { expect, test } from '../../octokit.fixture.js';

const org = 'octo-org';

test('createOrgVariable, getOrgVariable, updateOrgVariable, listOrgVariables and deleteOrgVariable', async ({ octokit }) => {
  const client = octokit('org-owner');
  const created = await client.rest.actions.createOrgVariable({
    org,
    name: 'ci_image',
    value: 'node:20',
    visibility: 'selected',
    selected_repository_ids: [1000],
  });
  expect(created.status).toBe(201);
  expect((await client.rest.actions.getOrgVariable({ org, name: 'CI_IMAGE' })).data).toMatchObject({
    name: 'CI_IMAGE',
    value: 'node:20',
    visibility: 'selected',
  });
  expect((await client.rest.actions.updateOrgVariable({ org, name: 'CI_IMAGE', value: 'node:22' })).status).toBe(204);
  const listed = await client.rest.actions.listOrgVariables({ org, per_page: 30 });
  expect(listed.data.total_count).toBe(4);
  expect(listed.data.variables.find((v) => v.name === 'CI_IMAGE')?.value).toBe('node:22');
  expect((await client.rest.actions.deleteOrgVariable({ org, name: 'CI_IMAGE' })).status).toBe(204);
  await expect(client.rest.actions.getOrgVariable({ org, name: 'CI_IMAGE' })).rejects.toMatchObject({ status: 404 });
});

test('listSelectedReposForOrgVariable with octokit.paginate, page by page; set, add, remove; 409 as a RequestError', async ({
  octokit,
}) => {
  const client = octokit('org-owner');
  const name = 'RELEASE_CHANNEL';
  await client.rest.actions.setSelectedReposForOrgVariable({ org, name, selected_repository_ids: [1000, 1001, 1002, 1005, 1006] });
  const repositories = await client.paginate(client.rest.actions.listSelectedReposForOrgVariable, { org, name, per_page: 2 });
  expect(repositories.map((r) => r.name)).toEqual(['widgets', 'vault', 'crowd', 'empty', 'assets']);
  expect((await client.rest.actions.removeSelectedRepoFromOrgVariable({ org, name, repository_id: 1001 })).status).toBe(204);
  expect((await client.rest.actions.addSelectedRepoToOrgVariable({ org, name, repository_id: 1001 })).status).toBe(204);
  await expect(client.rest.actions.listSelectedReposForOrgVariable({ org, name: 'DEPLOY_ENV' })).rejects.toMatchObject({ status: 409 });
});
