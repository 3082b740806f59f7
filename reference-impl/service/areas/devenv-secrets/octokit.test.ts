// @octokit/rest against the development-environment secrets: octokit.request on each path,
// with the value sealed by libsodium-wrappers to the repository's public key as a client does.
import sodium from 'libsodium-wrappers';
import { expect, test } from '../../octokit.fixture.js';

const repo = { owner: 'octo-org', repo: 'widgets' };

test('fetch the key, seal, PUT (201 then 204), list, get, delete; a stale key_id is a RequestError 422', async ({ octokit }) => {
  const client = octokit('repo-admin');
  const { data: key } = await client.request('GET /repos/{owner}/{repo}/devenv/secrets/public-key', repo);
  await sodium.ready;
  const encrypted_value = Buffer.from(sodium.crypto_box_seal(Buffer.from('s3cret'), Buffer.from(key.key, 'base64'))).toString('base64');
  const path = 'PUT /repos/{owner}/{repo}/devenv/secrets/{secret_name}';
  expect((await client.request(path, { ...repo, secret_name: 'API_TOKEN', encrypted_value, key_id: key.key_id })).status).toBe(201);
  expect((await client.request(path, { ...repo, secret_name: 'API_TOKEN', encrypted_value, key_id: key.key_id })).status).toBe(204);
  const { data: list } = await client.request('GET /repos/{owner}/{repo}/devenv/secrets', repo);
  expect(list).toMatchObject({ total_count: 1, secrets: [{ name: 'API_TOKEN' }] });
  const { data: secret } = await client.request('GET /repos/{owner}/{repo}/devenv/secrets/{secret_name}', {
    ...repo,
    secret_name: 'API_TOKEN',
  });
  expect(JSON.stringify(secret)).not.toContain(encrypted_value);
  await expect(client.request(path, { ...repo, secret_name: 'API_TOKEN', encrypted_value, key_id: '1' })).rejects.toMatchObject({
    status: 422,
  });
  expect(
    (await client.request('DELETE /repos/{owner}/{repo}/devenv/secrets/{secret_name}', { ...repo, secret_name: 'API_TOKEN' })).status,
  ).toBe(204);
});
