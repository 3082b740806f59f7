// Smoke test of the benchmark's scenarios at toy sizes. No timing is asserted (the
// machine is shared; timing belongs to `npm run bench:proxy`): only that the helpers
// finish, report positive figures, and that the recording proxy wrote what it was sent.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loadCassetteFile } from '../harness/cassette/cassette-load.js';
import { skipUnlessInstalled } from '../test-support/required-tool.js';
import { measureRecord, measureReplay, measureStream } from './bench-scenarios.js';
import { wrkInstalled } from './load-runner.js';
import { itemJson } from './item-fixture.js';

let workDir: string;
test.beforeEach(() => {
  workDir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-bench-test-'));
});
test.afterEach(() => rmSync(workDir, { recursive: true, force: true }));

test('the streamed-body helper carries 8 MiB each way through a recording proxy and reports its memory', async () => {
  test.setTimeout(120_000); // hosts that compile TypeScript start slowly beside the kill matrix in .ci/run
  const bytes = 8 * 1024 * 1024;
  for (const direction of ['upload', 'download'] as const) {
    const figures = await measureStream({ workDir, direction, bytes, timeoutMs: 30_000 });
    expect(figures.bytes).toBe(bytes);
    expect(figures.seconds).toBeGreaterThan(0);
    expect(figures.memory.before).toBeGreaterThan(0);
    // The report is read, not judged (the budget is bench:proxy's): the kernel's high-water mark
    // (VmHWM, Linux, the machines touchstone runs on) was parsed. It is not compared with the
    // sampled peak: the kernel updates it lazily.
    expect(figures.memory.kernelPeak).toBeGreaterThan(0);
    expect(figures.recordedBodySize).toBe(bytes);
    const interactions = loadCassetteFile(figures.cassetteFile).interactions;
    expect(interactions.map((i) => `${i.request.method} ${i.request.url}`)).toEqual([
      'GET /items/1',
      direction === 'upload' ? 'POST /sink' : `GET /stream/${bytes}`,
    ]);
  }
});

for (const generator of ['wrk', 'autocannon'] as const) {
  test(`${generator}: the replay helper measures bare http, talkback and both replays with no miss and no bad answer`, async () => {
    // Five server hosts start one after another, each compiling TypeScript: in .ci/run, niced
    // beside the kill matrix, that took over a minute once. Nothing here is timed.
    test.setTimeout(240_000);
    if (generator === 'wrk') skipUnlessInstalled(test, wrkInstalled(), 'wrk not found: apt-get install wrk', 'TOUCHSTONE_REQUIRE_WRK');
    const figures = await measureReplay({
      workDir,
      bigSize: 50,
      loadTries: 1,
      settings: { generator, connections: 4, durationS: 0.5, rounds: 1, warmupS: 0 },
    });
    for (const side of [figures.bare, figures.talkback, figures.replayOne, figures.replayBig]) {
      expect(side.best, side.label).toBeGreaterThan(0);
      expect(side.bad, side.label).toBe(0);
    }
    expect(figures.misses).toBe(0);
  });
}

test('the throughput helper compares record with http-proxy and the cassette holds every answered request', async () => {
  test.setTimeout(120_000); // hosts that compile TypeScript start slowly beside the kill matrix in .ci/run
  const figures = await measureRecord({
    workDir,
    spread: 50,
    settings: { generator: 'autocannon', connections: 4, durationS: 1, rounds: 1, warmupS: 0.2 },
  });
  expect(figures.record.best).toBeGreaterThan(0);
  expect(figures.httpProxy.best).toBeGreaterThan(0);
  expect(figures.record.bad + figures.httpProxy.bad).toBe(0);

  const interactions = loadCassetteFile(figures.cassetteFile).interactions;
  expect(interactions.length).toBe(figures.recorded);
  // In-flight requests at the end of a run are recorded but not counted by autocannon.
  expect(interactions.length).toBeGreaterThanOrEqual(figures.record.total);
  // One assertion over all of them: thousands of expect() calls would dominate the test.
  const wrong = interactions.filter((interaction) => {
    const n = Number(/^\/items\/(\d+)$/.exec(interaction.request.url)?.[1]);
    const body = interaction.response.body;
    return !(
      n >= 1 &&
      n <= 50 &&
      interaction.response.status === 200 &&
      body &&
      'json' in body &&
      JSON.stringify(body.json) === itemJson(n)
    );
  });
  expect(wrong).toEqual([]);
});
