// Recorded plugin sessions (`touchstone plugin --record DIR` / `--replay DIR`): a store that
// stands in for the plugin process, handing runPluginCase a RunPlugin per case. The
// recorder runs the real process and saves every run; the replayer answers from the
// recording and never starts anything. The layout is in plugin-session-format.ts.
//
// Decisions where the brief is silent:
// - Recording into a directory that is neither empty nor a session is refused: re-recording
//   deletes case folders, and a typo in --record must not delete someone's files.
// - Re-recording over a session keeps the cases this run does not touch (`--suite io`
//   re-records io only); session.json is rewritten with the new command and limits.
// - A case's runs are recorded into a staging folder beside its own (stagingFolder), which
//   replaces the case's folder only once the case reached an outcome (finish): a case
//   interrupted, or ERROR, leaves the recording it had before, or none, never a part of one.
//   A case that started no run leaves its old folder too. A staging folder left by a kill is
//   cleared when that case records again.
// - Every file is written to a temp name and renamed, the .json last: its sha256 pair is
//   what makes a run complete, so a crash mid-case leaves a run replay calls damaged or
//   missing, never one it silently trusts.
// - Anything wrong with a recorded run (missing, stale, damaged) is a HarnessError thrown
//   from the run, which runPluginCase turns into ERROR for that case only; a bad
//   session.json fails the whole command, since nothing could be replayed.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import { writeFileAtomic } from '../core/write-file-atomic.js';
import type { RunPlugin } from './plugin-checks.js';
import { runPluginProcess, type PluginProcessOptions, type PluginProcessResult } from './plugin-process.js';
import {
  caseFolder,
  runFilesIn,
  stagingFolder,
  createSessionFormat,
  runFiles,
  SESSION_FILE,
  SESSION_FORMAT,
  SESSION_VERSION,
  sessionJson,
  sha256Hex,
  type RecordedRun,
  type SessionFormat,
  type SessionLimits,
  type SessionManifest,
} from './plugin-session-format.js';
import { readableRun } from './readable-run.js';
import { makeDirectory } from '../../lib/make-directory.js';

export interface PluginSession {
  readonly dir: string;
  /** The plugin command: as given when recording, as recorded when replaying. */
  readonly command: string[];
  /** The bounds of every run: as given when recording, as recorded when replaying. */
  readonly limits: SessionLimits;
  /** --parameter: as given when recording, as recorded when replaying (every request carried it). */
  readonly parameter?: string;
  /** The run function of one case, for PluginCaseContext.runPlugin. */
  runnerFor(suite: string, caseId: string): RunPlugin;
  /** The case is over: recording, its runs become its recording when it `reached` an outcome, else are dropped. */
  finish(suite: string, caseId: string, reached: boolean): void;
}

/** How the recorder starts the plugin; tests hand in a fake. */
export type StartPlugin = typeof runPluginProcess;

const RERECORD = 're-record with --record';

/**
 * Prepares `dir` for a recording (writing session.json unless it already says the same)
 * and returns a session whose runners run the plugin and save each run.
 */
/**
 * `limits` may carry the plugin's working directory; only the bounds are recorded. `parameter`
 * (--parameter) is recorded so that a replay rebuilds the same requests; `start` runs the plugin.
 */
export function createSessionRecorder(
  dir: string,
  command: string[],
  limits: PluginProcessOptions,
  { parameter, start = runPluginProcess }: { parameter?: string; start?: StartPlugin } = {},
): PluginSession {
  const format = createSessionFormat();
  const manifestFile = path.join(dir, SESSION_FILE);
  if (existsSync(manifestFile)) {
    readManifest(format, manifestFile); // refuses to record over anything that is not a session
  } else if (existsSync(dir) && listDir(dir).length > 0) {
    throw new HarnessError(
      'USAGE',
      `cannot record into ${dir}: it is not empty and holds no ${SESSION_FILE}; name an empty or new directory`,
    );
  }
  const manifest: SessionManifest = {
    format: SESSION_FORMAT,
    version: SESSION_VERSION,
    command,
    limits: { timeoutMs: limits.timeoutMs, maxOutputBytes: limits.maxOutputBytes },
    ...(parameter !== undefined && { parameter }),
  };
  writeIfChanged(manifestFile, sessionJson(manifest));

  return {
    dir,
    command,
    limits: manifest.limits,
    parameter,
    runnerFor(suite, caseId) {
      let started = false;
      return async (stdin, index) => {
        const staging = stagingFolder(dir, suite, caseId);
        if (!started) {
          started = true;
          attempt(staging, () => {
            rmSync(staging, { recursive: true, force: true });
            makeDirectory(staging);
          });
        }
        const result = await start(command, stdin, limits);
        const files = runFilesIn(staging, index + 1);
        const recorded: RecordedRun = {
          ...readableRun(stdin, result),
          sha256: { request: sha256Hex(stdin), stdout: sha256Hex(result.stdout) },
        };
        writeAtomic(files.request, stdin);
        writeAtomic(files.stdout, result.stdout);
        writeAtomic(files.json, sessionJson(recorded));
        return result;
      };
    },
    finish(suite, caseId, reached) {
      const staging = stagingFolder(dir, suite, caseId);
      if (!existsSync(staging)) return;
      const folder = caseFolder(dir, suite, caseId);
      attempt(folder, () => {
        if (reached) {
          rmSync(folder, { recursive: true, force: true });
          renameSync(staging, folder);
        } else rmSync(staging, { recursive: true, force: true });
      });
    },
  };
}

/** Opens a recorded session; its runners answer from the recording and never start a process. */
export function createSessionReplayer(dir: string): PluginSession {
  const format = createSessionFormat();
  const manifestFile = path.join(dir, SESSION_FILE);
  if (!existsSync(manifestFile))
    throw new HarnessError('USAGE', `${dir} holds no recorded plugin session (no ${SESSION_FILE}); record one with --record ${dir}`);
  const manifest = readManifest(format, manifestFile);
  return {
    dir,
    command: manifest.command,
    limits: manifest.limits,
    parameter: manifest.parameter,
    runnerFor(suite, caseId) {
      return async (stdin, index) => replayRun(format, dir, suite, caseId, index + 1, stdin);
    },
    finish: () => {},
  };
}

function replayRun(format: SessionFormat, dir: string, suite: string, caseId: string, run: number, stdin: Uint8Array): PluginProcessResult {
  const which = `${suite}/${caseId} run ${run}`;
  const files = runFiles(dir, suite, caseId, run);
  const recorded = format.parseRun(readRecorded(files.json, which).toString('utf8'), files.json);
  const request = readRecorded(files.request, which);
  const stdout = readRecorded(files.stdout, which);
  for (const [file, bytes, expected] of [
    [files.request, request, recorded.sha256.request],
    [files.stdout, stdout, recorded.sha256.stdout],
  ] as const) {
    if (sha256Hex(bytes) !== expected) {
      throw new HarnessError(
        'CONFIG',
        `the recording is damaged: ${file} does not match the sha256 in ${files.json} (edited or corrupted); ${RERECORD}, or update the sha256 after a deliberate edit`,
      );
    }
  }
  if (!request.equals(stdin)) {
    throw new HarnessError(
      'CONFIG',
      `the recording is stale: the request for ${suite}/${caseId} run ${run} differs from the recorded one (${stdin.length} bytes vs ${request.length} bytes${firstDifference(stdin, request)}); ${RERECORD}`,
    );
  }
  return {
    exitCode: recorded.exit.code,
    // The schema checks a signal's shape (SIG…), not that this Node knows its name: a recording
    // made elsewhere is replayed with the name it recorded, which results only quote.
    signal: recorded.exit.signal as NodeJS.Signals | null,
    stdout,
    stderr:
      recorded.stderr_base64 !== undefined ? Buffer.from(recorded.stderr_base64, 'base64') : Buffer.from(recorded.stderr ?? '', 'utf8'),
    timedOut: recorded.exit.timedOut,
    truncated: recorded.exit.truncated,
    ...(recorded.exit.spawnError !== undefined && { spawnError: recorded.exit.spawnError }),
    durationMs: 0,
  };
}

/** ", first difference at byte N", or nothing when one is a prefix of the other (the lengths say it). */
function firstDifference(a: Uint8Array, b: Uint8Array): string {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) if (a[i] !== b[i]) return `, first difference at byte ${i}`;
  return '';
}

function readManifest(format: SessionFormat, file: string): SessionManifest {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new HarnessError('CONFIG', `${file}: cannot read: ${(error as Error).message}`);
  }
  return format.parseManifest(text, file);
}

function readRecorded(file: string, which: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new HarnessError('CONFIG', `${which} is not recorded: ${file} does not exist; ${RERECORD}`);
    throw new HarnessError('CONFIG', `cannot read the recording ${file}: ${(error as Error).message}`);
  }
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    throw new HarnessError('USAGE', `cannot record into ${dir}: ${(error as Error).message}`);
  }
}

/** A temp name beside the file, then rename: a reader sees the old file or the new one, never half. */
function writeAtomic(file: string, data: Uint8Array | string): void {
  attempt(file, () => writeFileAtomic(file, data));
}

/** Rewriting an identical session.json would still churn its mtime for every worker that opens it. */
function writeIfChanged(file: string, text: string): void {
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined; // not there yet
  }
  if (current === text) return;
  attempt(path.dirname(file), () => makeDirectory(path.dirname(file)));
  writeAtomic(file, text);
}

function attempt(target: string, action: () => void): void {
  try {
    action();
  } catch (error) {
    throw new HarnessError('CONFIG', `cannot write the recording at ${target}: ${(error as Error).message}`);
  }
}
