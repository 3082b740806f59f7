// Byte checks as a download, a raw file and an archive are judged: each rule passes on the
// right bytes and fails, naming what differs, on the wrong ones.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { zipSync } from 'fflate';
import { ConformanceFailure } from '../core/errors.js';
import type { BytesExpectation } from '../core/suite-format.js';
import { checkBytes, gitBlobSha, readTar, readZip } from './body-bytes.js';

const hello = Buffer.from('hello\n');
const failureOf = async (body: Buffer, expectation: BytesExpectation) => {
  try {
    await checkBytes(body, expectation, 'test.must');
  } catch (error) {
    if (error instanceof ConformanceFailure) return `${error.expected} | ${error.actual}`;
    throw error;
  }
  return undefined;
};

/** A tar.gz written by `git archive` (a pax global header first, then the tree) of a repository with a symlink. */
function gitArchive(): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-archive-'));
  try {
    writeFileSync(path.join(dir, 'README.md'), hello);
    mkdirSync(path.join(dir, 'docs'));
    writeFileSync(path.join(dir, 'docs', 'guide.md'), 'guide\n');
    symlinkSync('README.md', path.join(dir, 'link'));
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', '-c', 'init.defaultBranch=main', ...args], { cwd: dir });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'c');
    return git('archive', '--format=tar.gz', '--prefix=repo-abc/', 'HEAD');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("Git's blob SHA is SHA-1 over `blob <size>\\0` and the bytes (the value git hash-object gives)", () => {
  expect(gitBlobSha(hello)).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  expect(gitBlobSha(Buffer.alloc(0))).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
});

test('size, SHA-256 (hex or sha256:hex), Git blob SHA, text and a pattern hold on the right bytes and name the difference on others', async () => {
  const sha = createHash('sha256').update(hello).digest('hex');
  const right: BytesExpectation = {
    size: 6,
    sha256: `sha256:${sha}`,
    git_blob_sha: 'ce013625030ba8dba906f756967f9e9ca394464a',
    text: 'hello\n',
    matches: '^hel+o',
  };
  expect(await failureOf(hello, right)).toBeUndefined();
  expect(await failureOf(hello, { size: '6', sha256: sha.toUpperCase() })).toBeUndefined();
  expect(await failureOf(hello, { size: 7 })).toBe('a body of 7 bytes | a body of 6 bytes');
  expect(await failureOf(hello, { sha256: '0'.repeat(64) })).toBe(`a body with SHA-256 ${'0'.repeat(64)} | a body with SHA-256 ${sha}`);
  expect(await failureOf(hello, { git_blob_sha: 'f'.repeat(40) })).toContain('with Git blob SHA ce013625030ba8dba906f756967f9e9ca394464a');
  expect(await failureOf(hello, { text: 'hello' })).toBe('a body reading "hello" | a body reading "hello\\n"');
  expect(await failureOf(hello, { matches: '^bye' })).toBe('a body matching /^bye/ | a body reading "hello\\n"');
});

test('zip entries: count, path, type, size and digests; a missing entry lists what the archive holds', async () => {
  const zip = Buffer.from(zipSync({ 'dir/': new Uint8Array(0), 'dir/a.txt': new Uint8Array(hello), 'b.bin': new Uint8Array([0, 255]) }));
  expect(readZip(zip).map(({ path, type, size }) => [path, type, size])).toEqual([
    ['dir', 'directory', 0],
    ['dir/a.txt', 'file', 6],
    ['b.bin', 'file', 2],
  ]);
  const archive = {
    format: 'zip' as const,
    count: 3,
    entries: [
      { path: 'dir/', type: 'directory' as const },
      { path: 'dir/a.txt', size: 6 },
    ],
  };
  expect(await failureOf(zip, { archive })).toBeUndefined();
  expect(await failureOf(zip, { archive: { format: 'zip', count: 2 } })).toBe(
    'an archive of 2 entries | an archive of 3 entries (dir, dir/a.txt, b.bin)',
  );
  expect(await failureOf(zip, { archive: { format: 'zip', entries: [{ path: 'c.txt' }] } })).toBe(
    'an archive entry c.txt | an archive without it (dir, dir/a.txt, b.bin)',
  );
  expect(await failureOf(zip, { archive: { format: 'zip', entries: [{ path: 'dir/a.txt', git_blob_sha: '0'.repeat(40) }] } })).toContain(
    'archive entry dir/a.txt with Git blob SHA 0000000000000000000000000000000000000000 | archive entry dir/a.txt with Git blob SHA ce0136',
  );
  expect(await failureOf(zip, { archive: { format: 'zip', entries: [{ path: 'b.bin', type: 'directory' }] } })).toBe(
    'archive entry b.bin of type directory | archive entry b.bin of type file',
  );
});

test('tar.gz entries (as git archive writes them) include symlinks with their targets; the pax header is not an entry', async () => {
  const body = gitArchive();
  expect((await readTar(body, true)).map(({ path, type, target }) => [path, type, target])).toEqual([
    ['repo-abc', 'directory', undefined],
    ['repo-abc/README.md', 'file', undefined],
    ['repo-abc/docs', 'directory', undefined],
    ['repo-abc/docs/guide.md', 'file', undefined],
    ['repo-abc/link', 'symlink', 'README.md'],
  ]);
  const entries = [
    { path: 'repo-abc/README.md', git_blob_sha: 'ce013625030ba8dba906f756967f9e9ca394464a' },
    { path: 'repo-abc/link', type: 'symlink' as const, target: 'README.md' },
  ];
  expect(await failureOf(body, { archive: { format: 'tar.gz', count: 5, entries } })).toBeUndefined();
  // strip: 1 matches below a top folder whose name the suite does not know (it holds a commit id).
  const stripped = [
    { path: 'docs/guide.md', size: 6 },
    { path: 'link', type: 'symlink' as const },
  ];
  expect(await failureOf(body, { archive: { format: 'tar.gz', strip: 1, count: 4, entries: stripped } })).toBeUndefined();
  expect(await failureOf(body, { archive: { format: 'tar.gz', entries: [{ path: 'repo-abc/link', target: 'elsewhere' }] } })).toBe(
    'archive entry repo-abc/link pointing to elsewhere | archive entry repo-abc/link pointing to README.md',
  );
});

test('format tar takes a tar with or without gzip, and strip auto removes one single top folder, none otherwise', async () => {
  const gzipped = gitArchive();
  const plain = gunzipSync(gzipped);
  const stripped = { archive: { format: 'tar' as const, strip: 'auto' as const, count: 4, entries: [{ path: 'docs/guide.md', size: 6 }] } };
  expect(await failureOf(gzipped, stripped)).toBeUndefined();
  expect(await failureOf(plain, stripped)).toBeUndefined();
  // Entries under two top folders: nothing is removed, so the paths keep their folder.
  const zip = Buffer.from(zipSync({ 'a/x.txt': new Uint8Array([120]), 'b/y.txt': new Uint8Array([121]) }));
  expect(await failureOf(zip, { archive: { format: 'zip', strip: 'auto', entries: [{ path: 'a/x.txt' }] } })).toBeUndefined();
  expect(await failureOf(hello, { archive: { format: 'tar' } })).toMatch(/^a tar archive \| 6 bytes that do not open as tar: /);
});

test('bytes that are not the archive, and archives that expand beyond the bound, fail the check instead of the run', async () => {
  expect(await failureOf(hello, { archive: { format: 'zip' } })).toMatch(/^a zip archive \| 6 bytes that do not open as zip: /);
  expect(await failureOf(hello, { archive: { format: 'tar.gz' } })).toMatch(/^a tar.gz archive \| 6 bytes that do not open as tar.gz: /);
  // 260 gzip members of 1 MiB of zeros each: 260 MiB once expanded, a few hundred KiB sent.
  const bomb = Buffer.concat(Array.from({ length: 260 }, () => gzipSync(Buffer.alloc(1024 * 1024))));
  expect(bomb.length).toBeLessThan(1024 * 1024);
  expect(await failureOf(bomb, { archive: { format: 'tar.gz' } })).toMatch(
    /do not open as tar.gz: .*(larger|exceed|maxOutputLength|buffer)/i,
  );
  // A zip whose directory claims an entry expands to 2 GiB.
  const zip = Buffer.from(zipSync({ 'a.txt': new Uint8Array(hello) }));
  const central = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  zip.writeUInt32LE(0x7fffffff, central + 24);
  expect(await failureOf(zip, { archive: { format: 'zip' } })).toContain('expands to over 268435456 bytes');
});
