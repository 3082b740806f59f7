// Endpoints 28–32 of spec 2: source imports into octocat/hello-world (octocat's classic
// token), on the service clock set before the retirement (2024-04-12T00:00Z). The world's
// sources: svn.example.org/widgets/trunk (subversion, 240 commits, 3 authors, large files),
// tfs.example.org/DefaultCollection (two tfvc projects), git.example.org/private.git (needs
// importer / correct-horse-battery), hg.example.org/broken (fails at pushing).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReferenceService } from '../../service.js';
import { expect, expectErrorBody, test } from '../../service.fixture.js';

const I = '/repos/octocat/hello-world/import';
const as = { as: 'user-owner' };
const SVN = 'https://svn.example.org/widgets/trunk';

test.beforeEach(async ({ api }) => {
  await api.call('POST', '/_conformance/clock', { body: { set: '2024-03-01T00:00:00Z' } });
});

test('detection, importing (progress), mapping, pushing (push_percent), complete, on the clock', async ({ api }) => {
  const started = await api.call('PUT', I, { ...as, body: { vcs_url: SVN } });
  expect(started.statusCode).toBe(201);
  expect(started.json()).toMatchObject({ status: 'detecting', vcs: null, vcs_url: SVN, authors_count: 0, url: `http://localhost${I}` });
  const status = async () => (await api.get(I, as)).json();
  await api.advance(60);
  expect(await status()).toMatchObject({ status: 'importing', vcs: 'subversion', percent: 0, commit_count: 0 });
  await api.advance(150);
  expect(await status()).toMatchObject({ status: 'importing', percent: 50, commit_count: 120 });
  expect((await api.get(`${I}/authors`, as)).json()).toEqual([]);
  await api.advance(150);
  const mapping = await status();
  expect(mapping).toMatchObject({
    status: 'mapping',
    authors_count: 3,
    has_large_files: true,
    large_files_count: 2,
    large_files_size: 0.25,
  });
  expect(mapping.percent).toBeUndefined();
  await api.advance(90);
  expect(await status()).toMatchObject({ status: 'pushing', push_percent: 25, commit_count: 240 });
  await api.advance(90);
  expect(await status()).toMatchObject({ status: 'complete', percent: 100, push_percent: 100, status_text: 'Done' });
  const authors = (await api.get(`${I}/authors?since=1`, as)).json();
  expect(authors.map((a: { id: number; name: string }) => [a.id, a.name])).toEqual([
    [2, 'Charles Babbage'],
    [3, 'grace'],
  ]);
  expectErrorBody(await api.get(`${I}/authors?since=one`, as), 422);
});

test('vcs given: importing at once; an unknown URL: detection_found_nothing, or (vcs given) an error at importing', async ({ api }) => {
  expect((await api.call('PUT', I, { ...as, body: { vcs_url: SVN, vcs: 'subversion' } })).json().status).toBe('importing');
  expectErrorBody(await api.call('PUT', I, { ...as, body: { vcs_url: SVN } }), 422, /already exists/);
  expect((await api.call('DELETE', I, as)).statusCode).toBe(204);
  expectErrorBody(await api.get(I, as), 404);
  await api.call('PUT', I, { ...as, body: { vcs_url: 'https://nowhere.example.org/x' } });
  await api.advance(60);
  expect((await api.get(I, as)).json().status).toBe('detection_found_nothing');
  await api.call('DELETE', I, as);
  await api.call('PUT', I, { ...as, body: { vcs_url: 'https://nowhere.example.org/x', vcs: 'git' } });
  expect((await api.get(I, as)).json()).toMatchObject({ status: 'error', failed_step: 'importing' });
});

test('several projects: detection_found_multiple with project_choices; PATCH with one continues, with another is 422', async ({ api }) => {
  await api.call('PUT', I, { ...as, body: { vcs_url: 'https://tfs.example.org/DefaultCollection' } });
  await api.advance(60);
  const multiple = (await api.get(I, as)).json();
  expect(multiple.status).toBe('detection_found_multiple');
  expect(multiple.project_choices).toEqual([
    { vcs: 'tfvc', tfvc_project: 'Alpha', human_name: 'Alpha' },
    { vcs: 'tfvc', tfvc_project: 'Beta', human_name: 'Beta' },
  ]);
  expectErrorBody(await api.call('PATCH', I, { ...as, body: { vcs: 'tfvc', tfvc_project: 'Gamma', human_name: 'Gamma' } }), 422);
  const chosen = await api.call('PATCH', I, { ...as, body: multiple.project_choices[1] });
  expect(chosen.json()).toMatchObject({ status: 'importing', vcs: 'tfvc', tfvc_project: 'Beta' });
});

test('credentials: detection_needs_auth, auth_failed; PATCH with them runs again; the password is never returned', async ({ api }) => {
  const git = 'https://git.example.org/private.git';
  await api.call('PUT', I, { ...as, body: { vcs_url: git } });
  await api.advance(60);
  expect((await api.get(I, as)).json().status).toBe('detection_needs_auth');
  const wrong = await api.call('PATCH', I, { ...as, body: { vcs_username: 'importer', vcs_password: 'guess' } });
  expect(wrong.json().status).toBe('detecting');
  await api.advance(60);
  expect((await api.get(I, as)).json().status).toBe('detection_needs_auth');
  await api.call('PATCH', I, { ...as, body: { vcs_password: 'correct-horse-battery' } });
  await api.advance(60);
  expect((await api.get(I, as)).json().status).toBe('importing');
  await api.call('DELETE', I, as);
  const failed = await api.call('PUT', I, { ...as, body: { vcs_url: git, vcs: 'git', vcs_username: 'importer', vcs_password: 'nope' } });
  expect(failed.json().status).toBe('auth_failed');
  const retried = await api.call('PATCH', I, { ...as, body: { vcs_password: 'correct-horse-battery' } });
  expect(retried.json().status).toBe('importing');
  for (const response of [failed, retried, await api.get(I, as)]) {
    expect(response.body).not.toContain('correct-horse-battery');
    expect(response.body).not.toContain('nope');
  }
});

test('a failure: error with failed_step and a message; PATCH without parameters restarts', async ({ api }) => {
  await api.call('PUT', I, { ...as, body: { vcs_url: 'https://hg.example.org/broken', vcs: 'mercurial' } });
  await api.advance(360);
  expect((await api.get(I, as)).json()).toMatchObject({
    status: 'error',
    failed_step: 'pushing',
    error_message: 'the repository refused a ref',
  });
  const restarted = await api.call('PATCH', I, { ...as, body: {} });
  expect(restarted.json()).toMatchObject({ status: 'importing', percent: 0 });
  expect(restarted.json().failed_step).toBeUndefined();
});

test('retired at 2024-04-12T00:00Z: 410 from that instant; workflow automation 422; classic tokens only; 503 in maintenance', async ({
  api,
}) => {
  await api.call('POST', '/_conformance/clock', { body: { set: '2024-04-11T23:59:59Z' } });
  expectErrorBody(await api.get(I, as), 404);
  await api.advance(1);
  expectErrorBody(await api.get(I, as), 410, /retired/);
  await api.call('POST', '/_conformance/clock', { body: { set: '2024-03-01T00:00:00Z' } });
  expectErrorBody(
    await api.call('PUT', '/repos/octo-org/widgets/import', { as: 'repo-admin', body: { vcs_url: SVN } }),
    422,
    /workflow automation/,
  );
  for (const role of ['oauth-admin', 'fine-grained-admin', 'app-installation'])
    expectErrorBody(
      await api.call('PUT', '/repos/octo-org/empty/import', { as: role, body: { vcs_url: SVN } }),
      403,
      /classic tokens only/,
    );
  expectErrorBody(await api.get(I, { as: 'repo-reader' }), 403);
  await api.call('POST', '/_conformance/failures', { body: { maintenance: 1 } });
  expectErrorBody(await api.get(I, as), 503);
  expectErrorBody(await api.get(I, as), 404);
});

test('RepositoryImportEvent: each status change is POSTed to the webhook URL, without the password', async ({ world }) => {
  const received: { event: string | undefined; body: { action: string; import: Record<string, unknown> } }[] = [];
  const hook = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      received.push({ event: req.headers['x-service-event'] as string | undefined, body: JSON.parse(text) });
      res.end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  const service = createReferenceService({ world, importWebhook: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook` });
  const token = world.tokens.find((t) => t.role === 'user-owner')!.value;
  const call = (method: 'PUT' | 'POST', url: string, payload: object) =>
    service.app.inject({ method, url, payload, headers: { 'user-agent': 't', authorization: `Bearer ${token}` } });
  try {
    await call('POST', '/_conformance/clock', { set: '2024-03-01T00:00:00Z' });
    await call('PUT', I, {
      vcs_url: 'https://git.example.org/private.git',
      vcs_username: 'importer',
      vcs_password: 'correct-horse-battery',
    });
    await call('POST', '/_conformance/clock', { advance_seconds: 600 });
    await service.webhooks.settled();
    expect(received.map((r) => r.body.action)).toEqual(['detecting', 'importing', 'mapping', 'pushing', 'complete']);
    expect(received.every((r) => r.event === 'repository_import')).toBe(true);
    // Each event shows the import as it was when its status changed, though the clock moved past it at once.
    expect(received[3].body.import).toMatchObject({ status: 'pushing', push_percent: 0 });
    expect(received[4].body).toMatchObject({
      import: { status: 'complete', commit_count: 30 },
      repository: { id: 1003, full_name: 'octocat/hello-world' },
    });
    expect(JSON.stringify(received)).not.toContain('correct-horse-battery');
  } finally {
    await service.close();
    hook.close();
  }
});
