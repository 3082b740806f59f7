// The pieces `npm run bench:plugin` runs: a work folder holding a one-message schema and
// two canned plugins (one printing the big response, one printing nothing), an output
// folder per compiler under `outputRoot`, the command line of each compiler, a timed run,
// and the comparison of two output trees.
//
// Both canned plugins are the same two-line sh script over a different file, so they cost
// the same: read the request to the end (a plugin that ignores stdin would make each
// compiler's handling of EPIPE part of the figure), then print the prepared bytes.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEBIAN_PROTOC } from '../test-support/debian-protoc.js';
import { buildResponse, type ResponseShape } from './plugin-bench-response.js';

export type Compiler = 'protoc' | 'touchstone';
export type Answer = 'full' | 'empty';

export interface PluginBenchFixture {
  workDir: string;
  /** Bytes of the full response. */
  responseBytes: number;
  /** Argv of one run, to be started with `workDir` as cwd; `outDir` is emptied by `resetOutput`. */
  command(compiler: Compiler, answer: Answer, cpuProfileDir?: string): string[];
  outDir(compiler: Compiler): string;
  /** protoc never creates its output directory, so each run starts with an existing empty one. */
  resetOutput(compiler: Compiler): void;
}

const TOUCHSTONE_BIN = fileURLToPath(new URL('../bin/touchstone.js', import.meta.url));

export function createPluginBenchFixture(workDir: string, outputRoot: string, shape: ResponseShape): PluginBenchFixture {
  mkdirSync(path.join(workDir, 'protos'));
  writeFileSync(path.join(workDir, 'protos', 'bench.proto'), 'syntax = "proto3";\npackage bench;\nmessage M { int32 a = 1; }\n');
  const response = buildResponse(shape);
  const plugins: Record<Answer, string> = { full: path.join(workDir, 'protoc-gen-full'), empty: path.join(workDir, 'protoc-gen-empty') };
  for (const answer of ['full', 'empty'] as const) {
    const answerFile = path.join(workDir, `${answer}.bin`);
    writeFileSync(answerFile, answer === 'full' ? response : new Uint8Array(0));
    writeFileSync(plugins[answer], `#!/bin/sh\ncat >/dev/null\nexec cat '${answerFile}'\n`);
    chmodSync(plugins[answer], 0o755);
  }
  const outDir = (compiler: Compiler) => path.join(outputRoot, `out-${compiler}`);
  return {
    workDir,
    responseBytes: response.length,
    outDir,
    resetOutput: (compiler) => {
      rmSync(outDir(compiler), { recursive: true, force: true });
      mkdirSync(outDir(compiler));
    },
    command: (compiler, answer, cpuProfileDir) => {
      // The plugin is registered under one name for both answers, so the two command lines
      // differ only in the script's path.
      const args = ['-Iprotos', `--plugin=protoc-gen-canned=${plugins[answer]}`, `--canned_out=${outDir(compiler)}`, 'bench.proto'];
      if (compiler === 'protoc') return [DEBIAN_PROTOC, ...args];
      const profile = cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [];
      return [process.execPath, ...profile, TOUCHSTONE_BIN, 'protoc', ...args];
    },
  };
}

export interface TimedRun {
  wallMs: number;
  /** User + system CPU of the compiler and its plugin, from sh's `times` (10 ms ticks). */
  cpuMs: number | undefined;
  code: number | null;
  stderr: string;
}

/**
 * Runs argv under `sh -c` so that the shell's `times` builtin can report the CPU its
 * children used (Node gives no per-child rusage). Both compilers pay for the same shell;
 * the wall time runs from spawn to the end of the shell.
 */
export function timedRun(argv: string[], cwd: string): Promise<TimedRun> {
  const script = '"$@"; status=$?; times >&3; exit $status';
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn('/bin/sh', ['-c', script, 'sh', ...argv], { cwd, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    const stderr: Buffer[] = [];
    const times: Buffer[] = [];
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => times.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
      resolve({ wallMs, cpuMs: childrenCpuMs(Buffer.concat(times).toString()), code, stderr: Buffer.concat(stderr).toString() });
    });
  });
}

/** `times` prints the shell's own user and system time, then its children's: "0m1.230000s 0m0.040000s". */
function childrenCpuMs(text: string): number | undefined {
  const children = text.trim().split('\n')[1];
  const parts = children?.match(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/);
  if (!parts) return undefined;
  return (Number(parts[1]) * 60 + Number(parts[2]) + Number(parts[3]) * 60 + Number(parts[4])) * 1000;
}

/** Relative file paths under `root`, in byte order. */
export function listTree(root: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(name);
      else found.push(name);
    }
  };
  walk('');
  return found.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** The first difference between two output trees, or undefined when they are byte-identical. */
export function firstTreeDifference(expectedRoot: string, actualRoot: string): string | undefined {
  const expected = listTree(expectedRoot);
  const actual = listTree(actualRoot);
  for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
    if (expected[i] !== actual[i])
      return `file list differs at entry ${i}: ${expected[i] ?? '(none)'} in ${expectedRoot}, ${actual[i] ?? '(none)'} in ${actualRoot}`;
    const a = readFileSync(path.join(expectedRoot, expected[i]));
    const b = readFileSync(path.join(actualRoot, actual[i]));
    if (a.equals(b)) continue;
    let at = 0;
    while (at < a.length && at < b.length && a[at] === b[at]) at++;
    const around = (bytes: Buffer) => JSON.stringify(bytes.subarray(Math.max(0, at - 40), at + 40).toString('latin1'));
    return `${expected[i]} differs at byte ${at} (sizes ${a.length} and ${b.length}):\n  ${expectedRoot}: ${around(a)}\n  ${actualRoot}: ${around(b)}`;
  }
  return undefined;
}
