// touchstone as a library: `import { run } from 'touchstone'` (package.json's exports; built to
// dist/commands/api.js, its types to dist/types/). The commands are thin layers over the same
// functions: `touchstone run` is runService and an exit code, `touchstone plugin` judgePlugin's.
//
// Each function loads its part when first called, so that a config file importing defineConfig
// loads nothing else.
//
// Decisions where the issue is silent:
// - Options are the flags of the command in camelCase (the command's --help and
//   docs/commands.md describe each); a run writes its reports as the command does (`out`, else
//   reports/<timestamp>) and prints its progress; the promise resolves to the results (the
//   document results.json holds), whatever the verdict: a FAIL is a verdict, not an error.
// - What stops a run before it has a verdict (a bad option, a target that does not answer, a
//   suite that does not lint) rejects with a TouchstoneError, whose exitCode is the one the
//   command would have exited with.
import type { Results } from '../core/results.js';
import type { Cassette } from '../cassette/cassette-format.js';
import type { ProxyOptions } from '../proxy/proxy-options.js';
import type { RunningProxy } from '../proxy/proxy-server.js';
import type { ReferenceOptions, RunningService } from './embedded-reference.js';
import type { PluginOptions, RunOptions } from './options.js';

export { HarnessError as TouchstoneError } from '../core/errors.js';
export { defineConfig, type TouchstoneConfig } from './config-format.js';
export type { Cassette, PluginOptions, ProxyOptions, ReferenceOptions, Results, RunningProxy, RunningService, RunOptions };

/** Runs the service suites, against options.target or the embedded reference, as `touchstone run` does. */
export async function run(options: RunOptions = {}): Promise<Results> {
  return (await import('./run.js')).runService(options);
}

/** The reference implementation of the service, listening (on 127.0.0.1 and a free port unless told otherwise) until close(). */
export async function startReference(options: ReferenceOptions = {}): Promise<RunningService> {
  return (await import('./embedded-reference.js')).startReferenceService(options);
}

/** The record/replay proxy, as `touchstone proxy` starts it; close() writes its recordings and gives the summary. */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  return (await import('../proxy/proxy-server.js')).createProxy(options);
}

/** A cassette file, checked against its format (bodies kept in sidecar files are read when asked for). */
export async function loadCassette(file: string): Promise<Cassette> {
  return (await import('../cassette/cassette-load.js')).loadCassetteFile(file);
}

/** Runs the plugin suites against options.plugin (a command line), as `touchstone plugin` does. */
export async function judgePlugin(options: PluginOptions): Promise<Results> {
  return (await import('./plugin.js')).runPluginSuites(options);
}
