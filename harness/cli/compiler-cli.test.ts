// `touchstone compiler` end to end, against the two compilers of issue 4's "Done when":
// touchstone's own protoc (through npx, as a user runs it) conforms; Debian's protoc 3.21
// conforms too, warning where it departs from the reference's choices, the unsafe names
// (spec 3's name rules bind the plugin; what a compiler does with a forbidden name is open).
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEBIAN_PROTOC, skipWithoutDebianProtoc } from '../../test-support/debian-protoc.js';
import type { Results } from '../core/results.js';
import { runCli } from '../../test-support/cli-process.js';
import { expectMergedAsWhole } from '../../test-support/same-judgement.js';

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-compiler-cli-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

const results = (out: string): Results => JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as Results;

// The whole catalogue against the reference compiler started as `node bin/touchstone.js protoc`;
// `npx touchstone protoc`, the form docs/commands.md shows, for one suite only: npx adds a second
// of npm's start to every compiler call, which over the catalogue was most of this test's time,
// and proves nothing more after the first call.
test('touchstone protoc conforms: every compiler case passes and no sandbox is left behind; npx touchstone protoc too', async () => {
  test.setTimeout(300_000);
  const out = path.join(dir, 'reference');
  const run = await runCli(['compiler', '--compiler', `"${process.execPath}" bin/touchstone.js protoc`, '--out', out]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const report = results(out);
  expect(report).toMatchObject({ kind: 'compiler', verdict: 'conforming' });
  expect(report.summary.PASS).toBe(report.summary.total);
  expect(report.requirements.every((r) => r.id.startsWith('compiler.') && r.status === 'PASS')).toBe(true);
  expect(existsSync(path.join(out, 'compiler-cases'))).toBe(false);

  const viaNpx = path.join(dir, 'reference-npx');
  const npx = await runCli(['compiler', '--compiler', 'npx touchstone protoc', '--suite', 'names', '--out', viaNpx]);
  expect(npx.code, npx.stdout + npx.stderr).toBe(0);
  const names = results(viaNpx);
  expect(names.verdict).toBe('conforming');
  expect(names.summary.PASS).toBe(names.summary.total);
  expect(names.cases.map((c) => c.id)).toEqual(report.cases.filter((c) => c.id.startsWith('names/')).map((c) => c.id));
});

test('protoc 3.21 conforms, warning only on the unsafe-name cases, each citing its requirement with a command that reproduces it', async () => {
  skipWithoutDebianProtoc(test);
  test.setTimeout(120_000);
  const out = path.join(dir, 'protoc');
  const run = await runCli(['compiler', '--compiler', DEBIAN_PROTOC, '--out', out]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const report = results(out);
  expect(report.verdict).toBe('conforming');
  const warned = report.cases.filter((c) => c.outcome !== 'PASS');
  expect(warned.map((c) => `${c.outcome} ${c.id} ${c.failure?.requirement}`).sort()).toEqual([
    'WARN names/absolute-name compiler.apply.unsafe-names-refused',
    'WARN names/backslash compiler.apply.unsafe-names-refused',
    'WARN names/dot-component compiler.apply.unsafe-names-refused',
    'WARN names/dot-dot-component compiler.apply.names-inside-output',
  ]);
  expect(report.requirements.find((r) => r.id === 'compiler.apply.names-inside-output')?.status).toBe('WARN');

  // The kept sandbox and the reproduction command show the escape again.
  const dotDot = warned.find((c) => c.id === 'names/dot-dot-component')!;
  const work = path.join(out, 'compiler-cases/names/dot-dot-component/work');
  expect(readdirSync(work).sort()).toEqual(['escaped.txt', 'out']);
  rmSync(path.join(work, 'escaped.txt'));
  const again = spawnSync('sh', ['-c', dotDot.failure!.reproduce!], { encoding: 'utf8' });
  expect(again.status, again.stderr).toBe(0);
  expect(readFileSync(path.join(work, 'escaped.txt'), 'utf8')).toBe('outside the output directory\n');
});

test("a compiler that takes protoc's command line and never starts a plugin: no case passes, plugins-started fails, every other case is not reached", async () => {
  test.setTimeout(120_000);
  const idle = path.join(dir, 'idle-compiler');
  writeFileSync(idle, '#!/bin/sh\necho "idle-compiler: nothing done" >&2\nexit 1\n');
  chmodSync(idle, 0o755);
  const out = path.join(dir, 'idle');
  const run = await runCli(['compiler', '--compiler', idle, '--out', out]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as Results;
  expect(results.verdict).toBe('non-conforming');
  expect(results.summary.PASS).toBe(0);
  const failing = results.cases.filter((c) => c.outcome !== 'SKIP');
  expect(failing.map((c) => [c.id, c.outcome, c.failure?.requirement])).toEqual([
    ['request/plugins-started', 'FAIL', 'compiler.run.plugins-started'],
  ]);
  for (const c of results.cases.filter((c) => c.outcome === 'SKIP'))
    expect(c.not_reached, c.id).toEqual({
      cause: expect.stringMatching(/^the compiler never started protoc-gen-\S+.* \(exit 1; stderr: idle-compiler: nothing done\)$/),
      judged_by: 'request/plugins-started',
    });
  // What the failure cases check (exit 1, a message, nothing written) held, but it says nothing: unchecked, not passed.
  expect(results.gaps.untested).toContain('compiler.apply.error-fails');
});

test('a compiler that cannot be started is exit 3, said once', async () => {
  const run = await runCli(['compiler', '--compiler', path.join(dir, 'no-such-protoc'), '--out', path.join(dir, 'missing')]);
  expect(run.code).toBe(3);
  expect(run.stderr).toContain('the compiler cannot be started');
});

// Each case runs the compiler in a sandbox of its own, so workers share nothing: the halves of
// a --shard split, each run by two workers, merge into what one worker judges of the same cases.
test('--workers and --shard: two workers per half, merged, judge the selected cases as one worker does', async () => {
  test.setTimeout(300_000);
  const compiler = `"${process.execPath}" bin/touchstone.js protoc`;
  const select = ['--suite', 'failures', '--suite', 'names', '--grep-invert', 'backslash'];
  const runs = [];
  for (const [i, extra] of [[], ['--workers', '2', '--shard', '1/2'], ['--workers', '2', '--shard', '2/2']].entries())
    runs.push(await runCli(['compiler', '--compiler', compiler, ...select, '--out', path.join(dir, `parallel-${i}`), ...extra]));
  for (const run of runs) expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(runs[1].stdout).toContain('(2 workers, shard 1/2)');
  const one = results(path.join(dir, 'parallel-0'));
  expect(one.cases.map((c) => c.id)).not.toContain('names/backslash');
  expect(one.cases.length).toBe(9);
  const parts = [path.join(dir, 'parallel-1'), path.join(dir, 'parallel-2')];
  await expectMergedAsWhole(parts, path.join(dir, 'parallel-0'), path.join(dir, 'parallel-merged'));
  // No case kept its sandbox (all passed), in either half.
  for (const part of ['parallel-1', 'parallel-2']) expect(existsSync(path.join(dir, part, 'compiler-cases'))).toBe(false);
});
