// How every conformance run (service, plugin, compiler) starts: hand the run's configuration
// and its plan to a Playwright process (through private temp files: they may hold tokens), let
// the conformance reporter write the reports, and read the verdict back.
import { spawn } from 'node:child_process';
import { accessSync, constants, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import type { Outcome, Results } from '../core/results.js';
import { REPORT_FILES } from '../report/write-reports.js';
import { isLatestLink, REPORTS_DIR, updateLatestLink } from '../report/latest-link.js';
import { RUN_CONFIG_ENV, type RunConfig } from '../core/run-config.js';
import { PROJECT_ROOT } from '../core/suite-paths.js';
import { writeRunPlan, type RunPlan } from './run-plan.js';
// @ts-expect-error bin/entry.js is plain JavaScript (it runs before tsx is registered)
import { builtAndCurrent } from '../../bin/entry.js';
import { makeDirectory } from '../../lib/make-directory.js';

interface PlaywrightEntry {
  config: string;
  env: NodeJS.ProcessEnv;
}

/**
 * The one Playwright configuration of every kind of run: compiled (dist/engine/, bin/build.ts)
 * while that build is current, by the rule bin/entry.js applies to the commands (so an edited
 * source is never shadowed by an older build), else the TypeScript. Playwright loads the
 * TypeScript module by module through its transform and its ESM loader hooks (on Node 20 a
 * thread of their own, a round trip per module), in its runner and again in every worker.
 * Decision: the compiled engine is plain JavaScript, so Playwright's ESM loader is switched off
 * for it (PW_DISABLE_TS_ESM, Playwright's own switch, read by the version package.json pins):
 * Node loads it natively, and no process waits for the hooks' thread to start (measured:
 * `playwright test --list` ~0.5 s sooner). Were the switch gone, the loader would run as
 * before: slower, the same run.
 */
function playwrightEntry(): PlaywrightEntry {
  return builtAndCurrent(PROJECT_ROOT, 'engine')
    ? { config: path.join(PROJECT_ROOT, 'dist', 'engine', 'conformance.config.js'), env: { PW_DISABLE_TS_ESM: '1' } }
    : { config: path.join(PROJECT_ROOT, 'harness', 'run', 'conformance.config.ts'), env: {} };
}

const timestamp = (d: Date) =>
  d
    .toISOString()
    .replace(/:/g, '-')
    .replace(/\.\d+Z$/, 'Z');

/** --out, or reports/<timestamp> of the run's start; never the reports/latest link (it names an earlier run's folder). */
export function reportDirectory(out: string | undefined, startedAt: Date): string {
  if (out !== undefined && isLatestLink(out))
    throw new HarnessError(
      'USAGE',
      `--out ${out} is the link to the latest run's reports: writing there would overwrite that run; name another folder`,
    );
  const dir = path.resolve(out ?? path.join(REPORTS_DIR, timestamp(startedAt)));
  // Made and checked before any case runs: a folder that cannot hold the reports would
  // otherwise be found only once every case had run.
  try {
    makeDirectory(dir);
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new HarnessError(
      'USAGE',
      `${out === undefined ? 'the reports folder' : '--out'} ${out ?? dir} cannot hold the reports: ${(error as Error).message}`,
    );
  }
  return dir;
}

/** What the conformance reporter tells the CLI as each case ends (over the Playwright process's IPC channel). */
export interface CaseEnded {
  caseEnded: string;
  outcome: Outcome;
}

/**
 * Runs the planned cases under `config` and returns results.json. `scratch` is the run's private
 * folder; `onCaseEnd` hears of each case as it ends (run --record keeps its cassette then).
 */
export async function runConformance(
  config: RunConfig,
  plan: RunPlan,
  scratch: string,
  onCaseEnd?: (ended: CaseEnded) => void,
): Promise<Results> {
  const configFile = path.join(scratch, 'run.json');
  const planFile = path.join(scratch, 'plan.json');
  writeRunPlan(planFile, plan);
  writeFileSync(configFile, JSON.stringify({ ...config, plan: planFile, playwrightOutput: path.join(scratch, 'playwright-output') }), {
    mode: 0o600,
  });
  rmSync(path.join(config.outDir, REPORT_FILES.results), { force: true });
  await runPlaywright(configFile, playwrightEntry(), config.colour === true, onCaseEnd);
  let results: Results;
  try {
    results = JSON.parse(readFileSync(path.join(config.outDir, REPORT_FILES.results), 'utf8')) as Results;
  } catch {
    throw new HarnessError('CONFIG', `the run ended without writing ${REPORT_FILES.results}; see the output above`);
  }
  // Only a run that wrote its reports becomes the latest (report/latest-link.ts).
  updateLatestLink(config.outDir);
  return results;
}

function runPlaywright(configFile: string, entry: PlaywrightEntry, colour: boolean, onCaseEnd?: (ended: CaseEnded) => void): Promise<void> {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const child = spawn(process.execPath, [cli, 'test', '--config', entry.config], {
    cwd: PROJECT_ROOT,
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    // Playwright's own messages follow the CLI's colour decision too.
    env: { ...process.env, ...entry.env, [RUN_CONFIG_ENV]: configFile, FORCE_COLOR: colour ? '1' : '0' },
  });
  child.on('message', (message: Partial<CaseEnded>) => {
    if (typeof message?.caseEnded === 'string') onCaseEnd?.(message as CaseEnded);
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward).on('SIGTERM', forward);
  return new Promise((resolve, reject) => {
    child.on('error', (error) => reject(new HarnessError('CONFIG', `cannot start Playwright: ${error.message}`)));
    child.on('exit', () => {
      process.off('SIGINT', forward).off('SIGTERM', forward);
      resolve();
    });
  });
}
