// Runs one plugin case and decides its outcome. Like case-runner.ts for the service, it
// knows nothing of Playwright: hooks carry each run's facts out (attachments, recorded
// sessions), so the same code runs inside `touchstone plugin` and in-process in tests.
//
// Decisions where the brief is silent:
// - A case is ERROR, not FAIL, when the plugin could not be judged: it did not start, hung
//   past the timeout, died by a signal, or wrote more than the output cap. The message
//   says which, so a crash is still attributed to its case, and the other cases run on.
// - `response: valid` checks every File: the first has a name, names are safe, an
//   insertion point comes with a name, and FEATURE_PROTO3_OPTIONAL is advertised when the
//   plugin generates (no error, at least one file) for a file to generate that has proto3
//   optional fields (under plugin.features.proto3-optional, a MAY: protoc's negotiation).
//   A response with `error` set and no files is valid: spec 3 lets a plugin decline a
//   schema that way. Whether a named file of an insertion exists is not judged here: it
//   may come from another generator.
import { ConformanceFailure, HarnessError } from '../core/errors.js';
import { stoppedAt, type CaseOutcome, type Grading } from '../core/case-outcome.js';
import { decodeRequest, decodeResponse, Feature, MalformedMessageError, type CodeGeneratorResponse } from '../protocol/plugin-codec.js';
import { pluginStdin, type DescribeFiles } from './plugin-input.js';
import { runPluginProcess, type PluginProcessOptions, type PluginProcessResult } from './plugin-process.js';
import type { PluginCase } from './plugin-suite-format.js';
import { reproduceCommand } from './reproduce-command.js';

export interface PluginRunRecord {
  stdin: Uint8Array;
  result: PluginProcessResult;
}

/**
 * Runs the plugin once on `stdin`; `index` counts the runs of one case from 0. The
 * default spawns `command`; a recorded session (plugin-session.ts) stands in here to
 * save or replay runs, so the checks never know whether a process was started.
 */
export type RunPlugin = (stdin: Uint8Array, index: number) => Promise<PluginProcessResult>;

export interface PluginCaseContext extends Grading {
  /** The plugin command: run by default, and always the one named in reproductions. */
  command: string[];
  describe: DescribeFiles;
  limits: PluginProcessOptions;
  /** Called after every run of the plugin (a deterministic case runs it twice). */
  onRun?(record: PluginRunRecord, index: number): Promise<void>;
  /** How the plugin is run; runPluginProcess(command, stdin, limits) when absent. */
  runPlugin?: RunPlugin;
}

export async function runPluginCase(testCase: PluginCase, context: PluginCaseContext): Promise<CaseOutcome> {
  let stdin: Uint8Array;
  try {
    stdin = pluginStdin(testCase.input, context.describe);
  } catch (error) {
    return { outcome: 'ERROR', message: `cannot build the request: ${(error as Error).message}` };
  }
  const runPlugin: RunPlugin = context.runPlugin ?? ((bytes) => runPluginProcess(context.command, bytes, context.limits));
  const run = async (index: number): Promise<PluginProcessResult> => {
    const result = await runPlugin(stdin, index);
    await context.onRun?.({ stdin, result }, index);
    const unjudgeable = whyUnjudgeable(result, context.limits);
    if (unjudgeable) throw new HarnessError('TARGET_IO', unjudgeable);
    return result;
  };
  try {
    const first = await run(0);
    judge(testCase, stdin, first);
    if (testCase.expect.deterministic) {
      const second = await run(1);
      if (!Buffer.from(second.stdout).equals(Buffer.from(first.stdout))) {
        throw new ConformanceFailure(
          'plugin.output.deterministic',
          'the same stdout for the same request',
          `${first.stdout.length} bytes, then ${second.stdout.length} different bytes`,
        );
      }
    }
    return { outcome: 'PASS' };
  } catch (error) {
    if (error instanceof ConformanceFailure)
      return stoppedAt(error, testCase.requirements, context, { reproduce: reproduceCommand(stdin, context.command) });
    if (error instanceof HarnessError) return { outcome: 'ERROR', message: error.message };
    throw error;
  }
}

/** Why a run cannot be judged (it never ran, or was cut short), or undefined. */
export function whyUnjudgeable(
  result: PluginProcessResult,
  limits: PluginProcessOptions,
  who: 'plugin' | 'compiler' = 'plugin',
): string | undefined {
  if (result.spawnError) return `the ${who} could not be started: ${result.spawnError}`;
  if (result.timedOut) return `the ${who} did not finish within ${limits.timeoutMs} ms and was killed`;
  if (result.truncated) return `the ${who} wrote more than ${limits.maxOutputBytes} bytes on stdout and was killed`;
  if (result.signal) return `the ${who} crashed: killed by ${result.signal}${stderrTail(result)}`;
  return undefined;
}

function judge(testCase: PluginCase, stdin: Uint8Array, result: PluginProcessResult): void {
  const { expect } = testCase;
  const main = testCase.requirements[0];
  const exit = `exit ${result.exitCode}${stderrTail(result)}`;
  if (expect.exit === 'zero' && result.exitCode !== 0) throw new ConformanceFailure(main, 'exit 0', exit);
  if (expect.exit === 'nonzero' && result.exitCode === 0)
    throw new ConformanceFailure(main, 'a non-zero exit', `exit 0 with ${result.stdout.length} bytes on stdout`);
  if (expect.stderr === 'nonempty' && result.stderr.toString().trim() === '')
    throw new ConformanceFailure(main, 'a message on stderr', 'nothing on stderr');
  if (!expect.response && !expect.error) return;
  const response = readResponse(result.stdout);
  if (expect.response) checkFiles(response, stdin);
  if (expect.error === 'empty' && response.error)
    throw new ConformanceFailure(main, 'no error for a sound schema', `error ${JSON.stringify(response.error)}`);
}

function readResponse(stdout: Buffer): CodeGeneratorResponse {
  try {
    return decodeResponse(stdout);
  } catch (error) {
    if (!(error instanceof MalformedMessageError)) throw error;
    throw new ConformanceFailure(
      'plugin.io.one-request-one-response',
      'a CodeGeneratorResponse on stdout',
      `${stdout.length} bytes that do not parse: ${error.message}`,
    );
  }
}

/**
 * Why a File name breaks spec 3's rules ("not absolute", "no `.` or `..` components", with
 * "`/` is the separator"), or undefined. Only those: a backslash is no separator, so `a\b`
 * is one component (the spec forbids nothing else), and `a//b` has an empty one, which is
 * neither `.` nor `..`. A drive letter is absolute on the systems that have them.
 */
export function unsafeNameReason(name: string): string | undefined {
  if (name.startsWith('/')) return 'it is absolute';
  if (/^[A-Za-z]:/.test(name)) return 'it starts with a drive letter';
  const dots = name.split('/').find((part) => part === '.' || part === '..');
  if (dots) return `it has a "${dots}" component`;
  return undefined;
}

function checkFiles(response: CodeGeneratorResponse, stdin: Uint8Array): void {
  response.file.forEach((file, index) => {
    const where = `file[${index}]`;
    if (index === 0 && !file.name)
      throw new ConformanceFailure(
        'plugin.files.first-chunk-named',
        'the first File to have a name',
        `${where} has none (a continuation of nothing)`,
      );
    if (file.insertion_point && !file.name)
      throw new ConformanceFailure(
        'plugin.files.insertion-point-needs-name',
        'insertion_point together with a name',
        `${where} inserts at ${JSON.stringify(file.insertion_point)} with no name`,
      );
    const reason = file.name ? unsafeNameReason(file.name) : undefined;
    if (reason)
      throw new ConformanceFailure(
        'plugin.files.name-safe',
        'relative names with no "." or ".." component',
        `${where} is named ${JSON.stringify(file.name)}: ${reason}`,
      );
  });
  const generates = !response.error && response.file.length > 0;
  if (generates && ((response.supported_features ?? 0n) & Feature.PROTO3_OPTIONAL) === 0n) {
    const withOptional = proto3OptionalFiles(stdin);
    if (withOptional.length > 0) {
      throw new ConformanceFailure(
        'plugin.features.proto3-optional',
        'supported_features with FEATURE_PROTO3_OPTIONAL (1)',
        `files generated for ${withOptional.join(', ')} (proto3 optional fields) with supported_features ${response.supported_features ?? 0n}`,
      );
    }
  }
}

/** The files to generate whose messages have proto3 optional fields. */
function proto3OptionalFiles(stdin: Uint8Array): string[] {
  let request: ReturnType<typeof decodeRequest>;
  try {
    request = decodeRequest(stdin);
  } catch {
    return []; // not a request (garbage cases): nothing was asked for
  }
  const hasOptional = (messages: unknown): boolean =>
    Array.isArray(messages) &&
    messages.some(
      (m: { field?: { proto3_optional?: boolean }[]; nested_type?: unknown }) =>
        m.field?.some((f) => f.proto3_optional) || hasOptional(m.nested_type),
    );
  return request.proto_file
    .filter((f) => request.file_to_generate.includes(f.name) && hasOptional(f.descriptor().message_type))
    .map((f) => f.name);
}

export function stderrTail(result: PluginProcessResult): string {
  const text = result.stderr.toString('utf8').trim();
  if (!text) return '';
  const tail = text.length > 300 ? `…${text.slice(-300)}` : text;
  return `; stderr: ${tail}`;
}
