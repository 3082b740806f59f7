// Test support: two report folders judge alike, and the shards of a run merge into what the whole
// run judged (for the runs whose workers and shards must not change a verdict).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import type { Results } from '../harness/core/results.js';
import { runCli } from './cli-process.js';

const results = (dir: string): Results => JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as Results;

/** What a run judged: each case's outcome and the requirement it broke, in order; the verdict; each requirement's status. */
export function judgement(dir: string) {
  const run = results(dir);
  return {
    cases: run.cases.map((c) => `${c.outcome} ${c.id} ${c.failure?.requirement ?? ''}`),
    verdict: run.verdict,
    requirements: run.requirements.map((r) => `${r.status} ${r.id}`),
  };
}

/** `touchstone report merge` of `parts` into `out` succeeds and judges as the run in `whole` did. */
export async function expectMergedAsWhole(parts: string[], whole: string, out: string): Promise<void> {
  const merge = await runCli(['report', 'merge', ...parts, '--out', out]);
  expect(merge.code, merge.stdout + merge.stderr).toBe(results(whole).summary.FAIL > 0 ? 1 : 0);
  expect(judgement(out)).toEqual(judgement(whole));
  expect(results(out).kind).toBe(results(whole).kind);
}
