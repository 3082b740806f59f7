// The load generators and the noise policy every throughput ratio uses.
//
// Generator: wrk (Debian's `wrk`, a C program) when it is installed, else autocannon with a
// warning. On a 2-core machine a Node generator takes most of a core and its own overhead
// compresses every ratio toward 1 (measured: replay / bare http 0.86 with autocannon, 0.55
// with wrk, for the same code); wrk with one thread leaves the server a whole core.
// BENCH_LOAD_GENERATOR=wrk|autocannon chooses explicitly (wrk then must be installed).
//
// Noise: the machine is shared, so one long run per side would let a burst of someone
// else's work land on one side only. Instead every target of a comparison is warmed up,
// then measured in `rounds` short runs, alternating targets and rotating their order
// each round (A B C, B C A, C A B), and each target keeps its BEST run. Interference
// only ever subtracts throughput, so the best run is the closest to the uncontended
// figure, and every side gets the same number of equally placed chances. Five 3 s runs
// rather than three 5 s ones: the same 15 s per side, but more chances of a quiet window
// (measured: on a box with a load average of 3-4, single 5 s runs of the same server
// ranged from 7k to 24k req/s).
//
// Beside req/s, each run reads the server process's own CPU time (user + system) and
// reports CPU µs per request (median over the rounds). It is not a target, but it is far
// less sensitive to other people's load than throughput, so it tells whether a miss is
// the code or the neighbours.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { positiveEnvNumber } from './env-number.js';
import { ITEM_PREFIX, itemPath } from './item-fixture.js';

export type LoadGenerator = 'wrk' | 'autocannon';

export interface LoadSettings {
  generator: LoadGenerator;
  connections: number;
  /** Seconds per measured run. */
  durationS: number;
  /** Measured runs per target, alternated with the other targets. */
  rounds: number;
  /** Seconds of unmeasured load per target before the first round (JIT, caches, pools). */
  warmupS: number;
}

export const DEFAULT_LOAD: LoadSettings = { generator: 'autocannon', connections: 10, durationS: 3, rounds: 5, warmupS: 1 };

let hasWrk: boolean | undefined;
export const wrkInstalled = (): boolean => (hasWrk ??= spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined);

/** The generator BENCH_LOAD_GENERATOR names, else wrk when installed; a warning when it falls back to autocannon. */
export function chooseGenerator(env: NodeJS.ProcessEnv): { generator: LoadGenerator; warning?: string } {
  const asked = env.BENCH_LOAD_GENERATOR;
  if (asked !== undefined && asked !== 'wrk' && asked !== 'autocannon') throw new Error(`BENCH_LOAD_GENERATOR=${asked}: wrk or autocannon`);
  if (asked === 'wrk' && !wrkInstalled()) throw new Error('BENCH_LOAD_GENERATOR=wrk but wrk is not installed (apt-get install wrk)');
  if (asked) return { generator: asked };
  if (wrkInstalled()) return { generator: 'wrk' };
  return {
    generator: 'autocannon',
    warning:
      'wrk is not installed (apt-get install wrk): measuring with autocannon, which shares the cores with the servers and pulls every ratio toward 1',
  };
}

export function loadSettingsFromEnv(env: NodeJS.ProcessEnv): LoadSettings {
  return {
    generator: chooseGenerator(env).generator,
    connections: Math.round(positiveEnvNumber(env, 'BENCH_CONNECTIONS', DEFAULT_LOAD.connections)),
    durationS: positiveEnvNumber(env, 'BENCH_DURATION', DEFAULT_LOAD.durationS),
    rounds: Math.round(positiveEnvNumber(env, 'BENCH_ROUNDS', DEFAULT_LOAD.rounds)),
    warmupS: DEFAULT_LOAD.warmupS,
  };
}

export interface LoadTarget {
  label: string;
  url: string;
  /** Each request asks for /items/<n>, n uniformly random in 1..spread (1: always /items/1). */
  spread: number;
  /** Appended to every path: `?miss=1` asks a replay for what it never recorded. */
  query?: string;
  /** One path for every request instead of random items (spread is then ignored). */
  path?: string;
  /** Sent with every request (the reference refuses a request without a User-Agent). */
  headers?: Record<string, string>;
  /** The answers are expected misses (599): their status does not make the run bad. */
  expectMisses?: boolean;
  /** The CPU time of the process serving `url` (process.cpuUsage, µs). */
  cpuUsage?: () => Promise<NodeJS.CpuUsage>;
}

export interface RunResult {
  reqPerSec: number;
  /** Completed requests. */
  total: number;
  /** Non-2xx answers, socket errors and timeouts: any of them makes a figure suspect. */
  bad: number;
  /** Server CPU time per completed request, µs (when the target reports its CPU). */
  cpuUsPerRequest?: number;
}

export interface TargetResult {
  label: string;
  /** Best req/s over the rounds. */
  best: number;
  runs: number[];
  total: number;
  bad: number;
  /** Median server CPU µs per request over the rounds. */
  cpuUsPerRequest?: number;
}

/** One run of the settings' generator; the server's CPU time is read around it. */
export async function runLoad(
  target: LoadTarget,
  seconds: number,
  settings: Pick<LoadSettings, 'generator' | 'connections'>,
): Promise<RunResult> {
  const cpuBefore = await target.cpuUsage?.();
  const load =
    settings.generator === 'wrk'
      ? await runWrk(target, seconds, settings.connections)
      : await runAutocannon(target, seconds, settings.connections);
  const cpuAfter = cpuBefore && (await target.cpuUsage!());
  const cpuUs = cpuBefore && cpuAfter ? cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system : undefined;
  return { ...load, cpuUsPerRequest: cpuUs !== undefined && load.total > 0 ? cpuUs / load.total : undefined };
}

let wrkScripts: string | undefined;
/** Each target's Lua script, written once for all its rounds. */
const scriptOf = new WeakMap<LoadTarget, string>();

/**
 * A target's wrk script: a Lua `request` that asks for a random item (for spread 1 as well, so
 * every target costs wrk the same) or its fixed path, and a `done` that prints the counts as
 * one JSON line.
 */
function wrkScript(target: LoadTarget): string {
  const known = scriptOf.get(target);
  if (known) return known;
  if (!wrkScripts) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-wrk-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    wrkScripts = dir;
  }
  const script = path.join(wrkScripts, `target-${Math.random().toString(36).slice(2)}.lua`);
  const requestPath = target.path ? JSON.stringify(target.path) : `"${ITEM_PREFIX}" .. math.random(1, spread) .. "${target.query ?? ''}"`;
  const headers = Object.entries(target.headers ?? {})
    .map(([name, value]) => `[${JSON.stringify(name)}] = ${JSON.stringify(value)}`)
    .join(', ');
  writeFileSync(
    script,
    `local spread = ${Math.floor(target.spread)}
local headers = { ${headers} }
request = function()
  return wrk.format("GET", ${requestPath}, headers)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK-SUMMARY {"requests":%d,"duration_us":%d,"bad":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout + (${target.expectMisses ? 0 : 1} * e.status)))
end
`,
  );
  scriptOf.set(target, script);
  return script;
}

/** One wrk run: one thread, so the server keeps the other core. */
async function runWrk(target: LoadTarget, seconds: number, connections: number): Promise<Omit<RunResult, 'cpuUsPerRequest'>> {
  const script = wrkScript(target);
  const output = await new Promise<string>((resolve, reject) => {
    // wrk takes whole seconds only.
    const child = spawn(
      'wrk',
      ['-t1', `-c${connections}`, `-d${Math.max(1, Math.round(seconds))}s`, '--timeout', '10s', '-s', script, target.url],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`wrk exited ${code}: ${out}`))));
  });
  const line = /WRK-SUMMARY (\{.*\})/.exec(output)?.[1];
  if (!line) throw new Error(`wrk printed no summary: ${output}`);
  const { requests, duration_us, bad } = JSON.parse(line) as { requests: number; duration_us: number; bad: number };
  return { reqPerSec: duration_us > 0 ? requests / (duration_us / 1e6) : 0, total: requests, bad };
}

/** One autocannon run. Requests always go through setupRequest, so every target costs the generator the same. */
async function runAutocannon(target: LoadTarget, seconds: number, connections: number): Promise<Omit<RunResult, 'cpuUsPerRequest'>> {
  const { spread } = target;
  const result = await autocannon({
    url: target.url,
    connections,
    pipelining: 1,
    duration: seconds,
    headers: target.headers,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => ({
          ...req,
          path: target.path ?? `${itemPath(1 + Math.floor(Math.random() * spread))}${target.query ?? ''}`,
        }),
      },
    ],
  });
  const total = result.requests.total;
  const bad = (target.expectMisses ? 0 : result.non2xx) + result.errors + result.timeouts;
  return { reqPerSec: result.duration > 0 ? total / result.duration : 0, total, bad };
}

export async function compareTargets(
  targets: LoadTarget[],
  settings: LoadSettings,
  log: (line: string) => void = () => {},
): Promise<Map<string, TargetResult>> {
  const results = new Map<string, TargetResult>(targets.map((t) => [t.label, { label: t.label, best: 0, runs: [], total: 0, bad: 0 }]));
  const cpu = new Map<string, number[]>(targets.map((t) => [t.label, []]));
  // No warm-up is asked for by a smoke test (warmupS 0): wrk would round it up to a whole second.
  if (settings.warmupS > 0) {
    for (const target of targets) {
      const warm = await runLoad(target, settings.warmupS, settings);
      results.get(target.label)!.bad += warm.bad;
    }
  }
  for (let round = 0; round < settings.rounds; round++) {
    const order = targets.map((_, i) => targets[(i + round) % targets.length]);
    for (const target of order) {
      const run = await runLoad(target, settings.durationS, settings);
      const entry = results.get(target.label)!;
      entry.runs.push(run.reqPerSec);
      entry.best = Math.max(entry.best, run.reqPerSec);
      entry.total += run.total;
      entry.bad += run.bad;
      if (run.cpuUsPerRequest !== undefined) cpu.get(target.label)!.push(run.cpuUsPerRequest);
      const cpuNote = run.cpuUsPerRequest === undefined ? '' : `  ${run.cpuUsPerRequest.toFixed(0).padStart(4)} µs CPU/req`;
      log(
        `  round ${round + 1}/${settings.rounds}  ${target.label.padEnd(22)} ${run.reqPerSec.toFixed(0).padStart(7)} req/s${cpuNote}${run.bad ? `  (${run.bad} bad)` : ''}`,
      );
    }
  }
  for (const [label, samples] of cpu) if (samples.length) results.get(label)!.cpuUsPerRequest = median(samples);
  return results;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
