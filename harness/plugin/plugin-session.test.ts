import { expect, test } from '@playwright/test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFixtureDescriptors } from './fixture-descriptors.js';
import { HarnessError } from '../core/errors.js';
import { encodeResponse } from '../protocol/plugin-codec.js';
import { loadRequirementRegistry } from '../core/requirement-registry.js';
import { suitePaths } from '../core/suite-paths.js';
import { runPluginCase, type PluginCaseContext } from './plugin-checks.js';
import type { PluginProcessResult } from './plugin-process.js';
import { runFiles, sha256Hex } from './plugin-session-format.js';
import { createSessionRecorder, createSessionReplayer, type StartPlugin } from './plugin-session.js';
import type { PluginCase } from './plugin-suite-format.js';
import { loadPluginSuites } from './plugin-suite-loader.js';

const REFERENCE_PLUGIN = fileURLToPath(new URL('../../bin/protoc-gen-touchstone.js', import.meta.url));
const registry = loadRequirementRegistry(suitePaths.requirements);
const allCases = loadPluginSuites(suitePaths.plugin).flatMap((s) => s.cases);
const caseById = (id: string): PluginCase => allCases.find((c) => c.id === id)!;
const limits = { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 * 1024 };

let root: string;
test.beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'touchstone-plugin-session-'));
});
test.afterAll(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
const freshDir = () => path.join(root, `session-${++counter}`);

/** A plugin that is never spawned: it answers `stdout` to anything, and counts its calls. */
function fakePlugin(stdout: Uint8Array, extra: Partial<PluginProcessResult> = {}): StartPlugin & { calls: number } {
  const start = async () => {
    start.calls++;
    return {
      exitCode: 0,
      signal: null,
      stdout: Buffer.from(stdout),
      stderr: Buffer.alloc(0),
      timedOut: false,
      truncated: false,
      durationMs: 12.5,
      ...extra,
    };
  };
  start.calls = 0;
  return start;
}

const validResponse = encodeResponse({ file: [{ name: 'out.txt', content: 'generated\n' }] });

const context = (extra: Partial<PluginCaseContext>): PluginCaseContext => ({
  command: ['fake-plugin'],
  describe: loadFixtureDescriptors(),
  registry,
  strict: false,
  limits,
  ...extra,
});

/** Every file under `dir`, relative path -> bytes. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (sub: string) => {
    for (const name of readdirSync(path.join(dir, sub)).sort()) {
      const rel = path.join(sub, name);
      if (statSync(path.join(dir, rel)).isDirectory()) walk(rel);
      else out[rel] = readFileSync(path.join(dir, rel)).toString('base64');
    }
  };
  walk('');
  return out;
}

test('a recorded run replays as the same result, byte for byte, without starting anything', async () => {
  const dir = freshDir();
  const stdout = Buffer.from([0xff, 0x00, 0x0a, 0x80]);
  const stderr = Buffer.from([0x6f, 0x6b, 0xc3]); // not valid UTF-8: kept as base64
  const start = fakePlugin(stdout, { exitCode: 3, stderr });
  const recorder = createSessionRecorder(dir, ['my-plugin', '--x'], limits, { start });
  const stdin = Buffer.from('request bytes');
  const recorded = await recorder.runnerFor('io', 'real-request')(stdin, 0);
  recorder.finish('io', 'real-request', true);
  const utf8Stderr = await recorder.runnerFor('io', 'garbage-stdin')(Buffer.alloc(0), 0);
  recorder.finish('io', 'garbage-stdin', true);
  expect(start.calls).toBe(2);

  const replayer = createSessionReplayer(dir);
  expect(replayer.command).toEqual(['my-plugin', '--x']);
  expect(replayer.limits).toEqual(limits);
  const replayed = await replayer.runnerFor('io', 'real-request')(stdin, 0);
  expect(replayed).toEqual({ ...recorded, durationMs: 0 });
  expect(replayed.stdout.equals(stdout) && replayed.stderr.equals(stderr)).toBe(true);
  expect(await replayer.runnerFor('io', 'garbage-stdin')(Buffer.alloc(0), 0)).toEqual({ ...utf8Stderr, durationMs: 0 });
  expect(start.calls).toBe(2);

  const files = runFiles(dir, 'io', 'real-request', 1);
  expect(readFileSync(files.request).equals(stdin)).toBe(true);
  const json = JSON.parse(readFileSync(files.json, 'utf8'));
  expect(json).toMatchObject({
    request: { undecodable: expect.any(String), base64: stdin.toString('base64') },
    exit: { code: 3, signal: null, timedOut: false, truncated: false },
    stderr_base64: stderr.toString('base64'),
    sha256: { request: sha256Hex(stdin), stdout: sha256Hex(stdout) },
  });
  expect(JSON.parse(readFileSync(path.join(dir, 'session.json'), 'utf8'))).toEqual({
    format: 'touchstone-plugin-session',
    version: 1,
    command: ['my-plugin', '--x'],
    limits,
  });
});

test('a case judged from a recording gets the outcome it got live', async () => {
  const dir = freshDir();
  const recorder = createSessionRecorder(dir, ['fake-plugin'], limits, { start: fakePlugin(validResponse) });
  const live = await runPluginCase(caseById('deterministic'), context({ runPlugin: recorder.runnerFor('io', 'deterministic') }));
  recorder.finish('io', 'deterministic', true);
  expect(live).toEqual({ outcome: 'PASS' });
  const replayer = createSessionReplayer(dir);
  expect(await runPluginCase(caseById('deterministic'), context({ runPlugin: replayer.runnerFor('io', 'deterministic') }))).toEqual({
    outcome: 'PASS',
  });
});

test('a request that changed since the recording is ERROR: the recording is stale', async () => {
  const dir = freshDir();
  const recorder = createSessionRecorder(dir, ['fake-plugin'], limits, { start: fakePlugin(validResponse) });
  await runPluginCase(caseById('real-request'), context({ runPlugin: recorder.runnerFor('io', 'real-request') }));
  recorder.finish('io', 'real-request', true);
  // Another case's request replayed against this recording stands in for a changed fixture.
  const stale = await runPluginCase(
    caseById('names-proto2'),
    context({ runPlugin: createSessionReplayer(dir).runnerFor('io', 'real-request') }),
  );
  expect(stale.outcome).toBe('ERROR');
  expect(stale.message).toMatch(
    /^the recording is stale: the request for io\/real-request run 1 differs from the recorded one \(\d+ bytes vs \d+ bytes(, first difference at byte \d+)?\); re-record with --record$/,
  );
});

test('a case or run that was never recorded is ERROR naming the missing file', async () => {
  const dir = freshDir();
  const recorder = createSessionRecorder(dir, ['fake-plugin'], limits, { start: fakePlugin(validResponse) });
  const stdin = Buffer.from('x');
  await recorder.runnerFor('io', 'deterministic')(stdin, 0); // run 1 only
  recorder.finish('io', 'deterministic', true);
  const replayer = createSessionReplayer(dir);
  await expect(replayer.runnerFor('io', 'deterministic')(stdin, 1)).rejects.toThrow(
    `io/deterministic run 2 is not recorded: ${runFiles(dir, 'io', 'deterministic', 2).json} does not exist; re-record with --record`,
  );
  const missingCase = await runPluginCase(caseById('real-request'), context({ runPlugin: replayer.runnerFor('io', 'real-request') }));
  expect(missingCase).toEqual({
    outcome: 'ERROR',
    message: `io/real-request run 1 is not recorded: ${runFiles(dir, 'io', 'real-request', 1).json} does not exist; re-record with --record`,
  });
});

test('a .bin edited without its sha256 is ERROR naming the file', async () => {
  const dir = freshDir();
  const recorder = createSessionRecorder(dir, ['fake-plugin'], limits, { start: fakePlugin(validResponse) });
  await runPluginCase(caseById('real-request'), context({ runPlugin: recorder.runnerFor('io', 'real-request') }));
  recorder.finish('io', 'real-request', true);
  const files = runFiles(dir, 'io', 'real-request', 1);
  writeFileSync(files.stdout, 'edited by hand');
  const damaged = await runPluginCase(
    caseById('real-request'),
    context({ runPlugin: createSessionReplayer(dir).runnerFor('io', 'real-request') }),
  );
  expect(damaged).toMatchObject({
    outcome: 'ERROR',
    message: expect.stringContaining(`the recording is damaged: ${files.stdout} does not match the sha256 in ${files.json}`),
  });
});

test('re-recording a case replaces its folder: fewer runs leave no stale run file', async () => {
  const dir = freshDir();
  const recorder = createSessionRecorder(dir, ['fake-plugin'], limits, { start: fakePlugin(validResponse) });
  const twice = recorder.runnerFor('io', 'deterministic');
  await twice(Buffer.from('a'), 0);
  await twice(Buffer.from('a'), 1);
  recorder.finish('io', 'deterministic', true);
  await recorder.runnerFor('io', 'real-request')(Buffer.from('b'), 0);
  recorder.finish('io', 'real-request', true);
  const folder = path.dirname(runFiles(dir, 'io', 'deterministic', 1).json);
  expect(readdirSync(folder).sort()).toEqual([
    'run-1.json',
    'run-1.request.bin',
    'run-1.stdout.bin',
    'run-2.json',
    'run-2.request.bin',
    'run-2.stdout.bin',
  ]);

  const again = createSessionRecorder(dir, ['fake-plugin'], limits, { start: fakePlugin(validResponse) });
  await again.runnerFor('io', 'deterministic')(Buffer.from('a'), 0);
  again.finish('io', 'deterministic', true);
  expect(readdirSync(folder).sort()).toEqual(['run-1.json', 'run-1.request.bin', 'run-1.stdout.bin']);
  // Cases this recording did not touch are kept (re-recording one suite keeps the others).
  expect(existsSync(runFiles(dir, 'io', 'real-request', 1).json)).toBe(true);
});

test('a case that reached no outcome leaves the recording it had before, never a part of a new one', async () => {
  const dir = freshDir();
  const recorder = createSessionRecorder(dir, ['fake-plugin'], limits, { start: fakePlugin(validResponse) });
  await recorder.runnerFor('io', 'deterministic')(Buffer.from('a'), 0);
  recorder.finish('io', 'deterministic', true);
  const before = tree(dir);
  // Recorded again: one run, then ERROR (or a kill: finish never comes).
  const again = createSessionRecorder(dir, ['fake-plugin'], limits, { start: fakePlugin(validResponse) });
  await again.runnerFor('io', 'deterministic')(Buffer.from('changed'), 0);
  const replayer = createSessionReplayer(dir);
  expect((await replayer.runnerFor('io', 'deterministic')(Buffer.from('a'), 0)).exitCode).toBe(0);
  again.finish('io', 'deterministic', false);
  expect(tree(dir)).toEqual(before);
  // A case never recorded before leaves nothing.
  await again.runnerFor('io', 'real-request')(Buffer.from('b'), 0);
  again.finish('io', 'real-request', false);
  await expect(replayer.runnerFor('io', 'real-request')(Buffer.from('b'), 0)).rejects.toThrow('io/real-request run 1 is not recorded');
});

test('a session.json that is missing, malformed or of another version is a HarnessError', () => {
  const write = (text: string) => {
    const dir = freshDir();
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'session.json'), text);
    return dir;
  };
  const refusal = (dir: string) => {
    try {
      createSessionReplayer(dir);
    } catch (error) {
      expect(error).toBeInstanceOf(HarnessError);
      return (error as Error).message;
    }
    throw new Error('expected a HarnessError');
  };
  expect(refusal(path.join(root, 'nowhere'))).toContain('holds no recorded plugin session (no session.json); record one with --record');
  expect(refusal(write('{not json'))).toMatch(/session\.json: not valid JSON/);
  expect(refusal(write('[]'))).toMatch(/not a recorded plugin session/);
  expect(refusal(write('{"format":"touchstone-plugin-session","version":2,"command":["x"]}'))).toMatch(
    /version 2 of the plugin session format is not supported \(this touchstone reads version 1\)/,
  );
  expect(
    refusal(write('{"format":"touchstone-plugin-session","version":1,"command":[],"limits":{"timeoutMs":1,"maxOutputBytes":1}}')),
  ).toMatch(/session\.json: invalid: \/command/);
  // Recording over something that is not a session would delete what is there: refused too.
  expect(() => createSessionRecorder(write('{}'), ['x'], limits)).toThrow(HarnessError);
  const notEmpty = freshDir();
  mkdirSync(notEmpty);
  writeFileSync(path.join(notEmpty, 'notes.txt'), 'keep me');
  expect(() => createSessionRecorder(notEmpty, ['x'], limits)).toThrow(/it is not empty and holds no session\.json/);
});

test('a suite or case id that is not a plain name never becomes a path', async () => {
  const dir = freshDir();
  const start = fakePlugin(validResponse);
  const recorder = createSessionRecorder(dir, ['fake-plugin'], limits, { start });
  for (const [suite, id] of [
    ['..', 'x'],
    ['io', '../../escape'],
    ['io', ''],
    ['a/b', 'x'],
    ['io', '.hidden'],
  ]) {
    await expect(recorder.runnerFor(suite, id)(Buffer.alloc(0), 0)).rejects.toThrow(HarnessError);
    await expect(createSessionReplayer(dir).runnerFor(suite, id)(Buffer.alloc(0), 0)).rejects.toThrow(
      /cannot name a folder of a plugin session/,
    );
  }
  expect(start.calls).toBe(0);
  expect(readdirSync(dir)).toEqual(['session.json']);
});

test('recording the same plugin twice gives byte-identical directories', async () => {
  test.setTimeout(120_000);
  const record = async (dir: string) => {
    const recorder = createSessionRecorder(dir, ['node', REFERENCE_PLUGIN], limits);
    for (const id of ['real-request', 'garbage-stdin', 'deterministic']) {
      const outcome = await runPluginCase(caseById(id), context({ command: recorder.command, runPlugin: recorder.runnerFor('io', id) }));
      recorder.finish('io', id, true);
      expect({ id, ...outcome }).toEqual({ id, outcome: 'PASS' });
    }
  };
  const first = freshDir();
  const second = freshDir();
  await record(first);
  await record(second);
  expect(tree(second)).toEqual(tree(first));
  const before = tree(first);
  await record(first); // over itself
  expect(tree(first)).toEqual(before);
  expect(Object.keys(before).some((name) => name.endsWith('.tmp'))).toBe(false);
});
