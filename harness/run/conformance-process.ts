// How every conformance run (service, plugin, compiler) starts: hand the run's configuration
// and its plan to a Playwright process (through private temp files: they may hold tokens), let
// the conformance reporter write the reports, and read the verdict back.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import type { Results } from '../core/results.js';
import { REPORT_FILES } from '../report/write-reports.js';
import { RUN_CONFIG_ENV, type RunConfig } from '../core/run-config.js';
import { PROJECT_ROOT } from '../core/suite-paths.js';
import { writeRunPlan, type RunPlan } from './run-plan.js';
// @ts-expect-error bin/entry.js is plain JavaScript (it runs before tsx is registered)
import { builtAndCurrent } from '../../bin/entry.js';

/**
 * The one Playwright configuration of every kind of run: compiled (dist/engine/, bin/build.ts)
 * while that build is current, by the rule bin/entry.js applies to the commands (so an edited
 * source is never shadowed by an older build), else the TypeScript. Playwright loads the
 * TypeScript module by module through its transform and loader hooks, in its runner and again
 * in every worker (about 1.5 s and 1 s on a 2-core machine); the bundle is a few files.
 */
function playwrightConfig(): string {
  return builtAndCurrent(PROJECT_ROOT, 'engine')
    ? path.join(PROJECT_ROOT, 'dist', 'engine', 'conformance.config.js')
    : path.join(PROJECT_ROOT, 'harness', 'run', 'conformance.config.ts');
}

const timestamp = (d: Date) =>
  d
    .toISOString()
    .replace(/:/g, '-')
    .replace(/\.\d+Z$/, 'Z');

/** --out, or reports/<timestamp> of the run's start. */
export function reportDirectory(out: string | undefined, startedAt: Date): string {
  return path.resolve(out ?? path.join('reports', timestamp(startedAt)));
}

/** Runs the planned cases under `config` and returns results.json. `scratch` is the run's private folder. */
export async function runConformance(config: RunConfig, plan: RunPlan, scratch: string): Promise<Results> {
  const configFile = path.join(scratch, 'run.json');
  const planFile = path.join(scratch, 'plan.json');
  writeRunPlan(planFile, plan);
  writeFileSync(configFile, JSON.stringify({ ...config, plan: planFile, playwrightOutput: path.join(scratch, 'playwright-output') }), {
    mode: 0o600,
  });
  rmSync(path.join(config.outDir, REPORT_FILES.results), { force: true });
  await runPlaywright(configFile, playwrightConfig(), config.colour === true);
  try {
    return JSON.parse(readFileSync(path.join(config.outDir, REPORT_FILES.results), 'utf8')) as Results;
  } catch {
    throw new HarnessError('CONFIG', `the run ended without writing ${REPORT_FILES.results}; see the output above`);
  }
}

function runPlaywright(configFile: string, playwrightConfig: string, colour: boolean): Promise<void> {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const child = spawn(process.execPath, [cli, 'test', '--config', playwrightConfig], {
    cwd: PROJECT_ROOT,
    stdio: 'inherit',
    // Playwright's own messages follow the CLI's colour decision too.
    env: { ...process.env, [RUN_CONFIG_ENV]: configFile, FORCE_COLOR: colour ? '1' : '0' },
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
