import { execFileSync } from 'node:child_process';
import { worldRepository } from '../../git/world-git.js';
import { expect, expectErrorBody, test } from '../../service.fixture.js';

// The Git blob endpoints over the world's real Git objects: git computes the same ids.

const BLOBS = '/repos/octo-org/widgets/git/blobs';
const gitHash = (bytes: Buffer | string) => execFileSync('git', ['hash-object', '--stdin'], { input: bytes, encoding: 'utf8' }).trim();
const RAW = { accept: 'application/vnd.service.raw+json' };

test('create from utf-8 (the default) and base64: 201 with only url and sha, the sha git computes', async ({ api }) => {
  const text = await api.call('POST', BLOBS, { as: 'repo-writer', body: { content: 'héllo\n' } });
  expect(text.statusCode).toBe(201);
  const sha = gitHash('héllo\n');
  expect(text.json()).toEqual({ sha, url: `http://localhost/repos/octo-org/widgets/git/blobs/${sha}` });
  const binary = Buffer.from([0, 1, 2, 255]);
  const encoded = await api.call('POST', BLOBS, { as: 'repo-writer', body: { content: binary.toString('base64'), encoding: 'base64' } });
  expect(encoded.json().sha).toBe(gitHash(binary));
});

test('get: Base64 content in lines of 60, size, node_id; the raw representation is the bytes themselves', async ({ api }) => {
  const bytes = Buffer.alloc(100, 'x');
  const { sha } = (await api.call('POST', BLOBS, { as: 'repo-writer', body: { content: bytes.toString() } })).json();
  const blob = await api.get(`${BLOBS}/${sha}`);
  expect(blob.statusCode).toBe(200);
  const body = blob.json();
  expect(body).toMatchObject({ sha, size: 100, encoding: 'base64', url: `http://localhost${BLOBS}/${sha}` });
  expect(body.content.split('\n').map((line: string) => line.length)).toEqual([60, 60, 16, 0]);
  expect(Buffer.from(body.content, 'base64').equals(bytes)).toBe(true);
  expect(Buffer.from(body.node_id, 'base64').toString()).toBe(`04:Blob1000:${sha}`);
  const raw = await api.get(`${BLOBS}/${sha}`, { headers: RAW });
  expect(raw.headers['content-type']).toBe('application/vnd.service.raw');
  expect(raw.rawPayload.equals(bytes)).toBe(true);
});

test("the world's files are blobs of the repository, by git's id", async ({ api }) => {
  const readme = '# Widgets\n\nWidgets that do not wobble.\n';
  const raw = await api.get(`${BLOBS}/${gitHash(readme)}`, { headers: RAW });
  expect(raw.statusCode).toBe(200);
  expect(raw.body).toBe(readme);
});

test('errors: 409 for an empty repository, 422 for a malformed sha or bad content, 404 for a blob it does not hold', async ({
  api,
  world,
}) => {
  expectErrorBody(
    await api.call('POST', '/repos/octo-org/empty/git/blobs', { as: 'repo-admin', body: { content: 'x' } }),
    409,
    'Git Repository is empty.',
  );
  expectErrorBody(await api.get(`/repos/octo-org/empty/git/blobs/${'a'.repeat(40)}`), 409);
  expectErrorBody(await api.get(`${BLOBS}/not-a-sha`), 422);
  expectErrorBody(await api.get(`${BLOBS}/${'0'.repeat(40)}`), 404);
  expectErrorBody(await api.call('POST', BLOBS, { as: 'repo-writer', body: { content: '***', encoding: 'base64' } }), 422);
  expectErrorBody(await api.call('POST', BLOBS, { as: 'repo-writer', body: { content: 'x', encoding: 'utf-16' } }), 422);
  // A commit is an object of the repository, but not a blob.
  const widgets = world.repositories.find((r) => r.name === 'widgets')!;
  const commit = (await worldRepository(world, widgets))!.commits.get('second')!;
  expectErrorBody(await api.get(`${BLOBS}/${commit}`), 404);
});

test('access: Contents (write) or push access to create, anonymous reads of a public repository', async ({ api }) => {
  const body = { content: 'x' };
  expect((await api.call('POST', BLOBS, { as: 'fine-grained-contents-writer', body })).statusCode).toBe(201);
  expect((await api.call('POST', BLOBS, { as: 'repo-reader', body })).statusCode).toBe(403);
  expect((await api.call('POST', BLOBS, { as: 'fine-grained-contents-reader', body })).statusCode).toBe(403);
  expect((await api.call('POST', BLOBS, { body })).statusCode).toBe(401);
  expect((await api.get(`${BLOBS}/${gitHash('x')}`)).statusCode).toBe(200);
});

test('a reset forgets the blobs written since; the world keeps its own', async ({ api }) => {
  const { sha } = (await api.call('POST', BLOBS, { as: 'repo-writer', body: { content: 'temporary\n' } })).json();
  expect((await api.get(`${BLOBS}/${sha}`)).statusCode).toBe(200);
  await api.call('POST', '/_conformance/reset');
  expect((await api.get(`${BLOBS}/${sha}`)).statusCode).toBe(404);
});
