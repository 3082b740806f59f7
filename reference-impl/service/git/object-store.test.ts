// The object store reads back what it wrote, knows the type of an object and a blob's size by its
// id, and exports its objects as loose objects that git reads.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { openObjectStore } from './object-store.js';

test('blobs, trees and commits read back as written; typeOf names each and nothing for an unknown id', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-store-'));
  try {
    const store = await openObjectStore(dir);
    const blob = await store.writeBlob(Buffer.from('hello\n'));
    expect(blob).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    const tree = await store.writeTree([{ mode: '100644', path: 'hello.txt', oid: blob, type: 'blob' }]);
    const who = { name: 'monalisa', email: 'm@example.invalid', timestamp: 1_780_000_000 };
    const commit = await store.writeCommit({ tree, parents: [], author: who, committer: who, message: 'hi' });
    expect(Buffer.from(await store.readBlob(blob)).toString()).toBe('hello\n');
    expect(await store.readTree(tree)).toEqual([{ mode: '100644', path: 'hello.txt', oid: blob, type: 'blob' }]);
    expect(await store.readCommit(commit)).toEqual({ tree, parents: [], author: who, committer: who, message: 'hi\n' });
    expect(await Promise.all([blob, tree, commit, '0'.repeat(40)].map((oid) => store.typeOf(oid)))).toEqual([
      'blob',
      'tree',
      'commit',
      undefined,
    ]);
    // Exported, the objects are loose objects git reads; a store over the exported folder reads
    // them from disk, the blob's size and type included.
    const exported = path.join(dir, 'exported.git');
    execFileSync('git', ['init', '-q', '--bare', exported]);
    await store.exportObjects([blob, tree, commit], exported);
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', exported, ...args], { encoding: 'utf8' });
    expect(git('cat-file', '-p', blob)).toBe('hello\n');
    expect(git('log', '--format=%an %s', commit).trim()).toBe('monalisa hi');
    const again = await openObjectStore(exported);
    expect(await Promise.all([blob, tree, commit].map((oid) => again.typeOf(oid)))).toEqual(['blob', 'tree', 'commit']);
    expect([await store.blobSize(blob), await again.blobSize(blob)]).toEqual([6, 6]);
    expect(Buffer.from(await again.readBlob(blob)).toString()).toBe('hello\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
