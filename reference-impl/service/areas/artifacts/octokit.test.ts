// @octokit/rest against the artifact endpoints, as a user calls them: paginate and download.
import { expect, test } from '../../octokit.fixture.js';

const repo = { owner: 'octo-org', repo: 'widgets' };

test('octokit.paginate walks every artifact; getArtifact, listWorkflowRunArtifacts, downloadArtifact and deleteArtifact work', async ({
  octokit,
}) => {
  const client = octokit('repo-writer');
  const all = await client.paginate(client.rest.actions.listArtifactsForRepo, { ...repo, per_page: 100 });
  expect(all).toHaveLength(109);
  expect(new Set(all.map((a) => a.id)).size).toBe(109);
  const artifact = await client.rest.actions.getArtifact({ ...repo, artifact_id: 60001 });
  expect(artifact.data.name).toBe('build-output');
  const run = await client.rest.actions.listWorkflowRunArtifacts({ ...repo, run_id: 50002 });
  expect(run.data.total_count).toBe(2);
  const zip = await client.rest.actions.downloadArtifact({ ...repo, artifact_id: 60001, archive_format: 'zip' });
  expect(Buffer.from(zip.data as ArrayBuffer).length).toBe(artifact.data.size_in_bytes);
  await expect(client.rest.actions.downloadArtifact({ ...repo, artifact_id: 60004, archive_format: 'zip' })).rejects.toMatchObject({
    status: 410,
  });
  expect((await client.rest.actions.deleteArtifact({ ...repo, artifact_id: 60002 })).status).toBe(204);
});
