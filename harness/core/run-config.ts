// What `touchstone run` hands to the Playwright process it starts: written to a private
// temp file (it holds tokens) whose path travels in TOUCHSTONE_RUN_CONFIG.
import { readFileSync } from 'node:fs';
import { HarnessError } from './errors.js';
import type { Recordings, RunKind } from './results.js';

export const RUN_CONFIG_ENV = 'TOUCHSTONE_RUN_CONFIG';

export interface RunConfig {
  kind: RunKind;
  /** The service's base URL, or the plugin or compiler command as given. */
  targetUrl: string;
  /**
   * Service runs in several workers: worker i (Playwright's parallel index) judges
   * targetUrls[i], a target state of its own. Absent: every case goes to targetUrl.
   */
  targetUrls?: string[];
  /** Colour on the console (report/console-colour.ts decided it for the CLI's stdout). */
  colour?: boolean;
  /** Cases run at once (default 1). */
  workers?: number;
  /** --shard i/n: this run is part `current` of `total` of the cases selected. */
  shard?: Shard;
  embedded: boolean;
  /** role -> token */
  tokens: Record<string, string>;
  /** Requests go through the record/replay proxy: each names its case's cassette. */
  cassettes: boolean;
  /** --record or --replay (service runs: through the proxy; plugin runs: a session folder), as reports name it. */
  recordings?: Recordings;
  /**
   * What reports show for each of targetUrls when those are the record/replay proxy's passing
   * ports (see Results' target.url): the real target when recording, the target the
   * recordings stand for when replaying. Absent: targetUrls themselves.
   */
  reportedUrls?: string[];
  /** Replay, --skip-unrecorded: the selected cases the recordings do not hold, SKIP without running. */
  unrecorded?: string[];
  suites: string[];
  /**
   * `suite/case` keys to run (--only), a pattern over keys and titles (--grep), and one whose
   * matches are left out (--grep-invert); none: every case of `suites`.
   */
  only?: string[];
  grep?: string;
  grepInvert?: string;
  /** The command that runs the same target again (`touchstone run --target … --tokens …`); reports add `--only <case>`. */
  rerun?: string;
  outDir: string;
  /** --reporter: the reports to write, names report/reporters.ts checked (parseReporters); absent, the default. */
  reporters?: string[];
  /** The run's plan (harness/run/run-plan.ts): its cases and their facts, the registry that grades them. */
  plan?: string;
  /** Playwright's own output folder: one per run (in its scratch folder), so runs side by side never clear each other's. */
  playwrightOutput?: string;
  strict: boolean;
  capabilities: string[];
  /** Service runs: each request's bound (--request-timeout) and each case's (--case-timeout); absent, the defaults below. */
  requestTimeoutMs?: number;
  caseTimeoutMs?: number;
  /** --max-failures: after this many FAIL cases the rest are not run; the workers count them in `failureCounter`, a file. */
  maxFailures?: number;
  failureCounter?: string;
  baselineFile?: string;
  startedAt: string;
  /**
   * Plugin runs. `record` or `replay` (absolute paths, never both) name a recorded session
   * directory (harness/plugin/plugin-session.ts); with `replay` nothing is started.
   */
  plugin?: TargetProcess & { record?: string; replay?: string } & PluginGiven;
  compiler?: TargetProcess;
}

export interface Shard {
  current: number;
  total: number;
}

/** Reads --shard's `i/n` (1 <= i <= n). */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const shard = match && { current: Number(match[1]), total: Number(match[2]) };
  if (!shard || shard.current < 1 || shard.current > shard.total)
    throw new HarnessError('USAGE', `--shard ${text} is not i/n with 1 <= i <= n (e.g. --shard 2/3)`);
  return shard;
}

/** The bounds of a service run unless --request-timeout and --case-timeout say otherwise. */
export const DEFAULT_REQUEST_TIMEOUT_S = 15;
export const DEFAULT_CASE_TIMEOUT_S = 60;

/** Reads an option of seconds (--request-timeout 2.5): a positive, finite number. */
export function parseSeconds(option: string, text: string | number): number {
  const seconds = typeof text === 'number' ? text : /^\s*$/.test(text) ? Number.NaN : Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new HarnessError('USAGE', `${option} ${text} is not a positive number of seconds (e.g. ${option} 10)`);
  return seconds;
}

/** Reads an option of a count (--max-failures 10): a positive whole number. */
export function parseCount(option: string, text: string): number {
  const count = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(count) || count < 1)
    throw new HarnessError('USAGE', `${option} ${text} is not a positive whole number (e.g. ${option} 10)`);
  return count;
}

/** What a plugin run gives the plugin besides its cases: --parameter, and the --proto files described. */
export interface PluginGiven {
  parameter?: string;
  own?: {
    /** file_to_generate of the requests naming {proto}. */
    files: string[];
    /** Each file of the set, as suites/plugin/fixture-descriptors.json holds the built-in ones. */
    descriptors: { name: string; dependency: string[]; descriptor: string }[];
  };
}

/** The program a plugin or compiler run starts for each case, and the bounds of each start. */
export interface TargetProcess {
  /** The command split into words. */
  command: string[];
  timeoutMs: number;
  maxOutputBytes: number;
  /** Where the user ran touchstone: the command's relative paths resolve from here. */
  cwd: string;
}

export function readRunConfig(): RunConfig {
  const file = process.env[RUN_CONFIG_ENV];
  if (!file) throw new HarnessError('USAGE', `${RUN_CONFIG_ENV} is not set: start conformance runs with \`touchstone run\``);
  return JSON.parse(readFileSync(file, 'utf8')) as RunConfig;
}
