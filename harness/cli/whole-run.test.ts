// The embedded reference's whole catalogue, run once (with two workers) and judged by every
// test that needs a whole run: the self-check, the same verdicts through a separately served
// reference, and the two shards merged. One run where there were three: the tests run in
// order in one worker (not spread over workers, each of which would run the whole again).
// The whole run has two lanes, each reference in a worker thread of its own; each shard has
// one, on the CLI's thread (embedded-reference.ts, startReferenceLanes): the shards merged equal
// to the whole run is also one lane and two giving the same results.
import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Results } from '../core/results.js';
import { suitePaths } from '../core/suite-paths.js';
import { validateResults } from '../report/write-reports.js';
import { loadSuites } from '../suite/suite-loader.js';
import { readWorldTokens } from '../suite/world-tokens.js';
import { type CliResult, runCli, startServe, tokensFile } from '../../test-support/cli-process.js';

const readResults = (dir: string): Results => JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
const outcomes = (r: Results) => Object.fromEntries(r.cases.map((c) => [c.id, c.outcome]));
/** What differs between two runs of the same cases however they are split: times, and the port of the embedded reference. */
function withoutTimings(results: Results) {
  const { started_at, finished_at, duration_ms, target, ...rest } = results;
  return {
    ...rest,
    target: { embedded: target.embedded },
    cases: results.cases.map(({ started_at, duration_ms, ...c }) => c),
  };
}

// Whole runs take 20-60 s on a loaded 2-core machine: more than the project's default test timeout.
test.describe.configure({ mode: 'default', timeout: 180_000 });

let dir: string;
let whole: CliResult;
const wholeOut = () => path.join(dir, 'whole');
test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-whole-run-'));
  whole = await runCli(['run', '--workers', '2', '--out', wholeOut()]);
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('self-check: every suite passes against the embedded reference, and no requirement is untested', () => {
  expect(whole.code, whole.stdout + whole.stderr).toBe(0);
  const results = readResults(wholeOut());
  validateResults(results);
  const notPassing = results.cases.filter((c) => c.outcome !== 'PASS').map((c) => `${c.id}: ${c.outcome} ${c.message}`);
  expect(notPassing).toEqual([]);
  expect(results.requirements.filter((r) => r.status === 'UNTESTED').map((r) => r.id)).toEqual([]);
  // Every case of every suite ran: a lost case fails here.
  expect(results.summary.total).toBe(loadSuites(suitePaths.service).reduce((n, suite) => n + suite.cases.length, 0));
  expect(whole.stdout).toContain('touchstone: CONFORMING');
  for (const file of ['junit.xml', 'report.html', 'summary.md'])
    expect(readFileSync(path.join(wholeOut(), file), 'utf8').length).toBeGreaterThan(100);
  expect(readFileSync(path.join(wholeOut(), 'report.html'), 'utf8')).not.toContain(readWorldTokens()['repo-admin']);
});

test('run --target against a separately served reference gives the same verdicts as the embedded run', async () => {
  const server = await startServe();
  try {
    const remote = await runCli(['run', '--target', server.url, '--tokens', tokensFile(dir), '--out', path.join(dir, 'remote')], {
      ADMIN_TOKEN: readWorldTokens()['repo-admin'],
    });
    expect(remote.code, remote.stdout + remote.stderr).toBe(0);
    expect(outcomes(readResults(path.join(dir, 'remote')))).toEqual(outcomes(readResults(wholeOut())));
    expect(readResults(path.join(dir, 'remote'))).toMatchObject({ target: { url: server.url, embedded: false }, verdict: 'conforming' });
    expect(remote.stdout).toContain('touchstone: CONFORMING');
  } finally {
    expect(await server.stop(), 'serve stops cleanly on SIGTERM').toBe(0);
  }
});

test('all suites in two shards of one lane each, merged, equal one unsharded run with two lanes (two reference threads)', async () => {
  const [one, two] = await Promise.all([
    runCli(['run', '--shard', '1/2', '--out', path.join(dir, 'one')]),
    runCli(['run', '--shard', '2/2', '--out', path.join(dir, 'two')]),
  ]);
  for (const r of [one, two]) expect(r.code, r.stdout + r.stderr).toBe(0);
  const parts = [readResults(path.join(dir, 'one')), readResults(path.join(dir, 'two'))];
  // Each shard ran about half of the cases and says it is a part.
  for (const part of parts) expect(part.cases.length).toBeLessThan(readResults(wholeOut()).cases.length * 0.6);
  expect(parts.map((p) => p.scope.shard)).toEqual(['1/2', '2/2']);
  expect(one.stdout).toContain('shard 1/2, merge the shards');

  const merged = await runCli(['report', 'merge', path.join(dir, 'two'), path.join(dir, 'one'), '--out', path.join(dir, 'merged')]);
  expect(merged.code, merged.stdout + merged.stderr).toBe(0);
  expect(merged.stdout).toContain('touchstone: CONFORMING');
  expect(withoutTimings(readResults(path.join(dir, 'merged')))).toEqual(withoutTimings(readResults(wholeOut())));
  // The other reports are the whole run's too: cases of both shards, the whole count.
  const total = parts[0].cases.length + parts[1].cases.length;
  const page = readFileSync(path.join(dir, 'merged', 'report.html'), 'utf8');
  for (const id of [parts[0].cases[0].id, parts[1].cases.at(-1)!.id]) expect(page).toContain(id);
  // One testcase per case, and the verdict's own.
  expect(readFileSync(path.join(dir, 'merged', 'junit.xml'), 'utf8').match(/<testcase /g)).toHaveLength(total + 1);
  expect(readFileSync(path.join(dir, 'merged', 'summary.md'), 'utf8')).toContain(`${total} cases`);
});
