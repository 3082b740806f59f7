import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Results } from '../report/results.js';
import { PROJECT_ROOT } from '../suite/suite-paths.js';
import { runCli } from './cli-process.js';

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-plugin-cli-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

const results = (out: string): Results => JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as Results;

test('the reference plugin conforms: every case passes and the four reports are written', async () => {
  test.setTimeout(120_000);
  const out = path.join(dir, 'reference');
  const run = await runCli(['plugin', '--plugin', `node ${path.join(PROJECT_ROOT, 'bin/protoc-gen-touchstone.js')}`, '--out', out]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const report = results(out);
  expect(report).toMatchObject({ kind: 'plugin', verdict: 'conforming' });
  expect(report.summary.PASS).toBe(report.summary.total);
  expect(report.requirements.every((r) => r.id.startsWith('plugin.'))).toBe(true);
  expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('plugin conformance report');
});

test("npm's protoc-gen-es: every finding cites a requirement and a printf | plugin reproduction, and nothing is ERROR", async () => {
  test.setTimeout(120_000);
  const out = path.join(dir, 'es');
  const run = await runCli(['plugin', '--plugin', path.join(PROJECT_ROOT, 'node_modules/.bin/protoc-gen-es'), '--out', out]);
  const report = results(out);
  expect(run.code, run.stdout + run.stderr).toBe(report.summary.FAIL > 0 ? 1 : 0);
  expect(report.summary.ERROR).toBe(0);
  const findings = report.cases.filter((c) => c.outcome !== 'PASS');
  for (const finding of findings) {
    expect(finding.failure?.requirement).toMatch(/^plugin\./);
    expect(finding.failure?.reproduce).toMatch(/^printf '.*' \| \S*protoc-gen-es$/s);
  }
  // protoc-gen-es 2.17 refuses an unknown option with exit 1 instead of an error response.
  expect(findings.map((c) => `${c.outcome} ${c.id}`)).toEqual(['WARN io/unknown-parameter']);
});

test('a plugin that cannot start is exit 3, bad options exit 2, each with the reason', async () => {
  const missing = await runCli(['plugin', '--plugin', '/nonexistent/protoc-gen-x', '--out', path.join(dir, 'missing')]);
  expect(missing.code).toBe(3);
  expect(missing.stderr).toContain('the plugin cannot be started: /nonexistent/protoc-gen-x: ENOENT');
  const quote = await runCli(['plugin', '--plugin', 'node "unterminated']);
  expect(quote.code).toBe(2);
  expect(quote.stderr).toContain('unterminated " quote');
  const suite = await runCli(['plugin', '--plugin', 'cat', '--suite', 'nope']);
  expect(suite.code).toBe(2);
  expect(suite.stderr).toContain('unknown suite nope; known: files, io');
});
