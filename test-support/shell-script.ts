// Test support: a doc's commands run as a reader runs them (docs/validate-your-implementation.md
// in harness/cli/tutorial.test.ts, docs/ci.md's workflows in harness/cli/ci-workflows.test.ts):
// bash in a process group of its own, so that what it leaves running (a server started with
// `&`) can be ended with it; its output, both streams as a terminal interleaves them, kept in a
// file rather than a pipe, so that a process it left running cannot hold the run open; and a
// bound, after which the group is stopped and the output says so.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface ScriptRun {
  /** bash's exit code; null when it was stopped. */
  code: number | null;
  output: string;
  /** The process group, for endGroup when the run was asked to leave it running. */
  group: number;
}

export interface ScriptOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Milliseconds the script may take before its group is stopped. */
  bound: number;
  /** Leave what the script started in the background running (end it later with endGroup). */
  leaveRunning?: boolean;
}

/** Ends a process group and everything in it (SIGKILL); a group already gone is no error. */
export function endGroup(group: number): void {
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Runs `bash ...args` (e.g. ['-e', '-c', script]) in a process group of its own. */
export async function runScript(args: string[], options: ScriptOptions): Promise<ScriptRun> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-script-'));
  const file = path.join(dir, 'output');
  const fd = openSync(file, 'w');
  try {
    const child = spawn('bash', args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', fd, fd] });
    let stopped = '';
    const bound = setTimeout(() => {
      stopped = `\n[test: the script took over ${Math.round(options.bound / 1000)} s; stopped]`;
      endGroup(child.pid!);
    }, options.bound);
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (exitCode) => resolve(exitCode));
    }).finally(() => {
      clearTimeout(bound);
      if (!options.leaveRunning) endGroup(child.pid!);
    });
    return { code, output: readFileSync(file, 'utf8') + stopped, group: child.pid! };
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}
