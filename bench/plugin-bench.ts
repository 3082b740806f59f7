// `npm run bench:plugin`: how long `touchstone protoc` takes to apply a big plugin response
// (1,000 files and 10,000 insertions into them) against Debian's protoc applying the same
// canned response, both measured in this run on this machine; and first, how long
// `touchstone --help` and the reference plugin take to start against a bare `node -e 0`
// (start-up.ts).
//
// Why two figures for protoc: `touchstone protoc` is a Node process, whose start-up alone
// (~0.1 s compiled, ~0.5 s from the TypeScript sources) dwarfs the work itself, while protoc
// starts in milliseconds. So each compiler is also timed on the same canned plugin answering
// an empty response, and the apply time is full run minus empty run: start-up, parsing the
// schema, building the request and running the plugin cancel out, leaving decoding the
// response, applying the insertions and writing the files. The whole run (start-up
// included) has a target of its own.
//
// Noise: the runs alternate compilers (protoc, touchstone, protoc, ...) and rotate between
// full and empty answers each round. A compiler's apply time is the median over rounds of
// (full − empty) measured in the same round: pairing runs made seconds apart cancels slow
// drifts of the machine, and the median ignores a round where one of the two was disturbed
// (best full minus best empty, tried first, let one lucky empty run push the figure past
// the target). The whole-run figures keep the best wall time, since interference only adds
// time. CPU time (from sh's `times`, all threads of the compiler and its plugin, 10 ms
// ticks) is printed beside it for information.
//
// Environment: BENCH_ROUNDS (7), BENCH_PLUGIN_FILES (1000), BENCH_PLUGIN_INSERTIONS_PER_FILE
// (10), BENCH_PLUGIN_OUTPUT_DIR (parent of the output folders; default /dev/shm, see
// outputParent), BENCH_CPU_PROFILE_DIR (write V8 CPU profiles of touchstone's full runs
// there; figures then not representative), BENCH_NO_FAIL=1 (report a miss but exit 0),
// BENCH_TIMEOUT_S (600), BENCH_NO_BUILD=1 (measure dist/ as it is, even when stale: ensure-build.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEBIAN_PROTOC } from '../test-support/debian-protoc.js';
import { ensureBuilt } from './ensure-build.js';
import { positiveEnvNumber } from './env-number.js';
import {
  createPluginBenchFixture,
  firstTreeDifference,
  listTree,
  timedRun,
  type Answer,
  type Compiler,
  type PluginBenchFixture,
} from './plugin-bench-fixture.js';
import { FULL_SHAPE } from './plugin-bench-response.js';
import { giveUpAfter, reportAndExit, type ResultRow } from './result-table.js';
import { measureStartUp } from './start-up.js';

const APPLY_RATIO_TARGET = 2;
const WHOLE_RUN_RATIO_TARGET = 5;
const MIB = 1024 * 1024;

const env = process.env;
const rounds = Math.round(positiveEnvNumber(env, 'BENCH_ROUNDS', 7));
const shape = {
  files: Math.round(positiveEnvNumber(env, 'BENCH_PLUGIN_FILES', FULL_SHAPE.files)),
  insertionsPerFile: Math.round(positiveEnvNumber(env, 'BENCH_PLUGIN_INSERTIONS_PER_FILE', FULL_SHAPE.insertionsPerFile)),
};
const cpuProfileDir = env.BENCH_CPU_PROFILE_DIR ? path.resolve(env.BENCH_CPU_PROFILE_DIR) : undefined;
const noFail = env.BENCH_NO_FAIL === '1';
const log = (line: string) => console.log(line);

if (!existsSync(DEBIAN_PROTOC)) {
  console.error(`bench:plugin needs protoc (apt-get install protobuf-compiler): ${DEBIAN_PROTOC} not found`);
  process.exit(2);
}
ensureBuilt(env, log);

const workDir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-plugin-bench-'));
const outputRoot = mkdtempSync(path.join(outputParent(), 'touchstone-plugin-bench-out-'));
// Bounded in time whatever happens, and the temp folder goes with it.
giveUpAfter(env, 600, removeTempFolders);

const rows: ResultRow[] = [];
const errors: string[] = [];
try {
  const fixture = createPluginBenchFixture(workDir, outputRoot, shape);
  const insertions = shape.files * shape.insertionsPerFile;
  const protocVersion = spawnSync(DEBIAN_PROTOC, ['--version'], { encoding: 'utf8' }).stdout.trim();
  log(`touchstone plugin bench — ${os.cpus().length} cores, node ${process.version}, ${protocVersion}; ${rounds} rounds per side`);
  log(`response: ${shape.files} files + ${insertions} insertions, ${(fixture.responseBytes / MIB).toFixed(2)} MiB`);
  log(`output written under ${outputRoot}`);
  if (cpuProfileDir) log(`CPU profiles of touchstone's runs go to ${cpuProfileDir}; figures are slowed by profiling`);
  rows.push(...(await measureStartUp(rounds * 3, log)));
  const problem = await checkSameOutput(fixture, shape.files);
  if (problem) errors.push(problem);
  else rows.push(...(await measure(fixture)));
} catch (error) {
  errors.push(`bench:plugin: ${(error as Error).stack ?? error}`);
} finally {
  removeTempFolders();
}
reportAndExit(rows, errors, { valueHeader: 'time', noFail });

/**
 * Where the compilers write. Creating a file on this machine's disk costs ~0.8 ms of kernel
 * time (strace: openat with O_CREAT), so on disk the 1,000 creations (identical system
 * calls for both compilers) would be most of either apply time and would swing between
 * rounds by hundreds of ms: the figure would measure the disk. A memory file system
 * (/dev/shm) leaves the compilers' own work. BENCH_PLUGIN_OUTPUT_DIR chooses another parent
 * folder, e.g. to measure on disk.
 */
function outputParent(): string {
  if (env.BENCH_PLUGIN_OUTPUT_DIR) return path.resolve(env.BENCH_PLUGIN_OUTPUT_DIR);
  return existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
}

function removeTempFolders(): void {
  rmSync(workDir, { recursive: true, force: true });
  rmSync(outputRoot, { recursive: true, force: true });
}

async function run(fixture: PluginBenchFixture, compiler: Compiler, answer: Answer, profile = false) {
  fixture.resetOutput(compiler);
  const result = await timedRun(fixture.command(compiler, answer, profile ? cpuProfileDir : undefined), fixture.workDir);
  if (result.code !== 0) throw new Error(`${compiler} (${answer} response) exited with ${result.code}:\n${result.stderr}`);
  return result;
}

/** One unmeasured run of each compiler: both must write the same bytes, and all of them. */
async function checkSameOutput(fixture: PluginBenchFixture, expectedFiles: number): Promise<string | undefined> {
  for (const compiler of ['protoc', 'touchstone'] as const) {
    await run(fixture, compiler, 'full');
    const written = listTree(fixture.outDir(compiler)).length;
    if (written !== expectedFiles) return `${compiler} wrote ${written} files, expected ${expectedFiles}`;
  }
  const difference = firstTreeDifference(fixture.outDir('protoc'), fixture.outDir('touchstone'));
  return difference && `the output trees differ (protoc first, touchstone protoc second): ${difference}`;
}

async function measure(fixture: PluginBenchFixture): Promise<ResultRow[]> {
  const order: Array<[Compiler, Answer]> = [
    ['protoc', 'full'],
    ['touchstone', 'full'],
    ['protoc', 'empty'],
    ['touchstone', 'empty'],
  ];
  const wall = new Map<string, number[]>();
  const cpu = new Map<string, number[]>();
  const key = (compiler: Compiler, answer: Answer) => `${compiler} ${answer}`;
  for (let round = 0; round < rounds; round++) {
    // Rotating a list that alternates compilers keeps them alternating across rounds too.
    for (let i = 0; i < order.length; i++) {
      const [compiler, answer] = order[(i + round) % order.length];
      const result = await run(fixture, compiler, answer, compiler === 'touchstone' && answer === 'full');
      push(wall, key(compiler, answer), result.wallMs);
      if (result.cpuMs !== undefined) push(cpu, key(compiler, answer), result.cpuMs);
      const cpuText = result.cpuMs === undefined ? '' : `  CPU ${result.cpuMs.toFixed(0).padStart(5)} ms`;
      log(
        `  round ${round + 1}/${rounds}  ${compiler.padEnd(10)} ${answer.padEnd(5)} ${result.wallMs.toFixed(1).padStart(8)} ms${cpuText}`,
      );
    }
  }
  const best = (compiler: Compiler, answer: Answer) => Math.min(...wall.get(key(compiler, answer))!);
  /** Median over rounds of full − empty; undefined when a figure was not measured every round. */
  const pairedMedian = (figures: Map<string, number[]>, compiler: Compiler) => {
    const full = figures.get(key(compiler, 'full')) ?? [];
    const empty = figures.get(key(compiler, 'empty')) ?? [];
    if (full.length !== rounds || empty.length !== rounds) return undefined;
    const differences = full.map((f, round) => f - empty[round]).sort((a, b) => a - b);
    const middle = Math.floor(rounds / 2);
    return rounds % 2 ? differences[middle] : (differences[middle - 1] + differences[middle]) / 2;
  };
  const apply = (compiler: Compiler) => pairedMedian(wall, compiler)!;
  const cpuApply = (compiler: Compiler) => pairedMedian(cpu, compiler);
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const [touchstoneApply, protocApply] = [apply('touchstone'), apply('protoc')];
  const valid = protocApply > 0 && touchstoneApply > 0;
  const applyRatio = touchstoneApply / protocApply;
  const [touchstoneCpu, protocCpu] = [cpuApply('touchstone'), cpuApply('protoc')];
  const cpuNote =
    touchstoneCpu === undefined || protocCpu === undefined
      ? ''
      : `CPU ${touchstoneCpu.toFixed(0)} vs ${protocCpu.toFixed(0)} ms (median of full - empty)`;
  const wholeRatio = best('touchstone', 'full') / best('protoc', 'full');
  return [
    {
      scenario: 'apply: touchstone protoc / protoc',
      value: ms(touchstoneApply),
      baseline: ms(protocApply),
      ratio: valid ? applyRatio.toFixed(2) : '-',
      target: `<= ${APPLY_RATIO_TARGET}`,
      pass: valid && applyRatio <= APPLY_RATIO_TARGET,
      note: valid ? cpuNote : 'an apply time is not positive (full run no slower than empty): figure invalid',
    },
    {
      scenario: 'whole run: touchstone protoc / protoc',
      value: ms(best('touchstone', 'full')),
      baseline: ms(best('protoc', 'full')),
      ratio: wholeRatio.toFixed(2),
      target: `<= ${WHOLE_RUN_RATIO_TARGET}`,
      pass: wholeRatio <= WHOLE_RUN_RATIO_TARGET,
      note: `empty response: ${ms(best('touchstone', 'empty'))} vs ${ms(best('protoc', 'empty'))}`,
    },
  ];
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  map.set(key, [...(map.get(key) ?? []), value]);
}
