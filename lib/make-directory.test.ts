// makeDirectory makes what mkdir -p makes, and fails at once where node's recursive mkdir never returned.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { makeDirectory } from './make-directory.js';

test('makes every missing folder, accepts one that exists, and throws for a file in the way or a folder under /proc', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-mkdir-'));
  try {
    makeDirectory(path.join(dir, 'a', 'b', 'c'));
    expect(statSync(path.join(dir, 'a', 'b', 'c')).isDirectory()).toBe(true);
    makeDirectory(path.join(dir, 'a', 'b'));
    writeFileSync(path.join(dir, 'file'), '');
    expect(() => makeDirectory(path.join(dir, 'file', 'x'))).toThrow(/ENOTDIR/);
    // node 20's mkdirSync('/proc/x', { recursive: true }) loops for ever instead.
    expect(() => makeDirectory('/proc/touchstone-no-such/x')).toThrow(/ENOENT/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
