// autocannon, driven programmatically, and the noise policy every throughput ratio uses.
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
import autocannon from 'autocannon';
import { positiveEnvNumber } from './env-number.js';
import { itemPath } from './item-fixture.js';

export interface LoadSettings {
  connections: number;
  /** Seconds per measured run. */
  durationS: number;
  /** Measured runs per target, alternated with the other targets. */
  rounds: number;
  /** Seconds of unmeasured load per target before the first round (JIT, caches, pools). */
  warmupS: number;
}

export const DEFAULT_LOAD: LoadSettings = { connections: 10, durationS: 3, rounds: 5, warmupS: 1 };

export function loadSettingsFromEnv(env: NodeJS.ProcessEnv): LoadSettings {
  return {
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

/** One autocannon run. Requests always go through setupRequest, so every target costs the generator the same. */
export async function runLoad(target: LoadTarget, seconds: number, connections: number): Promise<RunResult> {
  const { spread } = target;
  const cpuBefore = await target.cpuUsage?.();
  const result = await autocannon({
    url: target.url,
    connections,
    pipelining: 1,
    duration: seconds,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: itemPath(1 + Math.floor(Math.random() * spread)) }) }],
  });
  const total = result.requests.total;
  const cpuAfter = cpuBefore && (await target.cpuUsage!());
  const cpuUs = cpuBefore && cpuAfter ? cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system : undefined;
  return {
    reqPerSec: result.duration > 0 ? total / result.duration : 0,
    total,
    bad: result.non2xx + result.errors + result.timeouts,
    cpuUsPerRequest: cpuUs !== undefined && total > 0 ? cpuUs / total : undefined,
  };
}

export async function compareTargets(
  targets: LoadTarget[],
  settings: LoadSettings,
  log: (line: string) => void = () => {},
): Promise<Map<string, TargetResult>> {
  const results = new Map<string, TargetResult>(targets.map((t) => [t.label, { label: t.label, best: 0, runs: [], total: 0, bad: 0 }]));
  const cpu = new Map<string, number[]>(targets.map((t) => [t.label, []]));
  for (const target of targets) {
    const warm = await runLoad(target, settings.warmupS, settings.connections);
    results.get(target.label)!.bad += warm.bad;
  }
  for (let round = 0; round < settings.rounds; round++) {
    const order = targets.map((_, i) => targets[(i + round) % targets.length]);
    for (const target of order) {
      const run = await runLoad(target, settings.durationS, settings.connections);
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
