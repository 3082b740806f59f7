// Compiles the commands to JavaScript in dist/ (`npm run build`; npm runs it as the package's
// prepare step on `npm ci` and `npm install`, and before packing), so that they do not start by
// compiling TypeScript (tsx costs ~0.2 s per start). bin/entry.js runs the build while it is
// newer than every source file it was built from, and the sources otherwise.
//
// What is built, and why (start-up figures: bench/README.md, bench:plugin):
// - dist/touchstone.cjs: harness/cli/main.ts and yargs, nothing else: `touchstone --help`, a
//   usage error and the dispatch to a command need no more.
// - dist/commands/<file>.js: each command file main.ts loads (run, serve, …), ES modules
//   sharing chunks, loaded when that command runs.
// - dist/commands/service.js and proxy-server.js: the reference service (createReferenceService,
//   loadWorld) and the proxy (createProxy) as modules, the code `touchstone serve` and
//   `touchstone proxy` run: bench:service and bench:proxy measure them, not the sources.
// - dist/commands/reference-thread.js: the worker thread that serves one lane of a run with
//   several workers (harness/cli/embedded-reference.ts, startReferenceThread).
// - dist/commands/protoc.cjs: `touchstone protoc`, whole: compilers are run many times in a
//   build, so its start counts like the plugin's.
// - dist/protoc-gen-touchstone.cjs: the reference plugin, whole.
// - Those three are CommonJS because Node 20 keeps no compiled code between runs of an ES
//   module, while bin/entry.js can give a CommonJS script V8's code cache (saved beside it at
//   the first run; the build makes that run): yargs, protobufjs and the compiler compile once,
//   not at every start (measured: `touchstone protoc` 20 ms faster). The other commands stay
//   ES modules: the reference service they start awaits libsodium at its top level, which
//   CommonJS cannot, and a run of seconds does not feel 20 ms.
// - yargs and protobufjs are bundled (one file parses faster than their dozens of modules, on
//   every start); every other package stays in node_modules and is loaded as it is. yargs'
//   string-width is the exception: lib/ascii-string-width.ts stands in for it (measured:
//   `touchstone --help` 95 -> 65 ms, 1.87 -> 1.31 of a bare `node -e 0`).
// - dist/engine/: the run engine's Playwright entry files (harness/run/conformance.config.ts,
//   conformance.spec.ts, conformance-reporter.ts), ES modules sharing chunks, each kind's worker
//   a chunk of its own (loaded by that kind's runs only). Every run hands them to Playwright
//   (harness/run/conformance-process.ts) while they are current: Playwright loads each module
//   of the TypeScript through its transform and loader hooks, one by one, in its runner and in
//   every worker; the bundle is a few files, and its packages are bundled with it (ENGINE_EXTERNAL).
// - dist/commands/api.js: the library (`import { run } from 'touchstone'`, package.json's exports),
//   and dist/types/: its declarations, written by tsc (tsconfig.types.json) while esbuild builds.
// - Data files (schemas, suites, plugin.proto) stay where they are: lib/project-files.ts finds
//   them from the project's root, at any depth of dist/.
// - For a stack trace against the TypeScript, TOUCHSTONE_FROM_SOURCE=1 runs the sources.
// Usage: npm run build (tsx bin/build.ts).
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { COMMAND_FILES } from '../harness/cli/main.js';
// @ts-expect-error bin/entry.js is plain JavaScript (it runs before tsx is registered)
import { BUILD_PARTS, fileDigest } from './entry.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUNDLED_PACKAGES = ['yargs', 'protobufjs'];

/** yargs measures its help texts with lib/ascii-string-width.ts, not string-width (see there). */
const asciiStringWidth: esbuild.Plugin = {
  name: 'ascii-string-width',
  setup(build) {
    build.onResolve({ filter: /^string-width$/ }, () => ({ path: path.join(ROOT, 'lib', 'ascii-string-width.ts') }));
  },
};

function common(): esbuild.BuildOptions {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
  return {
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    target: 'node20.19',
    external: Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies }).filter((name) => !BUNDLED_PACKAGES.includes(name)),
    // Names are kept, so a stack trace from dist/ still names its functions (a source map
    // would not help: node applies none to the CommonJS entries, run through node:vm).
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [asciiStringWidth],
  };
}

/** The run engine's Playwright entry files (harness/run/<file>.ts), built into dist/engine/. */
const ENGINE_FILES = ['conformance.config', 'conformance.spec', 'conformance-reporter'];
/**
 * The packages dist/engine/ leaves in node_modules. Under Playwright every module a process
 * loads goes through its loader hooks, a round trip to the hooks' thread each, in the runner and
 * in every worker; typebox (373 modules), ajv (86) and yaml (72) are most of what the engine
 * loads, so the engine bundles its packages, unlike the commands. Playwright stays out (its
 * test API must be the runner's own copy), libsodium-wrappers (two modules, megabytes), and
 * write-file-atomic (CommonJS that names its temp files after __filename, which an ES module
 * bundle does not have: every report write threw).
 */
const ENGINE_EXTERNAL = ['@playwright/test', 'libsodium-wrappers', 'write-file-atomic'];

/**
 * Fails the build if the engine's bundle breaks what the sources promise: a service run loads
 * no protobufjs (engine-test.ts loads each kind's worker lazily: its own chunk here), and
 * Playwright's test API is the runner's own copy in node_modules, never a bundled second one
 * (a test registered with another copy is not seen by the runner).
 */
function checkEngine(result: esbuild.BuildResult): void {
  const outputs = result.metafile?.outputs ?? {};
  const statically = (start: string[]) => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file) || !outputs[file]) return;
      seen.add(file);
      for (const imported of outputs[file].imports) if (imported.kind === 'import-statement') visit(imported.path);
    };
    for (const file of start) visit(file);
    return [...seen];
  };
  const loadedBy = (loaded: string[]) =>
    loaded.flatMap((file) => [
      ...Object.keys(outputs[file]!.inputs),
      ...outputs[file]!.imports.filter((imported) => imported.external).map((imported) => imported.path),
    ]);
  // What a service run loads: the entry files, and the chunk of its kind's worker (each kind's
  // worker, a dynamic import, is an entry of its own in the metafile).
  const serviceEntries = [...ENGINE_FILES, 'service-kind'].map((file) => `harness/run/${file}.ts`);
  const starts = Object.entries(outputs)
    .filter(([, output]) => output.entryPoint !== undefined && serviceEntries.includes(output.entryPoint))
    .map(([file]) => file);
  if (starts.length !== serviceEntries.length) throw new Error(`bin/build.ts: dist/engine/ lacks one of ${serviceEntries.join(', ')}`);
  const service = loadedBy(statically(starts)).filter((input) => /(^|\/)protobufjs(\/|$)/.test(input));
  if (service.length > 0) throw new Error(`bin/build.ts: a service run's part of dist/engine/ would load protobufjs (${service.join(', ')})`);
  const playwright = loadedBy(Object.keys(outputs)).filter((input) => /(^|\/)node_modules\/(@playwright|playwright(-core)?)\//.test(input));
  if (playwright.length > 0) throw new Error(`bin/build.ts: dist/engine/ bundles Playwright (${playwright.join(', ')}); it must stay external`);
}

// Bundled CommonJS (protobufjs) calls require() for node's modules: each ES module gets one.
const ESM_REQUIRE = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";
// In CommonJS output import.meta is empty: its url is the file's.
const CJS_IMPORT_META = "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;";

/** The library's declarations (dist/types/), by tsc in a child process: it takes seconds, beside esbuild's work. */
function declarations(): Promise<void> {
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.types.json')], (error, stdout) =>
      error ? reject(new Error(`bin/build.ts: tsc -p tsconfig.types.json failed:\n${stdout}`)) : resolve(),
    ),
  );
}

/** Builds into outdir; returns the project files the build read (relative to the root). */
async function build(outdir: string): Promise<string[]> {
  rmSync(outdir, { recursive: true, force: true });
  const types = declarations();
  const entry = (name: string, source: string) =>
    esbuild.build({
      ...common(),
      entryPoints: { [name]: source },
      outdir,
      outExtension: { '.js': '.cjs' },
      format: 'cjs',
      define: { 'import.meta.url': '__importMetaUrl' },
      banner: { js: CJS_IMPORT_META },
    });
  const esm = (entryPoints: Record<string, string>, dir: string, options: esbuild.BuildOptions = {}) =>
    esbuild.build({
      ...common(),
      ...options,
      entryPoints,
      outdir: path.join(outdir, dir),
      chunkNames: 'chunks/[name]-[hash]',
      splitting: true,
      format: 'esm',
      banner: { js: ESM_REQUIRE },
    });
  const [front, plugin, protoc, commands, engine] = await Promise.all([
    entry('touchstone', 'harness/cli/main.ts'),
    entry('protoc-gen-touchstone', 'reference-impl/plugin/main.ts'),
    entry('commands/protoc', 'harness/cli/protoc.ts'),
    esm(
      {
        ...Object.fromEntries(COMMAND_FILES.filter((file) => file !== 'protoc').map((file) => [file, `harness/cli/${file}.ts`])),
        service: 'reference-impl/service/service.ts',
        'proxy-server': 'harness/proxy/proxy-server.ts',
        'reference-thread': 'harness/cli/reference-thread.ts',
        'config-file': 'harness/cli/config-file.ts',
        api: 'harness/cli/api.ts',
      },
      'commands',
    ),
    esm(Object.fromEntries(ENGINE_FILES.map((file) => [file, `harness/run/${file}.ts`])), 'engine', { external: ENGINE_EXTERNAL }),
  ]);
  checkEngine(engine);
  await types;
  // The project files each part was built from, checked by bin/entry.js when that part starts:
  // `touchstone --help` checks the few files of its front, not every command's.
  const inputsOf = (...results: esbuild.BuildResult[]) => [
    // Packages are not listed (package.json is: a changed dependency makes every part stale); in a
    // checkout whose node_modules is a link, esbuild names them by their real path.
    ...new Set(results.flatMap((result) => Object.keys(result.metafile?.inputs ?? {})).filter((input) => !input.split('/').includes('node_modules'))),
    'package.json',
  ].sort();
  const parts = {
    touchstone: inputsOf(front),
    commands: inputsOf(commands, protoc),
    'protoc-gen-touchstone': inputsOf(plugin),
    engine: inputsOf(engine),
  };
  if (Object.keys(parts).sort().join() !== [...BUILD_PARTS].sort().join()) throw new Error('bin/build.ts: parts differ from BUILD_PARTS (bin/entry.js)');
  const inputs = [...new Set(Object.values(parts).flat())].sort();
  // Each input's digest, for an input newer than the build but with the same bytes (bin/entry.js).
  const digests = Object.fromEntries(inputs.map((input) => [input, fileDigest(path.join(ROOT, input))]));
  // Written last: its time is the build's time (bin/entry.js compares the inputs with it).
  writeFileSync(path.join(outdir, 'manifest.json'), `${JSON.stringify({ ...parts, digests }, null, 2)}\n`);
  return inputs;
}

/** Runs each entry once so that it saves its code cache (bin/entry.js): --help, and a protoc run of the plugin. */
function warmUp(): void {
  const out = mkdtempSync(path.join(os.tmpdir(), 'touchstone-build-'));
  const run = (args: string[]) => execFileSync(process.execPath, [path.join(ROOT, 'bin', 'touchstone.js'), ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    run(['--help']);
    const plugin = `--plugin=protoc-gen-touchstone=${path.join(ROOT, 'bin', 'protoc-gen-touchstone.js')}`;
    run(['protoc', `-I${path.join(ROOT, 'suites', 'plugin', 'fixtures')}`, plugin, `--touchstone_out=${out}`, 'optional.proto']);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const started = performance.now();
const inputs = await build(path.join(ROOT, 'dist'));
warmUp();
process.stdout.write(`touchstone: built dist/ from ${inputs.length} files in ${Math.round(performance.now() - started)} ms\n`);
