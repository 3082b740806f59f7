// The run engine loads what is costly once: the compiled schemas once per worker (a build takes
// ~125 ms; once per case they were half a run's time), the requirement registry and the suites
// once per run (the CLI plans the run and hands the plan on). Counted through the load trace
// (TOUCHSTONE_LOAD_TRACE, harness/core/load-trace.ts) of real runs.
import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LOAD_TRACE_ENV, parseLoadTrace, type TracedLine, type TracedLoad } from '../core/load-trace.js';
import type { Results } from '../core/results.js';
import { PROJECT_ROOT } from '../core/suite-paths.js';
import { runCli } from '../../test-support/cli-process.js';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

async function tracedRun(args: string[]): Promise<{ lines: TracedLine[]; results: Results }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-loads-'));
  try {
    const trace = path.join(dir, 'trace');
    const out = path.join(dir, 'out');
    // This test runs in a Playwright worker itself: its index must not pass for the CLI's.
    const result = await runCli([...args, '--out', out], { [LOAD_TRACE_ENV]: trace, TEST_WORKER_INDEX: undefined });
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
