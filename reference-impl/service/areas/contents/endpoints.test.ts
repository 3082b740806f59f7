import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

test.describe('contents', () => {
  const CONTENTS = '/repos/octo-org/widgets/contents';
  const OBJECT = { accept: 'application/vnd.service.object+json' };
  type Entry = { type: string; name: string; path: string; sha: string; size: number; content?: string; [key: string]: unknown };

  test('the root lists every entry with its type; a submodule in a listing is typed file', async ({ api }) => {
    const root = await api.get(CONTENTS);
    expect(root.statusCode).toBe(200);
    const entries = root.json() as Entry[];
    expect(entries.map((e) => `${e.type} ${e.path}`)).toEqual([
      'dir .github',
      'file .gitmodules',
      'file README.md',
      'dir docs',
      'symlink link-to-readme',
      'file logo.png',
      'symlink outside-link',
      'dir scripts',
      'dir src',
      'dir vendor',
    ]);
    expect(entries.every((e) => e.content === undefined)).toBe(true);
    const vendor = (await api.get(`${CONTENTS}/vendor`)).json() as Entry[];
    expect(vendor.map((e) => `${e.type} ${e.path}`)).toEqual(['file vendor/leftpad']);
  });

  test('a file: Base64 content, size, and the sha git gives its bytes; raw gives the bytes', async ({ api }) => {
    const readme = '# Widgets\n\nWidgets that do not wobble.\n\n## Build\n\nRun `scripts/build.sh`.\n';
    const file = (await api.get(`${CONTENTS}/README.md`)).json() as Entry;
    expect(file).toMatchObject({
      type: 'file',
      encoding: 'base64',
      name: 'README.md',
      path: 'README.md',
      size: readme.length,
      sha: gitHash(readme),
    });
    expect(Buffer.from(file.content ?? '', 'base64').toString()).toBe(readme);
    expect(file.url).toBe('http://localhost/repos/octo-org/widgets/contents/README.md?ref=main');
    expect((await api.get(`${CONTENTS}/README.md`, { headers: RAW })).body).toBe(readme);
    expect((await api.get(`${CONTENTS}/docs/guide.md`)).json()).toMatchObject({ path: 'docs/guide.md', name: 'guide.md' });
  });

  test('ref selects a tag, a branch or a commit; an unknown ref is 404', async ({ api, world }) => {
    const atTag = (await api.get(`${CONTENTS}/README.md?ref=v1.0`)).json() as Entry;
    expect(Buffer.from(atTag.content ?? '', 'base64').toString()).toBe('# Widgets\n\nWidgets that do not wobble.\n');
    expect((await api.get(`${CONTENTS}/src/damper.ts?ref=experiment`)).statusCode).toBe(200);
    expect((await api.get(`${CONTENTS}/src/damper.ts`)).statusCode).toBe(404);
    const first = (await worldRepository(world, world.repositories.find((r) => r.name === 'widgets')!))!.commits.get('first')!;
    expect((await api.get(`${CONTENTS}/link-to-readme?ref=${first}`)).statusCode).toBe(404);
    expectErrorBody(await api.get(`${CONTENTS}/README.md?ref=nowhere`), 404, 'No commit found for the ref nowhere');
  });

  test('a symlink to a file yields the file; one leaving the repository is described; a submodule names its URL', async ({ api }) => {
    expect((await api.get(`${CONTENTS}/link-to-readme`)).json()).toMatchObject({ type: 'file', path: 'README.md' });
    const outside = (await api.get(`${CONTENTS}/outside-link`)).json() as Entry;
    expect(outside).toMatchObject({ type: 'symlink', target: '../../etc/passwd', path: 'outside-link', size: 16 });
    const submodule = (await api.get(`${CONTENTS}/vendor/leftpad`)).json() as Entry;
    expect(submodule).toMatchObject({
      type: 'submodule',
      submodule_git_url: 'https://example.com/left/pad.git',
      sha: '1e3b4c0d5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c',
      git_url: null,
      html_url: null,
      download_url: null,
    });
    expect(submodule._links).toEqual({ self: submodule.url, git: null, html: null });
  });

  test('the html media type renders Markdown, and escapes other files', async ({ api }) => {
    const html = { accept: 'application/vnd.service.html+json' };
    const guide = await api.get(`${CONTENTS}/docs/guide.md`, { headers: html });
    expect(guide.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(guide.body).toContain('<h2>Guide</h2>');
    expect((await api.get(`${CONTENTS}/src/widget.ts`, { headers: html })).body).toContain(
      '<pre>export const widget = () =&#62; &#39;steady&#39;;',
    );
  });

  test('the object media type wraps a listing in the directory entry', async ({ api }) => {
    const docs = (await api.get(`${CONTENTS}/docs`, { headers: OBJECT })).json() as Entry & { entries: Entry[] };
    expect(docs).toMatchObject({ type: 'dir', path: 'docs', name: 'docs' });
    expect(docs.entries.map((e) => e.path)).toEqual(['docs/README.md', 'docs/guide.md']);
  });

  test('download_url serves the bytes once, without credentials or API headers', async ({ api }) => {
    const file = (await api.get(`${CONTENTS}/logo.png`)).json() as Entry;
    const link = new URL(String(file.download_url)).pathname;
    const download = await api.get(link, { headers: { 'user-agent': undefined, accept: undefined, 'x-service-api-version': undefined } });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.toString('base64')).toBe(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    );
    expect((await api.get(link)).statusCode).toBe(404);
  });

  test('the ETag is the same at each read although each read gets a fresh download link; If-None-Match gets 304', async ({ api }) => {
    const first = await api.get(`${CONTENTS}/README.md`);
    const second = await api.get(`${CONTENTS}/README.md`);
    expect(second.json().download_url).not.toBe(first.json().download_url);
    expect(second.headers.etag).toBe(first.headers.etag);
    const again = await api.get(`${CONTENTS}/README.md`, { headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect((await api.get(`${CONTENTS}/README.md?ref=v1.0`)).headers.etag).not.toBe(first.headers.etag);
  });

  test('nothing there, an empty repository, and paths that only look like the endpoint are 404', async ({ api }) => {
    expectErrorBody(await api.get(`${CONTENTS}/no/such/file`), 404);
    expectErrorBody(await api.get(`${CONTENTS}/README.md/deeper`), 404);
    expectErrorBody(await api.get('/repos/octo-org/empty/contents', { as: 'repo-admin' }), 404, 'This repository is empty.');
    expectErrorBody(await api.get('/repos/octo-org/widgets/contentsX'), 404);
  });
});

test.describe('readme', () => {
  const README = '/repos/octo-org/widgets/readme';
  const HTML = { accept: 'application/vnd.service.html+json' };

  test("the root's README as a Content entry, its raw bytes, and its HTML rendering", async ({ api }) => {
    const entry = (await api.get(README)).json();
    expect(entry).toMatchObject({ type: 'file', path: 'README.md', encoding: 'base64' });
    expect((await api.get(README, { headers: RAW })).body).toContain('Widgets that do not wobble.');
    const html = await api.get(README, { headers: HTML });
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.body).toContain('<h1>Widgets</h1>');
    expect(html.body).toContain('<code>scripts/build.sh</code>');
    expect(html.body).toMatch(/^<div id="readme"><article class="markdown-body">/);
  });

  test('a directory README, at a ref; a directory without one is 404, a file given as dir 422', async ({ api }) => {
    expect((await api.get(`${README}/docs`)).json()).toMatchObject({ path: 'docs/README.md' });
    expect((await api.get(`${README}/docs`, { headers: HTML })).body).toContain('<a href="guide.md">the guide</a>');
    expect((await api.get(`${README}?ref=v1.0`, { headers: RAW })).body).toBe('# Widgets\n\nWidgets that do not wobble.\n');
    expectErrorBody(await api.get(`${README}/src`), 404);
    expectErrorBody(await api.get(`${README}/no-such-dir`), 404);
    expectErrorBody(await api.get(`${README}/logo.png`), 422);
    expectErrorBody(await api.get('/repos/octo-org/empty/readme', { as: 'repo-admin' }), 404);
  });
});

test.describe('tarball', () => {
  const TARBALL = '/repos/octo-org/widgets/tarball';

  test('git is the judge: every file of the unpacked archive hashes, by git hash-object, to its sha in the contents and blobs APIs', async ({
    api,
  }) => {
    const redirect = await api.get(`${TARBALL}/main`);
    expect(redirect.statusCode).toBe(302);
    const location = new URL(String(redirect.headers.location));
    const archive = await api.get(location.pathname, { headers: { 'user-agent': undefined, accept: undefined } });
    expect(archive.statusCode).toBe(200);
    expect(archive.headers['content-type']).toBe('application/x-gzip');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-tarball-'));
    try {
      execFileSync('tar', ['-xzf', '-', '-C', dir], { input: archive.rawPayload });
      const [top] = readdirSync(dir);
      expect(top).toMatch(/^octo-org-widgets-[0-9a-f]{7}$/);
      const files = execFileSync('find', ['.', '-type', 'f'], { cwd: path.join(dir, top), encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((f) => f.slice(2))
        .sort();
      expect(files).toEqual([
        '.github/workflows/ci.yml',
        '.gitmodules',
        'README.md',
        'docs/README.md',
        'docs/guide.md',
        'logo.png',
        'scripts/build.sh',
        'src/widget.ts',
      ]);
      for (const file of files) {
        const sha = execFileSync('git', ['hash-object', file], { cwd: path.join(dir, top), encoding: 'utf8' }).trim();
        expect((await api.get(`/repos/octo-org/widgets/contents/${file}`)).json().sha, file).toBe(sha);
        expect((await api.get(`${BLOBS}/${sha}`)).statusCode, file).toBe(200);
      }
      expect(readlinkSync(path.join(dir, top, 'link-to-readme'))).toBe('README.md');
      expect(statSync(path.join(dir, top, 'scripts/build.sh')).mode & 0o111).not.toBe(0);
      expect(readdirSync(path.join(dir, top, 'vendor/leftpad'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect((await api.get(location.pathname)).statusCode).toBe(404);
  });

  test('links of a private repository expire after five minutes of the clock; an unknown ref is 404', async ({ api }) => {
    const redirect = await api.get('/repos/octo-org/vault/tarball/main', { as: 'repo-admin' });
    expect(redirect.statusCode).toBe(302);
    await api.advance(5 * 60 + 1);
    expect((await api.get(new URL(String(redirect.headers.location)).pathname)).statusCode).toBe(404);
    expectErrorBody(await api.get(`${TARBALL}/nowhere`), 404);
  });
});
