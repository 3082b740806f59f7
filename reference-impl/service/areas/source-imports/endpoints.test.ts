// Endpoints 28–32 of spec 2: source imports into octocat/hello-world (octocat's classic
// token), on the service clock set before the retirement (2024-04-12T00:00Z). The world's
// sources: svn.example.org/widgets/trunk (subversion, 240 commits, 3 authors, large files),
// tfs.example.org/DefaultCollection (two tfvc projects), git.example.org/private.git (needs
// importer / correct-horse-battery), hg.example.org/broken (fails at pushing).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReferenceService } from '../../service.js';
import { type Api, expect, expectErrorBody, test } from '../../service.fixture.js';

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
  // Any id JSON carries exactly: 2^53 - 1 names no author; 2^53 is beyond what an id can be.
  expect((await api.get(`${I}/authors?since=9007199254740991`, as)).json()).toEqual([]);
  expectErrorBody(await api.get(`${I}/authors?since=9007199254740992`, as), 422);
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

// Variations: other readings of what the spec leaves open (suites/variants/source-imports.yaml).
// Each is off by default (the tests above) and switched on here through the control API.
const statusOf = async (api: Api) => (await api.get(I, as)).json();

test.describe('variations', () => {
  test('imports.other-tokens-401: a token of another kind than classic gets 401, a classic one is served as before', async ({ api }) => {
    await api.call('POST', '/_conformance/clock', { body: { set: '2024-03-01T00:00:00Z' } });
    await api.vary('imports.other-tokens-401');
    for (const role of ['oauth-admin', 'fine-grained-admin', 'app-installation'])
      expectErrorBody(
        await api.call('PUT', '/repos/octo-org/empty/import', { as: role, body: { vcs_url: SVN } }),
        401,
        /classic tokens only/,
      );
    expect((await api.call('PUT', '/repos/octo-org/empty/import', { as: 'repo-admin', body: { vcs_url: SVN } })).statusCode).toBe(201);
  });

  test('imports.phase-durations-other: detecting 150 s, importing 90 s, mapping 240 s, pushing 30 s', async ({ api }) => {
    await api.vary('imports.phase-durations-other');
    await api.call('PUT', I, { ...as, body: { vcs_url: SVN } });
    await api.advance(149);
    expect((await statusOf(api)).status).toBe('detecting');
    await api.advance(1);
    expect(await statusOf(api)).toMatchObject({ status: 'importing', percent: 0 });
    await api.advance(45);
    expect(await statusOf(api)).toMatchObject({ status: 'importing', percent: 50, commit_count: 120 });
    await api.advance(45);
    expect((await statusOf(api)).status).toBe('mapping');
    await api.advance(239);
    expect((await statusOf(api)).status).toBe('mapping');
    await api.advance(1);
    expect(await statusOf(api)).toMatchObject({ status: 'pushing', push_percent: 0 });
    await api.advance(30);
    expect((await statusOf(api)).status).toBe('complete');
  });

  test('imports.progress-during-phase-only: commit_count and percent while importing, push_percent while pushing, none after', async ({
    api,
  }) => {
    await api.vary('imports.progress-during-phase-only');
    const started = (await api.call('PUT', I, { ...as, body: { vcs_url: SVN, vcs: 'subversion' } })).json();
    expect(started).toMatchObject({ status: 'importing', percent: 0, commit_count: 0 });
    await api.advance(390);
    const pushing = await statusOf(api);
    expect(pushing).toMatchObject({ status: 'pushing', push_percent: 25 });
    expect(pushing.commit_count).toBeUndefined();
    await api.advance(90);
    const complete = await statusOf(api);
    expect(complete.status).toBe('complete');
    for (const field of ['commit_count', 'percent', 'push_percent']) expect(complete[field], field).toBeUndefined();
  });

  test('imports.failed-step-verbs and imports.error-message-key-message: failed_step push, the text under message', async ({ api }) => {
    await api.call('PUT', I, { ...as, body: { vcs_url: 'https://hg.example.org/broken', vcs: 'mercurial' } });
    await api.advance(360);
    await api.vary('imports.failed-step-verbs');
    expect(await statusOf(api)).toMatchObject({ status: 'error', failed_step: 'push', error_message: 'the repository refused a ref' });
    await api.vary('imports.error-message-key-message');
    const failed = await statusOf(api);
    expect(failed).toMatchObject({ status: 'error', failed_step: 'pushing', message: 'the repository refused a ref' });
    expect(failed.error_message).toBeUndefined();
  });

  test('imports.restart-from-error-refused: a failed import is not restarted (422) and stays in error; others still restart', async ({
    api,
  }) => {
    await api.vary('imports.restart-from-error-refused');
    await api.call('PUT', I, { ...as, body: { vcs_url: 'https://hg.example.org/broken', vcs: 'mercurial' } });
    await api.advance(360);
    expectErrorBody(await api.call('PATCH', I, { ...as, body: {} }), 422, /cannot be restarted/);
    expectErrorBody(await api.call('PATCH', I, { ...as, body: { vcs: 'git' } }), 422);
    expect(await statusOf(api)).toMatchObject({ status: 'error', failed_step: 'pushing', vcs: 'mercurial' });
    await api.call('DELETE', I, as);
    await api.call('PUT', I, { ...as, body: { vcs_url: SVN, vcs: 'subversion' } });
    await api.advance(86400);
    expect((await api.call('PATCH', I, { ...as, body: {} })).json().status).toBe('importing');
  });

  test('imports.unlisted-choice-accepted: a project not offered is taken and the import goes on with it', async ({ api }) => {
    await api.vary('imports.unlisted-choice-accepted');
    await api.call('PUT', I, { ...as, body: { vcs_url: 'https://tfs.example.org/DefaultCollection' } });
    await api.advance(60);
    const chosen = await api.call('PATCH', I, { ...as, body: { vcs: 'tfvc', tfvc_project: 'Gamma', human_name: 'Gamma' } });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json()).toMatchObject({ status: 'importing', vcs: 'tfvc', tfvc_project: 'Gamma' });
  });

  test('imports.project-choices-reversed: Beta before Alpha', async ({ api }) => {
    await api.vary('imports.project-choices-reversed');
    await api.call('PUT', I, { ...as, body: { vcs_url: 'https://tfs.example.org/DefaultCollection' } });
    await api.advance(60);
    expect((await statusOf(api)).project_choices.map((c: { tfvc_project: string }) => c.tfvc_project)).toEqual(['Beta', 'Alpha']);
  });

  test('imports.authors-wrapped: {total_count, authors}, since still applied', async ({ api }) => {
    await api.vary('imports.authors-wrapped');
    await api.call('PUT', I, { ...as, body: { vcs_url: SVN, vcs: 'subversion' } });
    await api.advance(86400);
    const all = (await api.get(`${I}/authors`, as)).json();
    expect(all.total_count).toBe(3);
    expect(all.authors.map((a: { name: string }) => a.name)).toEqual(['Ada Lovelace', 'Charles Babbage', 'grace']);
    expect((await api.get(`${I}/authors?since=2`, as)).json()).toMatchObject({ total_count: 1, authors: [{ id: 3, name: 'grace' }] });
  });
});
