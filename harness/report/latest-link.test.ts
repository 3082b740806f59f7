// reports/latest: which runs move it, what it holds, what it never replaces.
import { expect, test } from '@playwright/test';
import { lstatSync, mkdirSync, mkdtempSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isLatestLink, updateLatestLink } from './latest-link.js';

test('a run under reports/ becomes reports/latest (a relative link, replaced by the next); a run elsewhere leaves it; a folder of that name is never replaced', () => {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'touchstone-latest-'));
  const latest = path.join(cwd, 'reports', 'latest');
  const first = path.join(cwd, 'reports', '2025-11-22T12-00-00Z');
  mkdirSync(first, { recursive: true });
  expect(updateLatestLink(first, cwd)).toBe(latest);
  expect(readlinkSync(latest)).toBe('2025-11-22T12-00-00Z');
  expect(isLatestLink(latest, cwd)).toBe(true);

  // --out reports/ci/nightly is under reports/ too.
  const nightly = path.join(cwd, 'reports', 'ci', 'nightly');
  mkdirSync(nightly, { recursive: true });
  updateLatestLink(nightly, cwd);
  expect(readlinkSync(latest)).toBe(path.join('ci', 'nightly'));
  expect(realpathSync(latest)).toBe(realpathSync(nightly));

  // Elsewhere, reports/ itself, or the link: untouched.
  expect(updateLatestLink(path.join(cwd, 'out'), cwd)).toBeUndefined();
  expect(updateLatestLink(path.join(cwd, 'reports'), cwd)).toBeUndefined();
  expect(updateLatestLink(latest, cwd)).toBeUndefined();
  expect(readlinkSync(latest)).toBe(path.join('ci', 'nightly'));

  // A real folder named latest is someone's: it stays.
  const other = mkdtempSync(path.join(os.tmpdir(), 'touchstone-latest-'));
  mkdirSync(path.join(other, 'reports', 'latest'), { recursive: true });
  writeFileSync(path.join(other, 'reports', 'latest', 'notes.txt'), 'mine');
  expect(updateLatestLink(path.join(other, 'reports', 'run'), other)).toBeUndefined();
  expect(lstatSync(path.join(other, 'reports', 'latest')).isDirectory()).toBe(true);
  expect(isLatestLink(path.join(other, 'reports', 'latest'), other)).toBe(false);
});
