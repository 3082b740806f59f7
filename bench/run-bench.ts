// `npm run bench:run`: what `touchstone run` costs beyond the HTTP exchanges it makes, and what a
// second worker gains. All figures are measured in this run, on this machine.
//
// 1. Record: one `touchstone run` (1 worker) goes to a reference service in a child process
//    through a logging pass-through in this process, which keeps every request as it arrives
//    (method, path, raw headers, body) and the status it got. The run is told the world's
//    tokens and --no-preflight, so it sends what a run against the embedded reference sends.
// 2. Bare replay (the baseline): a fresh reference (child process, its Git data built before it
//    answers, as the run's embedded reference does) gets exactly those requests again from a
//    bare node:http client in this process: one keep-alive connection, sequentially in the
//    order they arrived, each answer read to its end (to 32 MiB, the run's own bound). No
//    checks, no captures, no reports: only the exchanges.
// 3. The runs: `touchstone run` against its embedded reference, as a user starts it, with one
//    worker and with --workers 2; the wall time from start to exit.
//
// Figures: run (1 worker) / bare replay, the harness's overhead (target <= 2), and 1 worker /
// 2 workers, the second worker's speed-up (target >= 1.4). The run's time includes its start
// (the CLI, the embedded reference and its Git data, Playwright); the reference's start is shown
// for information beside it, measured in this run too.
//
// Environment: BENCH_ROUNDS (1: measured runs of each side, best kept), BENCH_SUITE (every
// suite; one suite name for a quick look), BENCH_NO_FAIL=1, BENCH_NO_BUILD=1, BENCH_TIMEOUT_S (1200).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Results } from '../harness/core/results.js';
import { PROJECT_ROOT } from '../harness/core/suite-paths.js';
import { readWorldTokens } from '../harness/suite/world-tokens.js';
import { ensureBuilt } from './ensure-build.js';
import { positiveEnvNumber } from './env-number.js';
import { giveUpAfter, reportAndExit, type ResultRow } from './result-table.js';
import { loadedFrom, startHost, type ServerHost } from './server-host-client.js';

const OVERHEAD_TARGET = 2;
const SPEED_UP_TARGET = 1.4;
/** The run's transport keeps this much of a body (harness/http/transport.ts MAX_BODY_BYTES); the bare client reads as much. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

const env = process.env;
const rounds = positiveEnvNumber(env, 'BENCH_ROUNDS', 1);
const suiteArgs = env.BENCH_SUITE ? ['--suite', env.BENCH_SUITE] : [];
const scratch = mkdtempSync(path.join(os.tmpdir(), 'touchstone-run-bench-'));
const hosts: ServerHost[] = [];
giveUpAfter(env, 1200, () => {
  for (const host of hosts) host.kill();
  rmSync(scratch, { recursive: true, force: true });
});
const log = (line: string) => console.log(line);
log(
  `touchstone run bench — ${os.cpus().length} cores, node ${process.version}; ${env.BENCH_SUITE ? `suite ${env.BENCH_SUITE}` : 'every suite'}`,
);
ensureBuilt(env, log);

interface Exchange {
  method: string;
  path: string;
  headers: [string, string][];
  body: Buffer;
  status: number;
}

/** The command as a user starts it (bench/ may not import the CLI's modules). */
function touchstone(args: string[]): Promise<{ code: number | null; output: string; wallS: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'touchstone.js'), ...args], {
    env: { ...process.env, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output, wallS: (performance.now() - started) / 1000 }));
  });
}

const readBody = (stream: http.IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });

const pairsOf = (raw: string[]): [string, string][] => {
  const pairs: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i], raw[i + 1]]);
  return pairs;
};

/** A pass-through to `upstream` that keeps every request it forwards, in the order they arrive. */
async function startRecorder(upstream: string): Promise<{ url: string; exchanges: Exchange[]; close(): Promise<void> }> {
  const target = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true });
  const exchanges: Exchange[] = [];
  const server = http.createServer((req, res) => {
    const exchange: Exchange = { method: req.method!, path: req.url!, headers: pairsOf(req.rawHeaders), body: Buffer.alloc(0), status: 0 };
    exchanges.push(exchange);
    readBody(req).then(
      (body) => {
        exchange.body = body;
        const forward = http.request(
          { host: target.hostname, port: target.port, method: exchange.method, path: exchange.path, headers: req.rawHeaders, agent },
          (answer) => {
            exchange.status = answer.statusCode ?? 0;
            res.writeHead(exchange.status, answer.rawHeaders);
            answer.pipe(res);
          },
        );
        forward.on('error', (error) => {
          res.writeHead(502).end(String(error));
        });
        forward.end(body);
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}

/** Sends the exchanges' requests to `base` one after another on one keep-alive connection; seconds, and how many got another status. */
async function bareReplay(base: string, exchanges: Exchange[]): Promise<{ seconds: number; otherStatus: number }> {
  const target = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let otherStatus = 0;
  const started = performance.now();
  for (const exchange of exchanges) {
    const headers = exchange.headers.map(([name, value]): [string, string] => [name, name.toLowerCase() === 'host' ? target.host : value]);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({
        host: target.hostname,
        port: target.port,
        method: exchange.method,
        path: exchange.path,
        headers: headers.flat(),
        agent,
      });
      req.on('error', reject);
      req.on('response', (res) => {
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) {
            req.destroy();
            resolve(res.statusCode ?? 0);
          }
        });
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.end(exchange.body);
    });
    if (status !== exchange.status) otherStatus++;
  }
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { seconds, otherStatus };
}

/** Wall time of the run, and the sum of its cases' own times (results.json duration_ms). */
async function timedRun(name: string, args: string[]): Promise<{ wallS: number; casesS: number }> {
  const out = path.join(scratch, name);
  const run = await touchstone(['run', ...suiteArgs, '--out', out, ...args]);
  if (run.code !== 0) throw new Error(`${name}: touchstone run exited ${run.code}\n${run.output.slice(-3000)}`);
  const { summary, cases } = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as Results;
  const casesS = cases.reduce((sum, c) => sum + (c.duration_ms ?? 0), 0) / 1000;
  log(`${name}: ${summary.total} cases, wall ${run.wallS.toFixed(2)} s, cases ${casesS.toFixed(2)} s`);
  return { wallS: run.wallS, casesS };
}

const rows: ResultRow[] = [];
const errors: string[] = [];
try {
  // 1. The run's exchanges.
  const recordedHost = await startHost({ kind: 'reference', warmGit: true }, { startTimeoutMs: 180_000 });
  hosts.push(recordedHost);
  log(loadedFrom(recordedHost, 'reference', 'touchstone run'));
  const recorder = await startRecorder(recordedHost.url);
  const tokens = path.join(scratch, 'tokens.yaml');
  writeFileSync(
    tokens,
    Object.entries(readWorldTokens())
      .map(([role, token]) => `${JSON.stringify(role)}: ${JSON.stringify(token)}\n`)
      .join(''),
  );
  const recording = await touchstone([
    'run',
    ...suiteArgs,
    '--target',
    recorder.url,
    '--tokens',
    tokens,
    '--no-preflight',
    '--out',
    path.join(scratch, 'recording'),
  ]);
  await recorder.close();
  await recordedHost.close();
  if (recording.code !== 0) throw new Error(`the recording run exited ${recording.code}\n${recording.output.slice(-3000)}`);
  const { exchanges } = recorder;
  const bytes = exchanges.reduce((n, e) => n + e.body.length, 0);
  log(`recorded: ${exchanges.length} requests (${(bytes / 1024 / 1024).toFixed(1)} MiB of request bodies)`);

  // 2 and 3, alternated round by round; the best of each kept.
  const bare: number[] = [];
  const starts: number[] = [];
  const one: number[] = [];
  const two: number[] = [];
  const casesOne: number[] = [];
  let otherStatus = 0;
  for (let round = 1; round <= rounds; round++) {
    const started = performance.now();
    const host = await startHost({ kind: 'reference', warmGit: true }, { startTimeoutMs: 180_000 });
    hosts.push(host);
    starts.push((performance.now() - started) / 1000);
    const replay = await bareReplay(host.url, exchanges);
    await host.close();
    bare.push(replay.seconds);
    otherStatus = Math.max(otherStatus, replay.otherStatus);
    log(
      `bare replay ${round}: ${exchanges.length} requests in ${replay.seconds.toFixed(2)} s (${replay.otherStatus} with another status than recorded)`,
    );
    const single = await timedRun(`run-1-worker-${round}`, []);
    one.push(single.wallS);
    casesOne.push(single.casesS);
    two.push((await timedRun(`run-2-workers-${round}`, ['--workers', '2'])).wallS);
  }
  // A replay that mostly got other answers did other work than the run: no baseline.
  if (otherStatus > exchanges.length / 100)
    throw new Error(`the bare replay got another status than the run for ${otherStatus} of ${exchanges.length} requests`);
  const best = (values: number[]) => Math.min(...values);
  /** A row of seconds against seconds; `target` a bound on the ratio (at most, or at least), else shown for information. */
  const secondsRow = (
    scenario: string,
    value: number,
    baseline: number,
    note: string,
    target?: { at: 'most' | 'least'; bound: number },
  ) => {
    const ratio = value / baseline;
    rows.push({
      scenario,
      value: `${value.toFixed(2)} s`,
      baseline: Number.isNaN(baseline) ? '-' : `${baseline.toFixed(2)} s`,
      ratio: Number.isNaN(ratio) ? '-' : ratio.toFixed(2),
      target: target ? `${target.at === 'most' ? '<=' : '>='} ${target.bound}` : '-',
      pass: !target || (target.at === 'most' ? ratio <= target.bound : ratio >= target.bound),
      info: !target,
      note,
    });
  };
  secondsRow(
    'run (1 worker) / bare replay',
    best(one),
    best(bare),
    `${exchanges.length} requests; the run's wall time includes its start`,
    {
      at: 'most',
      bound: OVERHEAD_TARGET,
    },
  );
  secondsRow('run: 1 worker / 2 workers', best(one), best(two), 'the speed-up of --workers 2', { at: 'least', bound: SPEED_UP_TARGET });
  secondsRow('run (2 workers) / bare replay', best(two), best(bare), '');
  secondsRow(
    'cases (1 worker) / bare replay',
    best(casesOne),
    best(bare),
    "the cases' own times summed: the run without its start and reports",
  );
  secondsRow(
    'reference start (world, Git data)',
    best(starts),
    Number.NaN,
    'the embedded reference pays it at the start of every run above',
  );
} catch (error) {
  errors.push((error as Error).message);
} finally {
  for (const host of hosts) host.kill();
  rmSync(scratch, { recursive: true, force: true });
}
reportAndExit(rows, errors, { valueHeader: 'value', noFail: env.BENCH_NO_FAIL === '1' });
