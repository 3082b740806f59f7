// `touchstone protoc`: a protoc-compatible driver for code-generator plugins. It wires the
// steps together in protoc 3.21's order: parse flags, load the descriptors, run every
// --NAME_out in command-line order (each fatal error stops everything at once), and only
// when all runs succeeded and no location holds a deferred error, write the outputs.
// Exit status as protoc's: 0 on success, 1 on any failure (not touchstone's usual 2 for
// usage errors: scripts written for protoc test for 1).
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { applyPluginResponse } from './apply/apply-response.js';
import { cEscape } from './common/c-escape.js';
import { touchstoneCompilerVersion } from './request/compiler-version.js';
import { createOutputLocation, locationKey, type OutputLocation } from './apply/output-location.js';
import { loadPluginMessages, type PluginMessages } from './common/plugin-messages.js';
import { describePluginExit, runPluginProcess } from './plugin-run/plugin-process.js';
import { encodePluginRequest, transitiveProtoFiles } from './request/plugin-request.js';
import { decodePluginResponse } from './response/plugin-response.js';
import { parseProtocArgs, type ProtocInvocation } from './protoc-args.js';
import { loadProtoSources, type ProtoSources } from './descriptors/proto-sources.js';
import { checkLocationExists, writeLocation } from './write/write-outputs.js';

export type OutputSink = (chunk: string | Uint8Array) => void;

export interface ProtocRunOptions {
  /** The compiler's working directory (default: the process's). Relative paths resolve here. */
  cwd?: string;
  /** Environment of the plugins, PATH included (default: the process's). */
  env?: NodeJS.ProcessEnv;
  stdout?: OutputSink;
  /** When given, the plugins' stderr goes here too (in order); otherwise they inherit ours. */
  stderr?: OutputSink;
}

function fileAccess(cwd: string, explicitCwd: boolean) {
  const resolve = (p: string) => (p.startsWith('/') ? p : `${cwd}/${p}`);
  return {
    resolve,
    pathExists: (p: string) => p !== '' && existsSync(resolve(p)),
    readArgumentFile: (p: string) => {
      try {
        return readFileSync(resolve(p), 'utf8');
      } catch {
        return undefined;
      }
    },
    openError: (p: string) => {
      try {
        closeSync(openSync(p === '' ? '' : resolve(p), 'r'));
        return undefined;
      } catch (error) {
        return error as NodeJS.ErrnoException;
      }
    },
    readFile: (p: string) => readFileSync(resolve(p)),
    // The parser gets paths it can use from this process; unchanged when cwd is ours.
    resolveDirectory: (p: string) => (explicitCwd ? resolve(p) : p),
  };
}

async function generate(
  invocation: ProtocInvocation,
  sources: ProtoSources,
  messages: PluginMessages,
  options: Required<Pick<ProtocRunOptions, 'cwd' | 'env'>> & ProtocRunOptions,
  report: OutputSink,
) {
  const { switches } = invocation;
  // Command-line order, as protoc; spec 3 gives none (the variation sorts the names).
  const fileToGenerate = sources.inputs.map((file) => file.name);
  if (switches.has('compiler.file-to-generate-sorted')) fileToGenerate.sort();
  const protoFiles = transitiveProtoFiles(fileToGenerate, sources.files, switches);
  const requested = switches.has('compiler.imports-generated') ? protoFiles.map((file) => file.name) : fileToGenerate;
  const compilerVersion = invocation.compilerVersion ?? touchstoneCompilerVersion();
  const locations = new Map<string, OutputLocation>();

  // Staged so far: what the variation compiler.partial-output-kept writes when a run fails.
  const failed = () => ({ ok: false as const, locations: [...locations.values()] });
  const outputs = switches.has('compiler.generators-reversed') ? [...invocation.outputs].reverse() : invocation.outputs;
  for (const directive of outputs) {
    if (switches.has('compiler.plugins-not-started')) continue;
    const { flag, pluginName } = directive;
    const key = locationKey(directive.location);
    const location = locations.get(key) ?? createOutputLocation(key, report, switches);
    locations.set(key, location);

    const registered = invocation.plugins.get(pluginName);
    const exit = await runPluginProcess({
      program: registered ?? pluginName,
      searchPath: registered === undefined,
      request: encodePluginRequest(
        messages,
        { fileToGenerate: requested, parameter: directive.parameter, protoFiles, compilerVersion },
        switches,
      ),
      cwd: options.cwd,
      env: options.env,
      timeoutMs: invocation.timeoutMs,
      outputLimit: invocation.outputLimit,
      stderr: options.stderr ?? 'inherit',
    });
    const failure = describePluginExit(exit, invocation);
    const exitIgnored = switches.has('compiler.plugin-exit-ignored') && 'stdout' in exit;
    if ((failure !== undefined && !exitIgnored) || !('stdout' in exit)) {
      report(`${flag}: ${pluginName}: ${failure}\n`);
      return failed();
    }
    const response = decodePluginResponse(exit.stdout);
    if (!response) {
      report(`${flag}: ${pluginName}: Plugin output is unparseable: ${cEscape(exit.stdout)}\n`);
      return failed();
    }
    const result = applyPluginResponse(response, { pluginName, location, filesToGenerate: sources.inputs, report, switches });
    if (result) {
      report(Buffer.concat([Buffer.from(`${flag}: `), Buffer.from(result.fatal), Buffer.from('\n')]));
      return failed();
    }
  }
  return { ok: true as const, locations: [...locations.values()] };
}

/** Runs `protoc ARGS` and resolves to the exit status. */
export async function runProtoc(args: string[], options: ProtocRunOptions = {}): Promise<number> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const stdout: OutputSink = options.stdout ?? ((chunk) => process.stdout.write(chunk));
  const stderr: OutputSink = options.stderr ?? ((chunk) => process.stderr.write(chunk));
  const access = fileAccess(cwd, options.cwd !== undefined);

  const parsed = parseProtocArgs(args, access);
  if (parsed.stderr) stderr(parsed.stderr);
  if (parsed.kind === 'exit') {
    if (parsed.stdout) stdout(parsed.stdout);
    return parsed.code;
  }
  const { invocation } = parsed;
  const messages = loadPluginMessages();
  const loaded = await loadProtoSources(
    invocation.protoPaths,
    invocation.descriptorSetIn,
    invocation.inputs,
    { probe: { exists: access.pathExists, openError: access.openError }, ...access },
    messages,
  );
  if (!loaded.ok) {
    stderr(loaded.message);
    return 1;
  }

  // The variation compiler.failure-silent fails a run with its exit status alone: spec 3 names
  // no channel for telling the user (the plugins' own stderr still goes through).
  const report: OutputSink = invocation.switches.has('compiler.failure-silent') ? () => {} : stderr;
  const generated = await generate(invocation, loaded.sources, messages, { ...options, cwd, env }, report);
  // Deferred errors were printed when they happened; a run that had one writes nothing (spec 3
  // says nothing of what a failed run leaves; the variation compiler.partial-output-kept
  // writes what was staged before the failure, and still exits 1).
  const ok = generated.ok && !generated.locations.some((location) => location.hadError);
  if (!ok && !invocation.switches.has('compiler.partial-output-kept')) return 1;
  const written = writeLocations(cwd, generated.locations);
  if (written) report(written);
  return ok && !written ? 0 : 1;
}

/** Every location, after checking that every directory location exists; the text to print when one fails. */
function writeLocations(cwd: string, locations: OutputLocation[]): string | undefined {
  for (const location of locations) {
    const problem = checkLocationExists(cwd, location.key);
    if (problem) return problem;
  }
  for (const location of locations) {
    const files = location.standIns.size === 0 ? location.files : withoutStandIns(location);
    const problem = writeLocation(cwd, location.key, files);
    if (problem) return problem;
  }
  return undefined;
}

/** The files of a failed run's location, without the empty stand-ins of missing insertion targets. */
function withoutStandIns(location: OutputLocation): Map<string, Uint8Array> {
  return new Map([...location.files].filter(([name]) => !location.standIns.has(name)));
}
