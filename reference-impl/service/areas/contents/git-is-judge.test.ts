// git judges what the contents area serves: every file of the tarball, unpacked by tar, has
// the id `git hash-object` gives it, which the contents API and the blobs API serve; and a
// repository changed through the API, exported with its branch, passes `git fsck`.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportReachable } from '../../../../test-support/git-export.js';
import { processObjectStore } from '../../git/world-git.js';
import { expect, test, type Api } from '../../service.fixture.js';

const REPO = '/repos/octo-org/widgets';
const RAW = { accept: 'application/vnd.service.raw+json' };
const hashObject = (args: string[], input?: string) => execFileSync('git', ['hash-object', ...args], { input, encoding: 'utf8' }).trim();

/** Every path below `dir` that is not a directory, relative to it. */
function walk(dir: string, prefix = ''): string[] {
  return readdirSync(path.join(dir, prefix)).flatMap((name) => {
    const relative = prefix === '' ? name : `${prefix}/${name}`;
    const stat = lstatSync(path.join(dir, relative));
    return stat.isDirectory() ? walk(dir, relative) : [relative];
  });
}

type Entry = { path: string; type: string; sha: string; git_url: string | null };

/** What the contents API lists, recursively: path → entry (submodules are typed file in listings). */
async function listed(api: Api, dir = ''): Promise<Map<string, Entry>> {
  const entries = (await api.get(`${REPO}/contents/${dir}`)).json() as Entry[];
  const all = new Map<string, Entry>();
  for (const entry of entries) {
    if (entry.type === 'dir') for (const [p, e] of await listed(api, entry.path)) all.set(p, e);
    else all.set(entry.path, entry);
  }
  return all;
}

test('every file of the tarball hashes, by git, to the sha the contents API lists and the blob the blobs API serves', async ({ api }) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-tarball-'));
  try {
    const redirect = await api.get(`${REPO}/tarball/main`);
    expect(redirect.statusCode).toBe(302);
    const archive = await api.get(new URL(redirect.headers.location as string).pathname);
    writeFileSync(path.join(dir, 'archive.tar.gz'), archive.rawPayload);
    mkdirSync(path.join(dir, 'tree'));
    execFileSync('tar', ['-xzf', path.join(dir, 'archive.tar.gz'), '-C', path.join(dir, 'tree'), '--strip-components=1']);
    const root = path.join(dir, 'tree');
    const unpacked = walk(root).sort();
    const byApi = await listed(api);
    // The tarball holds every file the API lists but submodules (a submodule's git_url is not a
    // blob's), which git archive leaves as empty folders.
    const files = [...byApi.values()].filter((e) => e.git_url?.includes('/git/blobs/')).map((e) => e.path);
    expect(unpacked).toEqual(files.sort());
    expect(unpacked.length).toBeGreaterThan(8);
    for (const file of unpacked) {
      const full = path.join(root, file);
      const link = lstatSync(full).isSymbolicLink();
      // A symlink's blob is its target's text.
      const sha = link ? hashObject(['--stdin'], readlinkSync(full)) : hashObject([full]);
      expect(byApi.get(file)?.sha, file).toBe(sha);
      const blob = await api.get(`${REPO}/git/blobs/${sha}`, { headers: RAW });
      expect(blob.statusCode, file).toBe(200);
      expect(blob.rawPayload.equals(link ? Buffer.from(readlinkSync(full)) : readFileSync(full)), file).toBe(true);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a repository written through the API, exported with its branch, passes git fsck and git reads the same files', async ({ api }) => {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  let last = '';
  for (const [file, text] of [
    ['notes/a.md', 'a\n'],
    ['notes/deep/b.md', 'b\n'],
    ['src/widget.ts', 'export const widget = () => "still";\n'],
  ]) {
    const current = await api.get(`${REPO}/contents/${file}`);
    const sha = current.statusCode === 200 ? current.json().sha : undefined;
    const put = await api.call('PUT', `${REPO}/contents/${file}`, {
      as: 'repo-writer',
      body: { message: `Write ${file}`, content: b64(text), sha },
    });
    expect(put.statusCode, file).toBe(sha ? 200 : 201);
    last = put.json().commit.sha;
  }
  const readme = (await api.get(`${REPO}/contents/README.md`)).json().sha;
  last = (await api.call('DELETE', `${REPO}/contents/README.md`, { as: 'repo-writer', body: { message: 'Drop', sha: readme } })).json()
    .commit.sha;

  // A bare repository holding the objects the last commit reaches, its main that commit.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-export-'));
  try {
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8' });
    execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', dir]);
    await exportReachable(await processObjectStore(), [last], dir);
    git('update-ref', 'refs/heads/main', last);
    expect(() => git('fsck', '--full', '--strict', '--no-dangling')).not.toThrow();
    expect(git('rev-list', '--count', 'main').trim()).toBe('6');
    expect(git('show', 'main:notes/deep/b.md')).toBe('b\n');
    expect(git('ls-tree', '--name-only', 'main').split('\n')).not.toContain('README.md');
    const raw = await api.get(`${REPO}/contents/src/widget.ts`, { headers: RAW });
    expect(git('show', 'main:src/widget.ts')).toBe(raw.rawPayload.toString());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
