// Test support: runs the touchstone command as a user would, in a child process.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { readWorldTokens } from '../harness/suite/world-tokens.js';
import { PROJECT_ROOT } from '../harness/core/suite-paths.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export const TOUCHSTONE_BIN = path.join(PROJECT_ROOT, 'bin', 'touchstone.js');

/** `bin` is another copy of the project's bin/touchstone.js. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string, bin = TOUCHSTONE_BIN): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd,
      // As a user's shell would start it: without the FORCE_COLOR Playwright gives its test
      // workers (in CI too), unless a test asks for it. A variable given as undefined is removed.
      env: Object.fromEntries(
        Object.entries({ ...process.env, FORCE_COLOR: undefined, ...env }).filter(([, value]) => value !== undefined),
      ),
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

/** The world's tokens as a --tokens file in `dir`, one of them (repo-admin) read from $ADMIN_TOKEN as CI would keep it. */
export function tokensFile(dir: string): string {
  const tokens = readWorldTokens();
  const lines = Object.entries(tokens).map(([role, token]) => (role === 'repo-admin' ? `${role}: \${ADMIN_TOKEN}` : `${role}: ${token}`));
  const file = path.join(dir, 'tokens.yaml');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** `touchstone serve` in a child process, with its URL once it listens. */
export async function startServe(args: string[] = []) {
  const server = spawn(process.execPath, [TOUCHSTONE_BIN, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    server.stdout!.once('data', (d: Buffer) => {
      const match = /^touchstone: serving (http:\/\/127\.0\.0\.1:\d+)/.exec(d.toString());
      if (match) resolve(match[1]!);
      else reject(new Error(`unexpected first line: ${d}`));
    });
  });
  const stop = async () => {
    server.kill('SIGTERM');
    return new Promise<number | null>((resolve) => server.once('exit', (c) => resolve(c)));
  };
  return { url, stop };
}
