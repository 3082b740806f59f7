// Smoke test of bench:plugin's pieces at a toy size. No timing is asserted (timing belongs
// to `npm run bench:plugin`): only that the canned response is what the bench says it is,
// and that protoc and touchstone protoc write the same bytes for it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { decodeResponse } from '../harness/protocol/plugin-codec.js';
import { skipWithoutDebianProtoc } from '../test-support/debian-protoc.js';
import { createPluginBenchFixture, firstTreeDifference, listTree, timedRun } from './plugin-bench-fixture.js';
import { buildResponse, generatedFileBody, generatedFileName } from './plugin-bench-response.js';

let workDir: string;
test.beforeEach(() => {
  workDir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-plugin-bench-test-'));
});
test.afterEach(() => rmSync(workDir, { recursive: true, force: true }));

test('the canned response holds the files, then insertions into them, 40-80 lines each', () => {
  const response = decodeResponse(buildResponse({ files: 50, insertionsPerFile: 3 }));
  expect(response.supported_features).toBe(1n);
  expect(response.file).toHaveLength(50 + 150);
  expect(response.file.slice(0, 50).every((f, i) => f.name === generatedFileName(i) && f.insertion_point === undefined)).toBe(true);
  expect(response.file.slice(50).every((f) => f.insertion_point !== undefined)).toBe(true);
  for (let i = 0; i < 50; i++) {
    const lines = generatedFileBody(i).split('\n').length - 1;
    expect(lines).toBeGreaterThanOrEqual(40);
    expect(lines).toBeLessThanOrEqual(80);
  }
});

test('protoc and touchstone protoc write the same tree for a small canned response', async () => {
  skipWithoutDebianProtoc(test);
  test.setTimeout(60_000);
  const fixture = createPluginBenchFixture(workDir, workDir, { files: 20, insertionsPerFile: 10 });
  for (const compiler of ['protoc', 'touchstone'] as const) {
    fixture.resetOutput(compiler);
    const run = await timedRun(fixture.command(compiler, 'full'), fixture.workDir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.wallMs).toBeGreaterThan(0);
    expect(listTree(fixture.outDir(compiler))).toHaveLength(20);
  }
  expect(firstTreeDifference(fixture.outDir('protoc'), fixture.outDir('touchstone'))).toBeUndefined();
  const first = readFileSync(path.join(fixture.outDir('touchstone'), generatedFileName(0)), 'utf8');
  // The 10 insertions landed: each leaves a "// inserted k" line.
  expect(first.match(/\/\/ inserted \d+ into/g)).toHaveLength(10);
});
