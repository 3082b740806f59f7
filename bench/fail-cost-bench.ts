// `npm run bench:fail-cost`: what a failing case costs `touchstone run` beyond its own time,
// against what a passing case costs, both measured in this run on this machine. One suite
// (BENCH_SUITE, default contents) runs twice: against a stateless mock that answers every
// request with the same 200 JSON (test-support/canned-target.ts: most cases FAIL), and against
// the embedded reference (every case PASS).
//
// The figure: the idle time between one case's end and the next case's start (results.json:
// started_at and duration_ms), median over the cases that follow a FAIL in the first run,
// against the same after a PASS in the second. Target: a FAIL costs at most 1.5 times what a
// PASS costs. (Until a FAIL stopped failing the Playwright test, Playwright replaced its worker
// after each one: about 3 s against 0.1 s.) Each run's wall time against the sum of its cases'
// own times is shown for information.
//
// Environment: BENCH_SUITE (contents), BENCH_NO_FAIL=1, BENCH_TIMEOUT_S (600).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CaseResult, Results } from '../harness/core/results.js';
import { PROJECT_ROOT } from '../harness/core/suite-paths.js';
import { startCannedTarget } from '../test-support/canned-target.js';
import { giveUpAfter, reportAndExit, type ResultRow } from './result-table.js';

const TARGET = 1.5;
const env = process.env;
const suite = env.BENCH_SUITE || 'contents';
const scratch = mkdtempSync(path.join(os.tmpdir(), 'touchstone-fail-cost-'));
giveUpAfter(env, 600, () => rmSync(scratch, { recursive: true, force: true }));
const log = (line: string) => console.log(line);
log(`touchstone fail-cost bench — ${os.cpus().length} cores, node ${process.version}; suite ${suite}`);

interface Measured {
  wallS: number;
  casesS: number;
  /** Idle time before each case, by the outcome of the case before it. */
  gapsAfter: Map<string, number[]>;
  outcomes: Record<string, number>;
}

/** The command as a user starts it (bench/ may not import the CLI's modules); the mock target runs in this process, so not spawnSync. */
function touchstone(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'touchstone.js'), ...args], {
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function measure(name: string, args: string[]): Promise<Measured> {
  const out = path.join(scratch, name);
  const started = performance.now();
  const run = await touchstone(['run', '--suite', suite, '--out', out, ...args]);
  const { code } = run;
  const wallS = (performance.now() - started) / 1000;
  if (code !== 0 && code !== 1) throw new Error(`${name}: touchstone run exited ${code}\n${run.stdout}${run.stderr}`);
  const { cases } = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as Results;
  const byStart = [...cases].sort((a, b) => Date.parse(a.started_at!) - Date.parse(b.started_at!));
  const end = (c: CaseResult) => Date.parse(c.started_at!) + c.duration_ms!;
  const gapsAfter = new Map<string, number[]>();
  for (let i = 1; i < byStart.length; i++) {
    const before = byStart[i - 1];
    const gaps = gapsAfter.get(before.outcome) ?? [];
    gaps.push((Date.parse(byStart[i].started_at!) - end(before)) / 1000);
    gapsAfter.set(before.outcome, gaps);
  }
  const outcomes: Record<string, number> = {};
  for (const c of cases) outcomes[c.outcome] = (outcomes[c.outcome] ?? 0) + 1;
  const casesS = cases.reduce((sum, c) => sum + c.duration_ms! / 1000, 0);
  log(`${name}: ${cases.length} cases ${JSON.stringify(outcomes)}, wall ${wallS.toFixed(1)} s, cases ${casesS.toFixed(1)} s`);
  return { wallS, casesS, gapsAfter, outcomes };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length / 2)];
};

const rows: ResultRow[] = [];
const errors: string[] = [];
const mock = await startCannedTarget();
try {
  const failing = await measure('failing', ['--target', mock.url]);
  const passing = await measure('passing', []);
  const afterFail = median(failing.gapsAfter.get('FAIL') ?? []);
  const afterPass = median(passing.gapsAfter.get('PASS') ?? []);
  const ratio = afterFail / afterPass;
  rows.push({
    scenario: 'idle after a FAIL / after a PASS',
    value: `${afterFail.toFixed(3)} s`,
    baseline: `${afterPass.toFixed(3)} s`,
    ratio: ratio.toFixed(2),
    target: `<= ${TARGET}`,
    pass: ratio <= TARGET,
    note: `medians over ${failing.gapsAfter.get('FAIL')?.length ?? 0} and ${passing.gapsAfter.get('PASS')?.length ?? 0} cases`,
  });
  for (const [name, m] of [
    ['failing run', failing],
    ['passing run', passing],
  ] as const)
    rows.push({
      scenario: `${name}: wall / summed case time`,
      value: `${m.wallS.toFixed(1)} s`,
      baseline: `${m.casesS.toFixed(1)} s`,
      ratio: (m.wallS / m.casesS).toFixed(2),
      target: '-',
      pass: true,
      info: true,
      note: Object.entries(m.outcomes)
        .map(([outcome, n]) => `${n} ${outcome}`)
        .join(', '),
    });
} catch (error) {
  errors.push((error as Error).message);
} finally {
  await mock.close();
  rmSync(scratch, { recursive: true, force: true });
}
reportAndExit(rows, errors, { valueHeader: 'value', noFail: env.BENCH_NO_FAIL === '1' });
