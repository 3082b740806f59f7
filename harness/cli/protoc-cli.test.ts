import { expect, test } from '@playwright/test';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../core/suite-paths.js';
import { runCli } from '../../test-support/cli-process.js';

test('touchstone protoc drives the reference plugin with protoc flags, and fails like protoc', async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'touchstone-protoc-cli-'));
  try {
    const version = await runCli(['protoc', '--version']);
    expect(version).toMatchObject({ code: 0, stdout: 'touchstone protoc 0.1.0 (plugin handling of protoc 3.21.12)\n' });
    const plugin = `--plugin=protoc-gen-touchstone=${path.join(PROJECT_ROOT, 'bin/protoc-gen-touchstone.js')}`;
    const fixtures = `-I${path.join(PROJECT_ROOT, 'suites/plugin/fixtures')}`;
    const run = await runCli(['protoc', fixtures, plugin, `--touchstone_out=format=md:${out}`, 'shop/catalog.proto']);
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(out, { recursive: true }).sort()).toEqual(['shop', 'shop/catalog.md']);
    expect(readFileSync(path.join(out, 'shop/catalog.md'), 'utf8')).toContain('Product');
    const bad = await runCli(['protoc', fixtures, plugin, `--touchstone_out=colour=red:${out}`, 'shop/catalog.proto']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^--touchstone_out: .*colour/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
