// Runs one plugin the way protoc 3.21's Subprocess does:
// - argv is argv[0] only: the registered path exactly as given (EXACT_NAME: execv, so a
//   bare "myplugin" means ./myplugin, never a PATH search), or "protoc-gen-NAME" looked up
//   in PATH (SEARCH_PATH: execvp);
// - cwd and environment are the compiler's; stderr is inherited;
// - the request is written to stdin while stdout is read, and a plugin that never reads
//   stdin still works: write errors (EPIPE) are ignored, as protoc ignores them;
// - the result is judged after stdout closes and the process is reaped.
// When exec fails, protoc's forked child prints "<argv0>: program not found or is not
// executable" plus a hint and exits 1; the same text and status are produced here. That
// includes a registered path whose file the kernel cannot run (ENOEXEC: a script without
// `#!`, an empty file): protoc's execv fails on it, while Node's spawn (execvp) would run it
// with /bin/sh. Such a file is told by its first bytes (looksRunnable); a format a Linux
// kernel runs through binfmt_misc is refused too, a plugin of that kind being rare.
// Two limits protoc does not have, so a broken plugin cannot hang or exhaust a CI job
// (both options, both documented in docs/commands.md): a timeout (default 60 s; protoc waits
// forever) and a cap on stdout (default 256 MiB; protoc buffers up to its 2 GiB parse
// limit). Either kills the plugin with SIGKILL and fails its run.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';

export const DEFAULT_PLUGIN_TIMEOUT_MS = 60_000;
export const DEFAULT_PLUGIN_OUTPUT_LIMIT = 256 * 1024 * 1024;

export interface PluginLaunch {
  program: string;
  /** true: look `program` up in PATH; false: execute exactly that path. */
  searchPath: boolean;
  request: Uint8Array;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  outputLimit: number;
  /** 'inherit' (the CLI), or a function that receives the plugin's stderr (tests). */
  stderr: 'inherit' | ((chunk: Uint8Array) => void);
}

export type PluginExit =
  | { kind: 'exited'; code: number; stdout: Buffer }
  | { kind: 'signaled'; signal: number; stdout: Buffer }
  | { kind: 'timed-out' }
  | { kind: 'output-limit' };

export function execFailureText(argv0: string): string {
  return (
    `${argv0}: program not found or is not executable\n` +
    'Please specify a program using absolute path or make sure the program is available in your PATH system variable\n'
  );
}

/** The text after "--NAME_out: protoc-gen-NAME: " for a run that did not end with status 0. */
export function describePluginExit(exit: PluginExit, launch: Pick<PluginLaunch, 'timeoutMs' | 'outputLimit'>): string | undefined {
  switch (exit.kind) {
    case 'exited':
      return exit.code === 0 ? undefined : `Plugin failed with status code ${exit.code}.`;
    case 'signaled':
      return `Plugin killed by signal ${exit.signal}.`;
    case 'timed-out':
      return `Plugin did not finish within ${launch.timeoutMs / 1000} s and was killed (touchstone's --plugin_timeout; protoc would wait indefinitely).`;
    case 'output-limit':
      return `Plugin wrote more than ${launch.outputLimit} bytes to standard output and was killed (touchstone's --plugin_output_limit).`;
  }
}

/** Magic numbers of what a kernel runs itself: `#!`, ELF, Mach-O (32/64 bits, either order, universal). */
const RUNNABLE = ['2321', '7f454c46', 'feedface', 'feedfacf', 'cefaedfe', 'cffaedfe', 'cafebabe'];

/**
 * Whether exec could load the file at `file` (false: ENOEXEC). A file that cannot be read
 * counts as runnable: spawn then reports what is wrong with it, as before.
 */
function looksRunnable(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return true;
  }
  try {
    const head = Buffer.alloc(4);
    const read = readSync(fd, head, 0, 4, 0);
    const hex = head.subarray(0, read).toString('hex');
    return RUNNABLE.some((magic) => hex.startsWith(magic));
  } catch {
    return true; // a directory, say: spawn fails on it with protoc's message
  } finally {
    closeSync(fd);
  }
}

function signalNumber(name: NodeJS.Signals): number {
  return (constants.signals as Record<string, number>)[name] ?? 0;
}

export function runPluginProcess(launch: PluginLaunch): Promise<PluginExit> {
  const writeStderr = (text: string) => (launch.stderr === 'inherit' ? process.stderr.write(text) : launch.stderr(Buffer.from(text)));
  const execFailed = (): PluginExit => {
    writeStderr(execFailureText(launch.program));
    return { kind: 'exited', code: 1, stdout: Buffer.alloc(0) };
  };
  // libuv, like execvp, searches PATH for any name without a '/': an exact relative path
  // gets "./" in front, while argv[0] stays as the user wrote it.
  const file = launch.searchPath || launch.program.includes('/') ? launch.program : `./${launch.program}`;
  if (launch.program === '' || launch.program.includes('\0')) return Promise.resolve(execFailed());
  if (!launch.searchPath && !looksRunnable(path.resolve(launch.cwd, file))) return Promise.resolve(execFailed());

  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (exit: PluginExit) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(exit);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(file, [], {
        argv0: launch.program,
        cwd: launch.cwd,
        env: launch.env,
        stdio: ['pipe', 'pipe', launch.stderr === 'inherit' ? 'inherit' : 'pipe'],
      });
    } catch {
      // Arguments Node refuses before trying exec (e.g. a NUL in the environment).
      return settle(execFailed());
    }
    let started = false;
    child.once('spawn', () => (started = true));
    child.on('error', () => {
      // After a successful spawn an 'error' can only come from kill(); the exit still follows.
      if (!started) settle(execFailed());
    });

    let exited = false;
    child.once('exit', () => (exited = true));
    const abort = (exit: PluginExit) => {
      child.stdout!.destroy();
      // Settled on 'exit', not on 'close', which a grandchild holding stdout open could delay
      // forever; a plugin that has exited already (its grandchild lingering) settles at once.
      if (exited) return settle(exit);
      child.once('exit', () => settle(exit));
      child.kill('SIGKILL');
    };
    // setTimeout fires at once beyond 2^31-1 ms; longer timeouts wait that long (24.8 days).
    timer = setTimeout(() => abort({ kind: 'timed-out' }), Math.min(launch.timeoutMs, 2 ** 31 - 1));

    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout!.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > launch.outputLimit) return abort({ kind: 'output-limit' });
      chunks.push(chunk);
    });
    if (launch.stderr !== 'inherit') child.stderr!.on('data', launch.stderr);

    child.stdin!.on('error', () => {
      // EPIPE and friends: the plugin stopped reading; its exit status tells the story.
    });
    child.stdin!.end(launch.request);

    child.on('close', (code, signal) => {
      if (!started) return;
      const stdout = Buffer.concat(chunks);
      if (signal) settle({ kind: 'signaled', signal: signalNumber(signal), stdout });
      else settle({ kind: 'exited', code: code ?? 0, stdout });
    });
  });
}
