// The run engine loads what is costly once: the compiled schemas once per worker (a build takes
// ~125 ms; once per case they were half a run's time), the requirement registry and the suites
// once per run (the CLI plans the run and hands the plan on). Counted through the load trace
// (TOUCHSTONE_LOAD_TRACE, harness/core/load-trace.ts) of real runs.
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LOAD_TRACE_ENV, parseLoadTrace, type TracedLine, type TracedLoad } from '../core/load-trace.js';
import type { Results } from '../core/results.js';
import { PROJECT_ROOT } from '../core/suite-paths.js';
import { runCli } from '../../test-support/cli-process.js';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

/** A run of `args` by the project at `root` (this one unless given). */
async function tracedRun(args: string[], root = PROJECT_ROOT): Promise<{ lines: TracedLine[]; results: Results }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-loads-'));
  try {
    const trace = path.join(dir, 'trace');
    const out = path.join(dir, 'out');
    // This test runs in a Playwright worker itself: its index must not pass for the CLI's; and
    // the build decides what runs, not a TOUCHSTONE_FROM_SOURCE of the shell.
    const env = { [LOAD_TRACE_ENV]: trace, TEST_WORKER_INDEX: undefined, TOUCHSTONE_FROM_SOURCE: undefined };
    const result = await runCli([...args, '--out', out], env, undefined, path.join(root, 'bin', 'touchstone.js'));
    expect(result.code, result.stdout + result.stderr).toBe(0);
    return {
      lines: parseLoadTrace(readFileSync(trace, 'utf8')),
      results: JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as Results,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const of = (lines: TracedLine[], what: TracedLoad) => lines.filter((line) => line.what === what);

test('a service run of N cases in W workers builds the schemas at most W times, and reads the registry and the suites once', async () => {
  const workers = 2;
  const { lines, results } = await tracedRun([
    'run',
    '--suite',
    'devenv-secrets',
    '--suite',
    'social-accounts',
    '--workers',
    String(workers),
  ]);
  // More cases than workers: a build per case would show.
  expect(results.summary.total).toBeGreaterThan(4 * workers);
  const schemas = of(lines, 'schemas');
  const inWorkers = schemas.filter((line) => line.worker !== undefined);
  expect(inWorkers.length, 'one build per worker at most').toBeLessThanOrEqual(workers);
  expect(new Set(inWorkers.map((line) => line.pid)).size, 'no worker builds twice').toBe(inWorkers.length);
  // The CLI's lint builds them once too; Playwright's runner process (which lists the tests) never.
  expect(schemas.filter((line) => line.worker === undefined)).toHaveLength(1);
  // The CLI reads them; the plan carries them to the runner and the workers.
  expect(of(lines, 'requirements')).toHaveLength(1);
  expect(of(lines, 'suites')).toHaveLength(1);
  expect(new Set([...of(lines, 'requirements'), ...of(lines, 'suites')].map((line) => line.worker))).toEqual(new Set([undefined]));
});

test('a plugin run reads the registry once and builds no schemas of the service', async () => {
  const { lines, results } = await tracedRun(['plugin', '--replay', path.join(PROJECT_ROOT, 'cassettes', 'plugin-reference')]);
  expect(results.summary.total).toBeGreaterThan(1);
  expect(of(lines, 'requirements')).toHaveLength(1);
  expect(of(lines, 'schemas')).toEqual([]);
});

test('a run hands Playwright the run engine compiled by the build while it is current, and the TypeScript once a source of the engine is edited', async () => {
  // A copy of the project, built as `npm run build` builds it: the test edits a source, and
  // does not depend on (or disturb) this checkout's dist/.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-engine-'));
  try {
    for (const entry of ['bin', 'harness', 'lib', 'reference-impl', 'suites', 'package.json', 'tsconfig.json', 'tsconfig.types.json'])
      cpSync(path.join(PROJECT_ROOT, entry), path.join(dir, entry), { recursive: true, preserveTimestamps: true });
    symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    const build = spawnSync('npm', ['run', 'build'], { cwd: dir, encoding: 'utf8' });
    expect(build.status, build.stdout + build.stderr).toBe(0);
    // Which form of the engine Playwright's runner and its worker loaded.
    const engine = async () => {
      const { lines, results } = await tracedRun(['run', '--only', 'variables/list'], dir);
      expect(results.summary).toMatchObject({ PASS: 1, total: 1 });
      return lines
        .filter((line) => line.what.startsWith('engine-'))
        .map((line) => `${line.what} ${line.worker === undefined ? 'runner' : 'worker'}`);
    };
    expect(await engine()).toEqual(['engine-built runner', 'engine-built worker']);
    // An edit the build has not seen (the spec is the engine's only: the commands stay compiled).
    appendFileSync(path.join(dir, 'harness', 'run', 'conformance.spec.ts'), '// edited after the build\n');
    expect(await engine()).toEqual(['engine-sources runner', 'engine-sources worker']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
