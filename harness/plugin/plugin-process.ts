// Runs a plugin (or any program speaking the plugin protocol) once: request bytes on
// stdin, everything it writes on stdout and stderr collected, bounded in time and size.
// The result is facts, never a verdict: the checks decide what a non-zero exit or a
// signal means for the case.
//
// Decisions where the brief is silent:
// - The plugin runs in its own process group, so a timeout kills it and anything it
//   started (a shell wrapper's child, npx's node) instead of leaving orphans behind.
// - A plugin may exit without reading stdin (protoc tolerates that, so do we): EPIPE
//   on the request write is ignored.
// - Output over the cap is a fact (truncated: true) and the process is killed; stderr
//   keeps only its first STDERR_KEEP bytes, since it is only ever shown to people.
import { spawn } from 'node:child_process';
import { HarnessError } from '../core/errors.js';

export interface PluginProcessOptions {
  timeoutMs: number;
  /** Most stdout bytes read before the plugin is killed. */
  maxOutputBytes: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export interface PluginProcessResult {
  /** Set when the process exited by itself. */
  exitCode: number | null;
  /** Set when a signal ended it (ours on timeout or overflow, or its own crash). */
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: Buffer;
  timedOut: boolean;
  /** stdout passed maxOutputBytes; what was read is kept. */
  truncated: boolean;
  /** The program could not be started (ENOENT, EACCES …). */
  spawnError?: string;
  durationMs: number;
}

export const STDERR_KEEP = 64 * 1024;

/** How a run ended, as reports say it: "exit 1", "killed by SIGSEGV" (a signal is no exit status), or our kill at --max-output. */
export function endedAs(result: Pick<PluginProcessResult, 'exitCode' | 'signal' | 'truncated' | 'stdout'>): string {
  if (result.truncated) return `more than ${result.stdout.length} bytes on stdout (--max-output), killed still writing`;
  return result.signal ? `killed by ${result.signal}` : `exit ${result.exitCode}`;
}

/**
 * Splits a command line like a POSIX shell would for plain words and quotes (no expansion).
 * Not shell-quote's parse(): it expands `$VAR` (to nothing when unset) and turns `|`, `>` or
 * `&&` into operator objects, so `--opt=a|b` would not reach the plugin as one word. The
 * command is run without a shell, and its words are exactly what the user quoted.
 */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < command.length && '"\\$`'.includes(command[i + 1])) word += command[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new HarnessError('USAGE', `unterminated ${quote} quote in command: ${command}`);
  if (inWord) words.push(word);
  if (words.length === 0) throw new HarnessError('USAGE', 'the plugin command is empty');
  return words;
}

export function runPluginProcess(command: string[], stdin: Uint8Array, options: PluginProcessOptions): Promise<PluginProcessResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let stdoutSize = 0;
    let stderrSize = 0;
    let timedOut = false;
    let truncated = false;
    let spawnError: string | undefined;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL'); // the group is gone already, or was never made
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);

    child.on('error', (error: NodeJS.ErrnoException) => {
      spawnError = `${command[0]}: ${error.code ?? error.message}`;
    });
    child.stdin.on('error', () => {}); // EPIPE: the plugin did not read its request
    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return;
      const room = options.maxOutputBytes - stdoutSize;
      if (chunk.length > room) {
        stdout.push(chunk.subarray(0, room));
        stdoutSize += room;
        truncated = true;
        return killGroup();
      }
      stdout.push(chunk);
      stdoutSize += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderrSize >= STDERR_KEEP) return;
      stderr.push(chunk.subarray(0, STDERR_KEEP - stderrSize));
      stderrSize += Math.min(chunk.length, STDERR_KEEP - stderrSize);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolve({
        exitCode: spawnError ? null : exitCode,
        signal,
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr),
        timedOut,
        truncated,
        ...(spawnError && { spawnError }),
        durationMs: performance.now() - started,
      });
    });
    child.stdin.end(stdin);
  });
}
