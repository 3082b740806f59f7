// bin/ runs the compiled commands of dist/ (bin/build.ts) only while they are current, and
// they do what the TypeScript sources do.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PROJECT_ROOT } from '../lib/project-files.js';
import { createPluginCodec } from '../reference-impl/plugin/plugin-codec.js';
import { demoRequest } from '../reference-impl/plugin/test-requests.js';
import { skipUnlessInstalled } from '../test-support/required-tool.js';
// @ts-expect-error bin/entry.js is plain JavaScript (it runs before tsx is registered)
import { fileDigest, isCurrent, staleParts } from './entry.js';

test('a build is current while every file it was built from is no newer than it, and only then without digests', () => {
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
    // A packed install gives every file one time (npm's fixed date): current.
    at(source, 2_000);
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

test('a source newer than the build but with the bytes it was built from (an installed package) leaves the build current', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'touchstone-entry-'));
  try {
    mkdirSync(path.join(root, 'dist'));
    mkdirSync(path.join(root, 'src'));
    const file = (name: string) => path.join(root, 'src', name);
    const manifest = path.join(root, 'dist', 'manifest.json');
    writeFileSync(file('a.ts'), 'export const a = 1;\n');
    writeFileSync(file('b.ts'), 'export const b = 1;\n');
    const digests = { 'src/a.ts': fileDigest(file('a.ts')), 'src/b.ts': fileDigest(file('b.ts')) };
    writeFileSync(manifest, JSON.stringify({ touchstone: ['src/a.ts'], commands: ['src/b.ts'], digests }));
    const at = (name: string, seconds: number) => utimesSync(name, seconds, seconds);
    const builtAt = () => statSync(manifest).mtimeMs;
    at(manifest, 2_000);
    // Extracted after the manifest, as npm does: same bytes, so current, and the manifest now
    // carries the time of the check (every newer input was proven unchanged).
    at(file('a.ts'), 3_000);
    at(file('b.ts'), 3_000);
    expect(isCurrent(root, 'touchstone')).toBe(true);
    expect(builtAt()).toBeGreaterThan(3_000_000);
    // An edit (another part's file): its part runs the sources, and the manifest keeps its
    // time, or that edit would pass for older than the build at the next check.
    at(manifest, 2_000);
    writeFileSync(file('b.ts'), 'export const b = 2;\n');
    at(file('b.ts'), 3_000);
    expect(isCurrent(root, 'touchstone')).toBe(true);
    expect(builtAt()).toBe(2_000_000);
    expect(isCurrent(root, 'commands')).toBe(false);
    // The same edit in the part's own file.
    writeFileSync(file('a.ts'), 'export const a = 2;\n');
    at(file('a.ts'), 3_000);
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
  const current = staleParts(PROJECT_ROOT).length === 0;
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

test('a packed package ships the compiled commands (an install from it runs no prepare step) and no local leftovers', () => {
  const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  expect(packed.status, packed.stderr).toBe(0);
  const files = (JSON.parse(packed.stdout) as Array<{ files: Array<{ path: string }> }>)[0].files.map((file) => file.path);
  for (const built of ['dist/manifest.json', 'dist/touchstone.cjs', 'dist/protoc-gen-touchstone.cjs', 'dist/commands/protoc.cjs', 'dist/engine/conformance.config.js'])
    expect(files, built).toContain(built);
  expect(files).toContain('bin/touchstone.js');
  const leftovers = files.filter((file) => /^(node_modules|test-results|playwright-report|\.touchstone-tmp)\/|\.v8-cache$/.test(file));
  expect(leftovers).toEqual([]);
});
