// Variations of the contents area: other readings of what the spec leaves open
// (suites/variants/contents.yaml), each switched on here through the control API and shown
// beside the reference's default reading. Those on octo-org/assets, whose 100 MiB files
// take long to build, are in sizes.test.ts.
import { execFileSync } from 'node:child_process';
import { expect, expectErrorBody, test } from '../../service.fixture.js';

const CONTENTS = '/repos/octo-org/widgets/contents';
const README = '/repos/octo-org/widgets/readme';
const BLOBS = '/repos/octo-org/widgets/git/blobs';
const RAW = { accept: 'application/vnd.service.raw+json' };
const OBJECT = { accept: 'application/vnd.service.object+json' };
const HTML = { accept: 'application/vnd.service.html+json' };
const b64 = (text: string) => Buffer.from(text).toString('base64');
const gitHash = (bytes: Buffer | string) => execFileSync('git', ['hash-object', '--stdin'], { input: bytes, encoding: 'utf8' }).trim();
const bare = { headers: { 'user-agent': undefined, accept: undefined, 'x-service-api-version': undefined } };

test.describe('reading contents', () => {
  test('contents.listing-order: directories first, then files, case-insensitively; by default Git tree order', async ({ api }) => {
    const paths = async () => ((await api.get(CONTENTS)).json() as { path: string }[]).map((e) => e.path);
    expect((await paths()).slice(0, 3)).toEqual(['.github', '.gitmodules', 'README.md']);
    await api.vary('contents.listing-order');
    expect(await paths()).toEqual([
      '.github',
      'docs',
      'scripts',
      'src',
      'vendor',
      '.gitmodules',
      'link-to-readme',
      'logo.png',
      'outside-link',
      'README.md',
    ]);
    const docs = (await api.get(`${CONTENTS}/docs`, { headers: OBJECT })).json();
    expect(docs.entries.map((e: { path: string }) => e.path)).toEqual(['docs/guide.md', 'docs/README.md']);
  });

  test("contents.object-bare-entries: a directory's object is {entries} alone; by default its own entry with entries", async ({ api }) => {
    expect(Object.keys((await api.get(`${CONTENTS}/docs`, { headers: OBJECT })).json())).toEqual(
      expect.arrayContaining(['type', 'path', 'entries']),
    );
    await api.vary('contents.object-bare-entries');
    const docs = (await api.get(`${CONTENTS}/docs`, { headers: OBJECT })).json();
    expect(Object.keys(docs)).toEqual(['entries']);
    expect(docs.entries).toHaveLength(2);
  });

  test("contents.symlink-keeps-link-path: a link to a file answers the file's content under the link's path", async ({ api }) => {
    const readme = (await api.get(`${CONTENTS}/README.md`)).json();
    expect((await api.get(`${CONTENTS}/link-to-readme`)).json()).toMatchObject({ path: 'README.md', sha: readme.sha });
    await api.vary('contents.symlink-keeps-link-path');
    const link = (await api.get(`${CONTENTS}/link-to-readme`)).json();
    expect(link).toMatchObject({ type: 'file', path: 'link-to-readme', name: 'link-to-readme', sha: readme.sha, content: readme.content });
    expect((await api.get(`${CONTENTS}/link-to-readme`, { headers: RAW })).body).toBe(Buffer.from(readme.content, 'base64').toString());
  });

  test('contents.symlink-described-as-link: type link and link_target in the description; a listing keeps type symlink', async ({
    api,
  }) => {
    expect((await api.get(`${CONTENTS}/outside-link`)).json()).toMatchObject({ type: 'symlink', target: '../../etc/passwd' });
    await api.vary('contents.symlink-described-as-link');
    const link = (await api.get(`${CONTENTS}/outside-link`)).json();
    expect(link).toMatchObject({ type: 'link', link_target: '../../etc/passwd', path: 'outside-link' });
    expect(link.target).toBeUndefined();
    const listed = ((await api.get(CONTENTS)).json() as { path: string; type: string }[]).find((e) => e.path === 'outside-link');
    expect(listed?.type).toBe('symlink');
  });

  test('contents.raw-symlink-described: raw gives a link leaving the repository as its description, not its text', async ({ api }) => {
    expect((await api.get(`${CONTENTS}/outside-link`, { headers: RAW })).body).toBe('../../etc/passwd');
    await api.vary('contents.raw-symlink-described');
    const raw = await api.get(`${CONTENTS}/outside-link`, { headers: RAW });
    expect(raw.json()).toMatchObject({ type: 'symlink', target: '../../etc/passwd' });
    // A link to a file still yields the file's bytes.
    expect((await api.get(`${CONTENTS}/link-to-readme`, { headers: RAW })).body).toContain('# Widgets');
  });

  test('contents.submodule-typed-file: a submodule read on its own is typed file; by default submodule', async ({ api }) => {
    expect((await api.get(`${CONTENTS}/vendor/leftpad`)).json().type).toBe('submodule');
    await api.vary('contents.submodule-typed-file');
    expect((await api.get(`${CONTENTS}/vendor/leftpad`)).json()).toMatchObject({
      type: 'file',
      submodule_git_url: 'https://example.com/left/pad.git',
      git_url: null,
    });
  });

  test('contents.download-url-long-lived: a download_url serves seven days; by default five minutes', async ({ api }) => {
    const link = async () => new URL(String((await api.get(`${CONTENTS}/logo.png`)).json().download_url)).pathname;
    const fetched = async (path: string) => (await api.get(path, bare)).statusCode;
    const short = await link();
    await api.advance(5 * 60 + 1);
    expect(await fetched(short)).toBe(404);
    await api.vary('contents.download-url-long-lived');
    const day = await link();
    await api.advance(24 * 60 * 60);
    expect(await fetched(day)).toBe(200);
    expect(await fetched(day)).toBe(404);
    const week = await link();
    await api.advance(7 * 24 * 60 * 60 + 1);
    expect(await fetched(week)).toBe(404);
  });

  test('contents.html-vendor-type: the html type answered as application/vnd.service.html+json, still HTML', async ({ api }) => {
    expect((await api.get(`${CONTENTS}/docs/guide.md`, { headers: HTML })).headers['content-type']).toBe('text/html; charset=utf-8');
    await api.vary('contents.html-vendor-type');
    for (const url of [`${CONTENTS}/docs/guide.md`, README]) {
      const html = await api.get(url, { headers: HTML });
      expect(html.headers['content-type']).toBe('application/vnd.service.html+json; charset=utf-8');
      expect(html.body).toMatch(/<h[12]>/);
    }
  });

  test('contents.html-heading-anchors: each heading holds an anchor named after it; by default plain headings', async ({ api }) => {
    expect((await api.get(`${CONTENTS}/docs/guide.md`, { headers: HTML })).body).toContain('<h2>Guide</h2>');
    await api.vary('contents.html-heading-anchors');
    expect((await api.get(`${CONTENTS}/docs/guide.md`, { headers: HTML })).body).toContain(
      '<h2><a id="user-content-guide" class="anchor" aria-hidden="true" href="#guide"></a>Guide</h2>',
    );
    expect((await api.get(README, { headers: HTML })).body).toContain(
      '<h1><a id="user-content-widgets" class="anchor" aria-hidden="true" href="#widgets"></a>Widgets</h1>',
    );
  });

  test('contents.public-read-any-token: a token without Contents reads public data, never private', async ({ api }) => {
    expect((await api.get(`${CONTENTS}/README.md`, { as: 'fine-grained-metadata-only' })).statusCode).toBe(403);
    await api.vary('contents.public-read-any-token');
    for (const role of ['fine-grained-metadata-only', 'app-installation', 'workflow'])
      expect((await api.get(`${CONTENTS}/README.md`, { as: role })).statusCode, role).toBe(200);
    expect(
      (await api.get(`${BLOBS}/${gitHash('# Widgets\n\nWidgets that do not wobble.\n')}`, { as: 'app-installation' })).statusCode,
    ).toBe(200);
    expect((await api.get('/repos/octo-org/vault/contents/KEYS.md', { as: 'fine-grained-metadata-only' })).statusCode).toBe(403);
  });
});

test.describe('README', () => {
  test("readme.default-raw: the service's default type yields the README's bytes; by default its Content entry", async ({ api }) => {
    expect((await api.get(README)).json()).toMatchObject({ type: 'file', path: 'README.md' });
    await api.vary('readme.default-raw');
    const readme = await api.get(README);
    expect(readme.headers['content-type']).toBe('application/vnd.service.raw');
    expect(readme.body).toBe((await api.get(README, { headers: RAW })).body);
    expect((await api.get(`${README}/docs`)).body).toBe('# Widget docs\n\nSee [the guide](guide.md).\n');
  });

  test('readme.dir-file-404: dir naming a file is 404; by default 422', async ({ api }) => {
    expectErrorBody(await api.get(`${README}/logo.png`), 422);
    await api.vary('readme.dir-file-404');
    expectErrorBody(await api.get(`${README}/logo.png`), 404);
    expect((await api.get(`${README}/docs`)).statusCode).toBe(200);
  });
});

test.describe('Git blobs', () => {
  test('git.blob-default-base64: content without encoding is Base64; by default UTF-8 text', async ({ api }) => {
    const create = (body: object) => api.call('POST', BLOBS, { as: 'repo-writer', body });
    expect((await create({ content: 'hello\n' })).json().sha).toBe(gitHash('hello\n'));
    await api.vary('git.blob-default-base64');
    expectErrorBody(await create({ content: 'hello\n' }), 422);
    expect((await create({ content: b64('hello\n') })).json().sha).toBe(gitHash('hello\n'));
    expect((await create({ content: 'hello\n', encoding: 'utf-8' })).json().sha).toBe(gitHash('hello\n'));
  });

  test('git.blob-base64-lenient: base64 content that is not Base64 is decoded as Node decodes it; by default 422', async ({ api }) => {
    const body = { content: 'aGVs*bG8K', encoding: 'base64' };
    expectErrorBody(await api.call('POST', BLOBS, { as: 'repo-writer', body }), 422);
    await api.vary('git.blob-base64-lenient');
    const created = await api.call('POST', BLOBS, { as: 'repo-writer', body });
    expect(created.statusCode).toBe(201);
    expect(created.json().sha).toBe(gitHash(Buffer.from('aGVs*bG8K', 'base64')));
  });

  test('git.blob-empty-repository-writable: blobs are created and read in a repository with no commits; by default 409', async ({
    api,
  }) => {
    const blobs = '/repos/octo-org/empty/git/blobs';
    expectErrorBody(await api.call('POST', blobs, { as: 'repo-admin', body: { content: 'x' } }), 409);
    await api.vary('git.blob-empty-repository-writable');
    const created = await api.call('POST', blobs, { as: 'repo-admin', body: { content: 'x' } });
    expect(created.statusCode).toBe(201);
    expect((await api.get(`${blobs}/${created.json().sha}`, { as: 'repo-admin', headers: RAW })).body).toBe('x');
    expectErrorBody(await api.get(`${blobs}/${'a'.repeat(40)}`, { as: 'repo-admin' }), 404);
  });

  test('git.blob-malformed-sha-404: a file_sha that is not one is 404; by default 422', async ({ api }) => {
    expectErrorBody(await api.get(`${BLOBS}/not-a-sha`), 422);
    await api.vary('git.blob-malformed-sha-404');
    expectErrorBody(await api.get(`${BLOBS}/not-a-sha`), 404);
  });
});

test.describe('writing files', () => {
  const FILE = `${CONTENTS}/README.md`;

  test('contents.missing-sha-409: updating without sha is 409; by default 422', async ({ api }) => {
    const body = { message: 'm', content: b64('lost\n') };
    expectErrorBody(await api.call('PUT', FILE, { as: 'repo-writer', body }), 422);
    await api.vary('contents.missing-sha-409');
    expectErrorBody(await api.call('PUT', FILE, { as: 'repo-writer', body }), 409);
    // Creating a file needs no sha either way.
    expect((await api.call('PUT', `${CONTENTS}/notes/new.md`, { as: 'repo-writer', body })).statusCode).toBe(201);
  });

  test('contents.writes-queued: concurrent writes wait their turn, then the stale ones are 422; a stale sha is 422', async ({ api }) => {
    const sha = (await api.get(FILE)).json().sha;
    await api.vary('contents.writes-queued');
    const writes = await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        api.call('PUT', FILE, { as: 'repo-writer', body: { message: `w${i}`, content: b64(`write ${i}\n`), sha } }),
      ),
    );
    const statuses = writes.map((w) => w.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(4);
    const winner = statuses.indexOf(200) + 1;
    expect((await api.get(FILE, { headers: RAW })).body).toBe(`write ${winner}\n`);
    // Sequential writes on the branch as each left it go on.
    const now = (await api.get(FILE)).json().sha;
    expect(
      (await api.call('PUT', FILE, { as: 'repo-writer', body: { message: 'next', content: b64('next\n'), sha: now } })).statusCode,
    ).toBe(200);
    expectErrorBody(await api.call('DELETE', FILE, { as: 'repo-writer', body: { message: 'm', sha } }), 422);
  });

  test('contents.storage-retried: one storage failure is retried, two are 503; by default one is 503', async ({ api, service }) => {
    const fail = (storage: number) => service.app.inject({ method: 'POST', url: '/_conformance/failures', payload: { storage } });
    const sha = (await api.get(FILE)).json().sha;
    await fail(1);
    expectErrorBody(await api.call('DELETE', FILE, { as: 'repo-writer', body: { message: 'm', sha } }), 503);
    await api.vary('contents.storage-retried');
    await fail(2);
    expectErrorBody(await api.call('DELETE', FILE, { as: 'repo-writer', body: { message: 'm', sha } }), 503);
    expect((await api.get(FILE)).json().sha).toBe(sha);
    await fail(1);
    expect((await api.call('DELETE', FILE, { as: 'repo-writer', body: { message: 'm', sha } })).statusCode).toBe(200);
  });

  test('contents.public-repo-scope-refused: public_repo writes no public repository; by default it does', async ({ api }) => {
    const as = 'admin-public-repo-scope';
    const put = (path: string) => api.call('PUT', `${CONTENTS}/${path}`, { as, body: { message: 'm', content: b64('x\n') } });
    expect((await put('notes/one.md')).statusCode).toBe(201);
    expect((await api.call('POST', BLOBS, { as, body: { content: 'x' } })).statusCode).toBe(201);
    await api.vary('contents.public-repo-scope-refused');
    expectErrorBody(await put('notes/two.md'), 403);
    expectErrorBody(await api.call('POST', BLOBS, { as, body: { content: 'x' } }), 403);
    expect((await api.call('POST', BLOBS, { as: 'repo-writer', body: { content: 'x' } })).statusCode).toBe(201);
  });

  test('contents.denied-as-404: a caller refused contents gets 404; by default 403', async ({ api }) => {
    const put = () => api.call('PUT', `${CONTENTS}/notes/x.md`, { as: 'repo-reader', body: { message: 'm', content: b64('x\n') } });
    expectErrorBody(await put(), 403);
    expectErrorBody(await api.get(`${CONTENTS}/README.md`, { as: 'fine-grained-metadata-only' }), 403);
    await api.vary('contents.denied-as-404');
    expectErrorBody(await put(), 404);
    expectErrorBody(await api.get(`${CONTENTS}/README.md`, { as: 'fine-grained-metadata-only' }), 404);
    // A workflow file without the further need too; the right caller still writes.
    const workflow = `${CONTENTS}/.github/workflows/x.yml`;
    expectErrorBody(await api.call('PUT', workflow, { as: 'repo-writer', body: { message: 'm', content: b64('x\n') } }), 404);
    expect((await api.call('PUT', workflow, { as: 'repo-writer-workflow', body: { message: 'm', content: b64('x\n') } })).statusCode).toBe(
      201,
    );
    expect((await api.call('PUT', `${CONTENTS}/notes/y.md`, { body: { message: 'm', content: b64('x\n') } })).statusCode).toBe(401);
  });
});
