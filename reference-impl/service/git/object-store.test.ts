// The object store reads back what it wrote, and knows the type of an object and a blob's size by its id.
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
    // A second store over the same folder sees the same objects.
    const again = await openObjectStore(dir);
    expect(await again.typeOf(commit)).toBe('commit');
    // Sizes: known from the write, and read from the object by a store that did not write it.
    expect([await store.blobSize(blob), await again.blobSize(blob)]).toEqual([6, 6]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
