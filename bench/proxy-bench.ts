// `npm run bench:proxy`: the proxy's performance targets, each a ratio measured in this
// one run against a baseline on the same machine, so the figures hold on any hardware.
//
// Process layout (why the servers are children): the machine may have only 2 cores and
// autocannon needs about one of them. If a server under test shared the generator's
// process, the generator's CPU would slow it and not the other side. So the generator
// runs here alone, and every server runs in its own `tsx` child (server-host.ts): the
// bare item server, each replay proxy, the bare http-proxy passthrough and the recording
// proxy. Both sides of every ratio are therefore measured the same way — a child server
// driven over loopback from this process — and only one side is under load at a time
// (idle children cost nothing). The record comparison has three busy processes on both
// sides (generator, proxy, upstream), so the two proxies compete with the same upstream.
//
// Noise: alternating best-of-N short runs, explained in load-runner.ts.
//
// Environment: BENCH_DURATION (seconds per measured run, default 3), BENCH_ROUNDS (5),
// BENCH_CONNECTIONS (10), BENCH_CASSETTE_SIZE (100000), BENCH_STREAM_MIB (1024),
// BENCH_ONLY (comma list of replay, record, stream), BENCH_CPU_PROFILE_DIR (write V8 CPU
// profiles of the proxy children there; the figures are then not representative),
// BENCH_NO_FAIL=1 (report misses but exit 0), BENCH_TIMEOUT_S (whole run, default 1200),
// BENCH_NO_BUILD=1 (measure dist/ as it is, even when stale: ensure-build.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measureRecord, measureReplay, measureStream, type StreamFigures } from './bench-scenarios.js';
import { ensureBuilt } from './ensure-build.js';
import { chooseGenerator, loadSettingsFromEnv } from './load-runner.js';
import { giveUpAfter, reportAndExit, throughputRow, type ResultRow } from './result-table.js';
import { startHost, type ServerHost } from './server-host-client.js';

const MIB = 1024 * 1024;
const TARGETS = {
  replayVsBare: 0.7,
  replayVsTalkback: 1.5,
  bigVsOne: 0.9,
  missVsHit: 0.2,
  bigLoadMs: 1000,
  recordVsHttpProxy: 0.6,
  streamGrowth: 128 * MIB,
};

const env = process.env;
const settings = loadSettingsFromEnv(env);
const only = new Set((env.BENCH_ONLY ?? 'replay,record,stream').split(',').map((s) => s.trim()));
const bigSize = Number(env.BENCH_CASSETTE_SIZE ?? 100_000);
const streamBytes = Number(env.BENCH_STREAM_MIB ?? 1024) * MIB;
const cpuProfileDir = env.BENCH_CPU_PROFILE_DIR ? path.resolve(env.BENCH_CPU_PROFILE_DIR) : undefined;
const noFail = env.BENCH_NO_FAIL === '1';
const log = (line: string) => console.log(line);

// Bounded in time whatever happens; children exit when this process does.
giveUpAfter(env, 1200);
ensureBuilt(env, log);

const rows: ResultRow[] = [];
const errors: string[] = [];
const workDir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-bench-'));
const mib = (n: number) => `${(n / MIB).toFixed(1)} MiB`;

const { warning: generatorWarning } = chooseGenerator(env);
log(
  `touchstone proxy bench — ${os.cpus().length} cores, node ${process.version}; ${settings.generator}, ${settings.rounds} × ${settings.durationS} s per side, ${settings.connections} connections`,
);
if (generatorWarning) console.warn(`warning: ${generatorWarning}`);
if (cpuProfileDir) log(`CPU profiles of the proxy children go to ${cpuProfileDir}; figures are slowed by profiling`);

let upstream: ServerHost | undefined;
try {
  upstream = await startHost({ kind: 'bare' });
  const context = { upstream, cpuProfileDir, log };

  if (only.has('replay')) {
    await scenario('replay', async () => {
      log(`\nreplay vs bare http server; ${bigSize}-interaction vs 1-interaction cassette`);
      const r = await measureReplay({ ...context, workDir: path.join(workDir, 'replay'), settings, bigSize });
      const invalid = r.misses > 0 ? `${r.misses} cassette misses: figure invalid` : undefined;
      rows.push(
        throughputRow('replay / bare http', r.replayOne, r.bare, TARGETS.replayVsBare, { invalid }),
        throughputRow('replay / talkback', r.replayOne, r.talkback, TARGETS.replayVsTalkback, { invalid }),
        throughputRow(`replay ${bigSize} / replay 1`, r.replayBig, r.replayOne, TARGETS.bigVsOne, { invalid }),
        throughputRow(`miss ${bigSize} / hit ${bigSize}`, r.missBig, r.replayBig, TARGETS.missVsHit, { note: 'explained misses' }),
      );
      rows.push({
        scenario: `load ${bigSize} cassette`,
        value: `${(r.loadMsBig / 1000).toFixed(2)} s`,
        baseline: `${(r.loadMsOne / 1000).toFixed(2)} s (1)`,
        ratio: '-',
        target: `< ${TARGETS.bigLoadMs / 1000} s`,
        pass: r.loadMsBig < TARGETS.bigLoadMs,
        note: 'createProxy + first answer',
      });
    });
  }

  if (only.has('record')) {
    await scenario('record', async () => {
      log('\nrecord vs bare http-proxy passthrough (same upstream)');
      const r = await measureRecord({ ...context, workDir: path.join(workDir, 'record'), settings, spread: bigSize });
      rows.push(throughputRow('record / http-proxy', r.record, r.httpProxy, TARGETS.recordVsHttpProxy, { note: `${r.recorded} recorded` }));
    });
  }

  if (only.has('stream')) {
    for (const direction of ['upload', 'download'] as const) {
      await scenario(`stream ${direction}`, async () => {
        log(`\n${mib(streamBytes)} streamed ${direction === 'upload' ? 'request' : 'response'} body through the recording proxy`);
        const streamDir = path.join(workDir, `stream-${direction}`);
        // Each recording holds a 1 GiB sidecar: removed at once, so the run needs 1 GiB of disk, not 2.
        const s = await measureStream({ ...context, workDir: streamDir, direction, bytes: streamBytes }).finally(() =>
          rmSync(streamDir, { recursive: true, force: true }),
        );
        log(
          `  ${s.seconds.toFixed(1)} s (${(s.bytes / MIB / s.seconds).toFixed(0)} MiB/s); RSS ${mib(s.memory.before)} -> peak ${mib(s.memory.peak)} over ${s.memory.samples} samples${kernelNote(s)}`,
        );
        rows.push({
          scenario: `1 GiB ${direction} RSS growth`.replace('1 GiB', streamBytes === 1024 * MIB ? '1 GiB' : mib(streamBytes)),
          value: mib(s.growth),
          baseline: `${mib(s.memory.before)} -> ${mib(s.memory.peak)}`,
          ratio: '-',
          target: `< ${mib(TARGETS.streamGrowth)}`,
          pass: s.growth < TARGETS.streamGrowth && s.recordedBodySize === s.bytes,
          note: s.recordedBodySize === s.bytes ? `${s.seconds.toFixed(1)} s` : `cassette recorded ${s.recordedBodySize} bytes`,
        });
      });
    }
  }
} catch (error) {
  errors.push(`setup: ${(error as Error).stack ?? error}`);
} finally {
  await upstream?.close().catch(() => undefined);
  rmSync(workDir, { recursive: true, force: true });
}

reportAndExit(rows, errors, { valueHeader: 'req/s or value', noFail });

async function scenario(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    errors.push(`${name}: ${(error as Error).stack ?? error}`);
  }
}

function kernelNote(s: StreamFigures): string {
  return s.memory.kernelPeak === undefined ? '' : ` (kernel high-water mark ${mib(s.memory.kernelPeak)})`;
}
