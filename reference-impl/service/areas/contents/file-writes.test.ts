// Endpoints 16 and 17: files written and deleted through the contents API become real
// commits on a branch, refused when the caller's view is stale, when another write is under
// way, or when the workflow directory needs more than the caller holds.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportReachable } from '../../../../test-support/git-export.js';
import { processObjectStore } from '../../git/world-git.js';
import { expect, expectErrorBody, test } from '../../service.fixture.js';

const FILE = '/repos/octo-org/widgets/contents/notes/todo.md';
const RAW = { accept: 'application/vnd.service.raw+json' };
const b64 = (text: string) => Buffer.from(text).toString('base64');
const gitHash = (text: string) => execFileSync('git', ['hash-object', '--stdin'], { input: text, encoding: 'utf8' }).trim();

test('create (201), update with the current sha (200), delete (200, content null): each a commit on the last', async ({ api }) => {
  const head = (await api.get('/repos/octo-org/widgets/contents/README.md')).json().url as string;
  expect(head).toContain('?ref=main');
  const created = await api.call('PUT', FILE, { as: 'repo-writer', body: { message: 'Add notes', content: b64('one\n') } });
  expect(created.statusCode).toBe(201);
  const first = created.json();
  expect(first.content).toMatchObject({ type: 'file', name: 'todo.md', path: 'notes/todo.md', size: 4, sha: gitHash('one\n') });
  expect(first.commit).toMatchObject({
    message: 'Add notes',
    author: { name: 'defunkt', email: '4+defunkt@users.noreply.touchstone.invalid', date: '2026-06-01T12:00:00Z' },
    committer: { name: 'defunkt', date: '2026-06-01T12:00:00Z' },
    verification: { verified: false, reason: 'unsigned' },
  });
  expect(first.commit.parents).toHaveLength(1);

  const updated = await api.call('PUT', FILE, {
    as: 'repo-writer',
    body: { message: 'Two', content: b64('two\n'), sha: first.content.sha },
  });
  expect(updated.statusCode).toBe(200);
  const second = updated.json();
  expect(second.commit.parents.map((p: { sha: string }) => p.sha)).toEqual([first.commit.sha]);
  expect((await api.get(`${FILE}?ref=${first.commit.sha}`, { headers: RAW })).rawPayload.toString()).toBe('one\n');
  expect((await api.get(FILE, { headers: RAW })).rawPayload.toString()).toBe('two\n');

  const deleted = await api.call('DELETE', FILE, { as: 'repo-writer', body: { message: 'Drop', sha: second.content.sha } });
  expect(deleted.statusCode).toBe(200);
  expect(deleted.json().content).toBeNull();
  expect(deleted.json().commit.parents[0].sha).toBe(second.commit.sha);
  expect((await api.get(FILE)).statusCode).toBe(404);
  // The directory went with its last file; the rest of the tree is untouched.
  expect((await api.get('/repos/octo-org/widgets/contents/notes')).statusCode).toBe(404);
  expect((await api.get('/repos/octo-org/widgets/contents/README.md')).statusCode).toBe(200);
});

test('git agrees: the commits are well-formed objects whose tree holds the file', async ({ api }) => {
  const { commit } = (await api.call('PUT', FILE, { as: 'repo-writer', body: { message: 'Add', content: b64('x\n') } })).json();
  const gitdir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-export-'));
  try {
    execFileSync('git', ['init', '-q', '--bare', gitdir]);
    await exportReachable(await processObjectStore(), [commit.sha], gitdir);
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', gitdir, ...args], { encoding: 'utf8' });
    expect(git('rev-parse', `${commit.sha}^{tree}`).trim()).toBe(commit.tree.sha);
    expect(git('cat-file', '-p', `${commit.sha}:notes/todo.md`)).toBe('x\n');
    expect(git('rev-parse', `${commit.sha}^`).trim()).toBe(commit.parents[0].sha);
    expect(() => git('fsck', '--strict', '--no-dangling', commit.sha)).not.toThrow();
  } finally {
    rmSync(gitdir, { recursive: true, force: true });
  }
});

test('the sha: required to update (422), a stale one is 409, and so is one for a path that holds nothing', async ({ api }) => {
  const readme = '/repos/octo-org/widgets/contents/README.md';
  const current = (await api.get(readme)).json().sha as string;
  expectErrorBody(await api.call('PUT', readme, { as: 'repo-writer', body: { message: 'm', content: b64('x') } }), 422);
  const stale = await api.call('PUT', readme, { as: 'repo-writer', body: { message: 'm', content: b64('x'), sha: 'a'.repeat(40) } });
  expectErrorBody(stale, 409, `README.md does not match ${'a'.repeat(40)}`);
  expect((await api.call('PUT', FILE, { as: 'repo-writer', body: { message: 'm', content: b64('x'), sha: current } })).statusCode).toBe(
    409,
  );
  expect((await api.call('DELETE', readme, { as: 'repo-writer', body: { message: 'm', sha: 'b'.repeat(40) } })).statusCode).toBe(409);
  expect((await api.call('DELETE', readme, { as: 'repo-writer', body: { message: 'm' } })).statusCode).toBe(422);
  expect((await api.call('DELETE', FILE, { as: 'repo-writer', body: { message: 'm', sha: current } })).statusCode).toBe(404);
});

test('branch: the write lands on it and nowhere else; an unknown branch is 404', async ({ api }) => {
  const put = await api.call('PUT', FILE, { as: 'repo-writer', body: { message: 'm', content: b64('x'), branch: 'experiment' } });
  expect(put.statusCode).toBe(201);
  expect(put.json().content.url).toContain('?ref=experiment');
  expect((await api.get(`${FILE}?ref=experiment`)).statusCode).toBe(200);
  expect((await api.get(FILE)).statusCode).toBe(404);
  expectErrorBody(await api.call('PUT', FILE, { as: 'repo-writer', body: { message: 'm', content: b64('x'), branch: 'nope' } }), 404);
});

test('identities: name and email both required; author defaults to the committer, the committer to the caller', async ({ api }) => {
  const put = (body: object) => api.call('PUT', FILE, { as: 'repo-writer', body: { message: 'm', content: b64('x'), ...body } });
  const missing = await put({ committer: { name: 'Mona' } });
  expect(expectErrorBody(missing, 422).errors).toEqual([{ resource: 'File', field: 'committer.email', code: 'missing_field' }]);
  expect((await put({ author: { email: 'a@example.com' } })).statusCode).toBe(422);
  const committer = { name: 'Mona', email: 'mona@example.com', date: '2026-05-30T08:00:00Z' };
  const { commit } = (await put({ committer })).json();
  expect(commit.author).toEqual(committer);
  expect(commit.committer).toEqual(committer);
});

test('the workflow directory needs the workflow scope or the Workflows permission too', async ({ api }) => {
  const workflow = '/repos/octo-org/widgets/contents/.github/workflows/release.yml';
  const body = { message: 'Release workflow', content: b64('name: release\n') };
  expectErrorBody(await api.call('PUT', workflow, { as: 'repo-writer', body }), 403, /workflow scope for files in \.github\/workflows/);
  expect((await api.call('PUT', workflow, { as: 'fine-grained-contents-writer', body })).statusCode).toBe(403);
  expect((await api.call('PUT', workflow, { as: 'repo-writer-workflow', body })).statusCode).toBe(201);
  // Elsewhere the usual rule: Contents (write) is enough.
  expect((await api.call('PUT', FILE, { as: 'fine-grained-contents-writer', body })).statusCode).toBe(201);
  const ci = (await api.get('/repos/octo-org/widgets/contents/.github/workflows/ci.yml')).json().sha;
  const update = { message: 'CI', content: b64('name: ci2\n'), sha: ci };
  expect(
    (
      await api.call('PUT', '/repos/octo-org/widgets/contents/.github/workflows/ci.yml', {
        as: 'fine-grained-workflows-writer',
        body: update,
      })
    ).statusCode,
  ).toBe(200);
});

test('concurrent writes to one branch: exactly one succeeds, the others are 409, and its content stays', async ({ api }) => {
  const readme = '/repos/octo-org/widgets/contents/README.md';
  const sha = (await api.get(readme)).json().sha;
  const writes = await Promise.all(
    [1, 2, 3, 4, 5].map((i) =>
      api.call('PUT', readme, { as: 'repo-writer', body: { message: `w${i}`, content: b64(`write ${i}\n`), sha } }),
    ),
  );
  const statuses = writes.map((w) => w.statusCode);
  expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  expect(statuses.filter((s) => s === 409)).toHaveLength(4);
  const winner = statuses.indexOf(200) + 1;
  expect((await api.get(readme, { headers: RAW })).rawPayload.toString()).toBe(`write ${winner}\n`);
});

test('an injected storage failure: 503 and the branch unchanged; the next write works', async ({ api, service }) => {
  const readme = '/repos/octo-org/widgets/contents/README.md';
  const before = (await api.get(readme)).json().sha;
  const injected = await service.app.inject({ method: 'POST', url: '/_conformance/failures', payload: { storage: 1 } });
  expect(injected.json()).toEqual({ pending: { storage: 1, internal: 0, maintenance: 0 } });
  expectErrorBody(await api.call('DELETE', readme, { as: 'repo-writer', body: { message: 'm', sha: before } }), 503);
  expect((await api.get(readme)).json().sha).toBe(before);
  expect((await api.call('DELETE', readme, { as: 'repo-writer', body: { message: 'm', sha: before } })).statusCode).toBe(200);
});

test('bad requests: 401 anonymous, 422 for bad Base64, a .git or .. segment (slashes encoded, as clients resolve plain ones), a directory, or a path under a file', async ({
  api,
}) => {
  const body = { message: 'm', content: b64('x') };
  expect((await api.call('PUT', FILE, { body })).statusCode).toBe(401);
  expect((await api.call('PUT', FILE, { as: 'repo-reader', body })).statusCode).toBe(403);
  expectErrorBody(await api.call('PUT', FILE, { as: 'repo-writer', body: { message: 'm', content: 'not base64!' } }), 422);
  for (const path of ['.git/config', 'a/.GIT/b', 'docs', 'README.md/inner', 'src%2F..%2Fx'])
    expect((await api.call('PUT', `/repos/octo-org/widgets/contents/${path}`, { as: 'repo-writer', body })).statusCode, path).toBe(422);
  expect((await api.call('PUT', '/repos/octo-org/widgets/contents', { as: 'repo-writer', body })).statusCode).toBe(422);
});

test('an empty repository: the first file makes its first commit, and then it is empty no more', async ({ api }) => {
  const blobs = '/repos/octo-org/empty/git/blobs';
  expect((await api.call('POST', blobs, { as: 'repo-admin', body: { content: 'x' } })).statusCode).toBe(409);
  const put = await api.call('PUT', '/repos/octo-org/empty/contents/README.md', {
    as: 'repo-admin',
    body: { message: 'Start', content: b64('# Empty\n') },
  });
  expect(put.statusCode).toBe(201);
  expect(put.json().commit.parents).toEqual([]);
  expect((await api.get('/repos/octo-org/empty/contents/README.md', { headers: RAW })).rawPayload.toString()).toBe('# Empty\n');
  expect((await api.call('POST', blobs, { as: 'repo-admin', body: { content: 'x' } })).statusCode).toBe(201);
});
