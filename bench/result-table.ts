// The end of every bench command: the results table, then the errors, then the exit
// status scripts and CI test for. One place, so every bench reads and exits the same way:
// 0 all targets met (or BENCH_NO_FAIL=1), 1 a target missed, 2 something could not run.
import { positiveEnvNumber } from './env-number.js';
import type { TargetResult } from './load-runner.js';

export interface ResultRow {
  scenario: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
  pass: boolean;
  /** A figure shown for information: no target, never a miss. */
  info?: boolean;
  note?: string;
}

/** A Markdown table, so a run's output can be pasted into bench/README.md as it is. */
export function printResultTable(rows: ResultRow[], valueHeader: string): void {
  const header = ['scenario', valueHeader, 'baseline', 'ratio', 'target', 'result', 'note'];
  const lines = rows.map((r) => [
    r.scenario,
    r.value,
    r.baseline,
    r.ratio,
    r.target,
    r.info ? '-' : r.pass ? 'PASS' : 'MISS',
    r.note ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const render = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(`\n${render(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const line of lines) console.log(render(line));
}

/** Prints the table and the errors, then exits: 2 on any error, 1 on a miss unless noFail. */
export function reportAndExit(rows: ResultRow[], errors: string[], options: { valueHeader: string; noFail: boolean }): never {
  printResultTable(rows, options.valueHeader);
  for (const error of errors) console.error(`\nERROR ${error}`);
  if (errors.length) process.exit(2);
  const missed = rows.some((r) => !r.info && !r.pass);
  process.exit(missed && !options.noFail ? 1 : 0);
}

/** Exits 2 once BENCH_TIMEOUT_S (else `defaultSeconds`) has passed, whatever is running; `cleanUp` first. */
export function giveUpAfter(env: NodeJS.ProcessEnv, defaultSeconds: number, cleanUp: () => void = () => {}): void {
  setTimeout(
    () => {
      console.error('bench: over BENCH_TIMEOUT_S, giving up');
      cleanUp();
      process.exit(2);
    },
    positiveEnvNumber(env, 'BENCH_TIMEOUT_S', defaultSeconds) * 1000,
  ).unref();
}

/**
 * A row comparing two throughputs: the ratio against `target` (at least), invalid when either
 * side had a bad answer or `invalid` says why; the note gives the server CPU per request of
 * both sides, the noise-robust companion of the ratio.
 */
export function throughputRow(
  scenario: string,
  candidate: TargetResult,
  baseline: TargetResult,
  target: number,
  options: { invalid?: string; note?: string } = {},
): ResultRow {
  const ratio = candidate.best / baseline.best;
  const bad = candidate.bad + baseline.bad;
  const cpu =
    candidate.cpuUsPerRequest === undefined || baseline.cpuUsPerRequest === undefined
      ? undefined
      : `CPU/req ${candidate.cpuUsPerRequest.toFixed(0)} vs ${baseline.cpuUsPerRequest.toFixed(0)} µs (${(baseline.cpuUsPerRequest / candidate.cpuUsPerRequest).toFixed(2)})`;
  return {
    scenario,
    value: `${candidate.best.toFixed(0)} req/s`,
    baseline: `${baseline.best.toFixed(0)} req/s`,
    ratio: ratio.toFixed(2),
    target: `>= ${target}`,
    pass: ratio >= target && bad === 0 && options.invalid === undefined,
    note: bad > 0 ? `${bad} non-2xx/errors: figure invalid` : (options.invalid ?? [options.note, cpu].filter(Boolean).join('; ')),
  };
}
