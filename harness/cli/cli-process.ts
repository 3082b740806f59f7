// Test support: runs the touchstone command as a user would, in a child process.
import { spawn } from 'node:child_process';
import { PROJECT_ROOT } from '../core/suite-paths.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export const TOUCHSTONE_BIN = `${PROJECT_ROOT}bin/touchstone.js`;

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TOUCHSTONE_BIN, ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
