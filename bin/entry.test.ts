// bin/ runs the compiled commands of dist/ (bin/build.ts) only while they are current, and
// they do what the TypeScript sources do.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PROJECT_ROOT } from '../lib/project-files.js';
import { createPluginCodec } from '../reference-impl/plugin/plugin-codec.js';
import { demoRequest } from '../reference-impl/plugin/test-requests.js';
import { skipUnlessInstalled } from '../test-support/required-tool.js';
// @ts-expect-error bin/entry.js is plain JavaScript (it runs before tsx is registered)
import { isCurrent } from './entry.js';

test('a build is current only while every file it was built from is older than it', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'touchstone-entry-'));
  try {
    mkdirSync(path.join(root, 'dist'));
    mkdirSync(path.join(root, 'src'));
    const source = path.join(root, 'src', 'a.ts');
    const manifest = path.join(root, 'dist', 'manifest.json');
    writeFileSync(source, 'export {};\n');
    writeFileSync(manifest, JSON.stringify({ touchstone: ['src/a.ts'] }));
    const at = (file: string, seconds: number) => utimesSync(file, seconds, seconds);
    at(source, 1_000);
    at(manifest, 2_000);
    expect(isCurrent(root, 'touchstone')).toBe(true);
    // An edit after the build: the sources run, not an older build of them.
    at(source, 3_000);
    expect(isCurrent(root, 'touchstone')).toBe(false);
    at(source, 1_000);
    // A part the manifest does not list, a source gone, a broken manifest: not current either.
    expect(isCurrent(root, 'commands')).toBe(false);
    rmSync(source);
    expect(isCurrent(root, 'touchstone')).toBe(false);
    writeFileSync(source, 'export {};\n');
    at(source, 1_000);
    writeFileSync(manifest, '{"touchstone": ["src/a.ts"]');
    expect(isCurrent(root, 'touchstone')).toBe(false);
    rmSync(path.join(root, 'dist'), { recursive: true });
    expect(isCurrent(root, 'touchstone')).toBe(false);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

/** Runs a bin/ script as built (the default) or from the sources (TOUCHSTONE_FROM_SOURCE=1). */
function run(script: string, args: string[], fromSource: boolean, input?: Uint8Array) {
  const { FORCE_COLOR: _, ...env } = process.env;
  const result = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'bin', script), ...args], {
    input,
    env: { ...env, TOUCHSTONE_FROM_SOURCE: fromSource ? '1' : '0' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr.toString() };
}

test('the compiled commands answer exactly as the sources do', async () => {
  const parts = ['touchstone', 'commands', 'protoc-gen-touchstone'];
  const current = parts.every((part) => isCurrent(PROJECT_ROOT, part));
  skipUnlessInstalled(test, current, 'dist/ is missing or older than the sources (npm run build)', 'TOUCHSTONE_REQUIRE_BUILD');
  const cases: [script: string, args: string[], input?: Uint8Array][] = [
    ['touchstone.js', ['--help']],
    ['touchstone.js', ['bogus']],
    // An error raised inside a command, shown as a message (not as a bug) by the dispatcher.
    ['touchstone.js', ['serve', '--world', 'no-such-world.yaml']],
    ['touchstone.js', ['openapi']],
    ['touchstone.js', ['protoc', '--version']],
    ['touchstone.js', ['protoc', `-I${path.join(PROJECT_ROOT, 'suites', 'plugin', 'fixtures')}`, '--foo_out=/nonexistent', 'missing.proto']],
    ['protoc-gen-touchstone.js', [], createPluginCodec().encodeRequest(demoRequest())],
    ['protoc-gen-touchstone.js', [], Buffer.from('garbage on stdin')],
  ];
  for (const [script, args, input] of cases) {
    const name = [script, ...args].join(' ');
    const built = run(script, args, false, input);
    const source = run(script, args, true, input);
    expect(built.stdout.length + built.stderr.length, name).toBeGreaterThan(0);
    expect({ status: built.status, stdout: built.stdout.toString('base64'), stderr: built.stderr }, name).toEqual({
      status: source.status,
      stdout: source.stdout.toString('base64'),
      stderr: source.stderr,
    });
  }
});
