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

/**
 * The environment of a command as a user's shell would start it: without the FORCE_COLOR
 * Playwright gives its test workers (in CI too), unless a test asks for it. A variable given
 * as undefined is removed.
 */
function userEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries({ ...process.env, FORCE_COLOR: undefined, ...env }).filter(([, value]) => value !== undefined));
}

/** `bin` is another copy of the project's bin/touchstone.js. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string, bin = TOUCHSTONE_BIN): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: userEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
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

/**
 * A touchstone command that serves until it is stopped (`serve`, `report show`), in a child
 * process: the URL its first line of output names (`touchstone: serving … http://127.0.0.1:PORT…`),
 * what it wrote on stderr so far (`stderr: 'pipe'`), and stop(), which sends `signal` and gives
 * the exit code.
 */
export async function startServing(
  args: string[],
  { env = {}, cwd, stderr = 'inherit' }: { env?: NodeJS.ProcessEnv; cwd?: string; stderr?: 'inherit' | 'pipe' } = {},
) {
  const server = spawn(process.execPath, [TOUCHSTONE_BIN, ...args], { cwd, env: userEnv(env), stdio: ['ignore', 'pipe', stderr] });
  let written = '';
  server.stderr?.on('data', (d) => (written += d));
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    server.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!stdout.includes('\n')) return;
      const match = /^touchstone: serving .*?(http:\/\/127\.0\.0\.1:\d+\S*)/.exec(stdout);
      if (match) resolve(match[1]!);
      else reject(new Error(`unexpected first line: ${stdout}`));
    });
    void exited.then((code) => reject(new Error(`exited with ${code} before serving: ${stdout}${written}`)));
  });
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    server.kill(signal);
    return exited;
  };
  return { url, stop, stderr: () => written };
}

/** `touchstone serve` in a child process, with its URL (the origin) once it listens. */
export async function startServe(args: string[] = []) {
  return startServing(['serve', '--port', '0', ...args]);
}
