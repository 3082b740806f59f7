// `touchstone run` against targets that fail, hang or hand out dead URLs: --request-timeout,
// --case-timeout, --max-failures and --grep-invert, through the real command.
import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Results } from '../core/results.js';
import { validateResults } from '../report/write-reports.js';
import { readWorldTokens } from '../suite/world-tokens.js';
import { maxFailuresMessage } from '../run/max-failures.js';
import { startCannedTarget } from '../../test-support/canned-target.js';
import { runCli, tokensFile } from '../../test-support/cli-process.js';

const scratch = () => mkdtempSync(path.join(os.tmpdir(), 'touchstone-bounds-test-'));
const readResults = (dir: string): Results => JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

test('a hanging target is judged within bounded time: its cases FAIL (never ERROR), each naming the bound it hit', async () => {
  const target = await startCannedTarget('hanging');
  const dir = scratch();
  try {
    const args = [
      'run',
      '--target',
      target.url,
      '--tokens',
      tokensFile(dir),
      '--suite',
      'devenv-secrets',
      '--request-timeout',
      '1',
      '--case-timeout',
      '2',
      '--out',
      dir,
    ];
    const env = { ADMIN_TOKEN: readWorldTokens()['repo-admin'] };
    // The preflight stops it first, within one request's bound, before any case.
    const stopped = await runCli(args, env);
    expect(stopped.code, stopped.stdout + stopped.stderr).toBe(3);
    expect(stopped.stderr).toMatch(/is unreachable: .*no answer within 1 s/);
    // Judged anyway, its cases FAIL within their bounds.
    const started = Date.now();
    const result = await runCli([...args, '--no-preflight'], env);
    // Generous: 8 cases of at most 2 s each, plus start-up on a loaded machine; without bounds it took 8 × 15 s and more.
    expect(Date.now() - started).toBeLessThan(100_000);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const results = readResults(dir);
    validateResults(results);
    expect(results.summary.ERROR).toBe(0);
    expect(results.summary.FAIL).toBeGreaterThan(0);
    for (const c of results.cases.filter((c) => c.outcome === 'FAIL')) {
      expect(c.requirements, c.id).toContain(c.failure?.requirement);
      expect(c.message, c.id).toMatch(
        /expected an answer, got no answer: .*no answer within (1 s \(--request-timeout\)|the case's bound of 2 s \(--case-timeout\))/,
      );
    }
  } finally {
    await target.close();
  }
});

test("--case-timeout bounds the whole case: a request still waiting at it FAILs, naming the case's bound", async () => {
  const target = await startCannedTarget('hanging');
  const dir = scratch();
  try {
    const result = await runCli([
      'run',
      '--target',
      target.url,
      '--only',
      'contents/contents-download-once',
      '--request-timeout',
      '30',
      '--case-timeout',
      '1',
      '--no-preflight',
      '--out',
      dir,
    ]);
    const [only] = readResults(dir).cases;
    expect(only.outcome, result.stdout + result.stderr).toBe('FAIL');
    expect(only.message).toContain("no answer within the case's bound of 1 s (--case-timeout)");
  } finally {
    await target.close();
  }
});

test('a download URL the target hands out that refuses connections is FAIL citing the step, naming the URL and the error', async () => {
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const dead = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/download/logo.png`;
  await new Promise((r) => closed.close(r));
  const target = await startCannedTarget('canned', JSON.stringify({ name: 'logo.png', download_url: dead }));
  const dir = scratch();
  try {
    const result = await runCli(['run', '--target', target.url, '--only', 'contents/contents-download-once', '--out', dir]);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const [only] = readResults(dir).cases;
    expect(only).toMatchObject({ outcome: 'FAIL', failure: { requirement: 'contents.download-single-use', expected: 'an answer' } });
    expect(only.message).toContain(`got no answer: GET ${dead}: `);
    expect(only.message).toMatch(/ECONNREFUSED/);
  } finally {
    await target.close();
  }
});

test('--max-failures N: after N FAIL cases the rest are SKIP, saying why; the run is NON-CONFORMING and says it stopped early', async () => {
  const target = await startCannedTarget();
  const dir = scratch();
  try {
    const result = await runCli(['run', '--target', target.url, '--suite', 'contents', '--max-failures', '2', '--out', dir]);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const results = readResults(dir);
    validateResults(results);
    expect(results.verdict).toBe('non-conforming');
    // One worker: exactly two FAILs, then nothing more runs.
    expect(results.summary.FAIL).toBe(2);
    const stopped = results.cases.filter((c) => c.message === maxFailuresMessage(2));
    expect(stopped.length).toBeGreaterThan(10);
    for (const c of stopped) expect(c.outcome).toBe('SKIP');
    const lastFail = Math.max(...results.cases.flatMap((c, i) => (c.outcome === 'FAIL' ? [i] : [])));
    expect(results.cases.slice(lastFail + 1).every((c) => c.message === maxFailuresMessage(2))).toBe(true);
    expect(result.stdout).toContain(
      `touchstone: stopped early: --max-failures 2 reached, ${stopped.length} of ${results.cases.length} cases not run`,
    );
    expect(result.stdout).toContain('NON-CONFORMING');
  } finally {
    await target.close();
  }
});

test('--grep-invert leaves out what it matches, and the scope says so; leaving nothing, or a bad bound, is a usage error (exit 2)', async () => {
  const dir = scratch();
  const result = await runCli(['run', '--suite', 'devenv-secrets', '--grep-invert', 'stale|public', '--out', dir]);
  expect(result.code, result.stdout + result.stderr).toBe(0);
  const results = readResults(dir);
  expect(results.cases.map((c) => c.id).filter((id) => /stale|public/.test(id))).toEqual([]);
  expect(results.cases.length).toBeGreaterThan(0);
  expect(results.scope).toMatchObject({ suites: ['devenv-secrets'], grep_invert: 'stale|public' });
  const usage: [string[], string][] = [
    [['--grep-invert', '.'], '--grep-invert . leaves no case to run'],
    [['--grep-invert', '('], '--grep-invert is not a regular expression'],
    [['--request-timeout', '0'], '--request-timeout 0 is not a positive number of seconds'],
    [['--case-timeout', 'soon'], '--case-timeout soon is not a positive number of seconds'],
    [['--max-failures', '0'], '--max-failures 0 is not a positive whole number'],
    [['--max-failures', '1.5'], '--max-failures 1.5 is not a positive whole number'],
  ];
  const runs = await Promise.all(usage.map(([args]) => runCli(['run', '--suite', 'devenv-secrets', ...args, '--out', scratch()])));
  runs.forEach((run, i) => {
    expect(run.code, usage[i][1]).toBe(2);
    expect(run.stderr).toContain(usage[i][1]);
  });
});
