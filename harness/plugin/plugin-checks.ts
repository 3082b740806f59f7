// Runs one plugin case and decides its outcome. Like case-runner.ts for the service, it
// knows nothing of Playwright: hooks carry each run's facts out (attachments, recorded
// sessions), so the same code runs inside `touchstone plugin` and in-process in tests.
//
// Decisions where the brief is silent:
// - A case checks its requirement or says it could not. Its precondition (the suite's
//   `precondition`, plugin-suite-format.ts) is checked on a run of its request built
//   without the case's bends; when the plugin refuses that request, declines it or makes
//   nothing of it, the case is "not reached" (SKIP, its requirements unchecked), naming the
//   refusal once and the case that judges it (`judgedBy`, the case whose sound_requests hold
//   that request). A plugin that refuses every request is then one FAIL, not one per case.
// - The plugin's failures are the plugin's: killed by a signal, or more stdout than
//   --max-output, fails the case (the spec asks for one response and an exit status). A
//   case is ERROR only when the plugin could not be judged for reasons of ours or of the
//   machine: it did not start, or it ran past --timeout. spec 3 sets no time limit, so a
//   plugin still running at our bound has broken nothing the spec says (a slow machine
//   looks the same), and the run is incomplete rather than the plugin non-conforming.
// - A sound request answered with a non-zero exit is judged under
//   plugin.errors.schema-problem-exit-zero: spec 3 keeps a non-zero exit for a problem in
//   the compiler (an unparseable request), so a plugin that cannot generate for a sound
//   request must say so in `error`, with exit 0.
// - `response: valid` checks every File: the first has a name, names are safe, an
//   insertion point comes with a name, and FEATURE_PROTO3_OPTIONAL is advertised when the
//   plugin generates (no error, at least one file) for a file to generate that has proto3
//   optional fields (under plugin.features.proto3-optional, a MAY: protoc's negotiation).
//   Whether a named file of an insertion exists is not judged here: it may come from
//   another generator.
import { ConformanceFailure, HarnessError } from '../core/errors.js';
import { brokenOutcome, notReached, type CaseOutcome, type Grading } from '../core/case-outcome.js';
import type { FailureDetail } from '../core/results.js';
import { decodeRequest, decodeResponse, Feature, MalformedMessageError, type CodeGeneratorResponse } from '../protocol/plugin-codec.js';
import { buildRequest, pluginStdin, soundRequest, type DescribeFiles } from './plugin-input.js';
import { endedAs, runPluginProcess, type PluginProcessOptions, type PluginProcessResult } from './plugin-process.js';
import type { PluginCase } from './plugin-suite-format.js';
import { preconditionFiles } from './plugin-suite-loader.js';
import { reproduceCommand } from './reproduce-command.js';

export interface PluginRunRecord {
  stdin: Uint8Array;
  result: PluginProcessResult;
  /** Which run of the case, from 0. */
  index: number;
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
  /** --parameter: reaches every built request, before the case's own parameter. */
  parameter?: string;
  /** Called after every run of the plugin (a deterministic case runs it twice). */
  onRun?(record: PluginRunRecord): Promise<void>;
  /** How the plugin is run; runPluginProcess(command, stdin, limits) when absent. */
  runPlugin?: RunPlugin;
  /** The command that feeds a failing run's request to the plugin again; a printf | plugin line when absent. */
  reproduce?(stdin: Uint8Array, index: number): string;
}

export async function runPluginCase(testCase: PluginCase, context: PluginCaseContext): Promise<CaseOutcome> {
  let runs = 0;
  const run = async (stdin: Uint8Array): Promise<PluginRunRecord> => {
    const index = runs++;
    const runPlugin = context.runPlugin ?? ((bytes) => runPluginProcess(context.command, bytes, context.limits));
    const result = await runPlugin(stdin, index);
    await context.onRun?.({ stdin, result, index });
    // A run the case cannot judge at all: ours or the machine's, never the plugin's.
    if (result.spawnError) throw new HarnessError('TARGET_IO', `the plugin could not be started: ${result.spawnError}`);
    if (result.timedOut)
      throw new HarnessError(
        'TARGET_IO',
        `the plugin did not finish within ${context.limits.timeoutMs / 1000} s and was killed (--timeout: spec 3 sets no limit, so this is no verdict on the plugin; raise --timeout if it is only slow)`,
      );
    return { stdin, result, index };
  };
  const reproduce = (record: PluginRunRecord) =>
    context.reproduce?.(record.stdin, record.index) ?? reproduceCommand(record.stdin, context.command);
  try {
    const { input } = testCase;
    if ('sound_requests' in input) return await judgeSoundRequests(testCase, input.sound_requests, context, run, reproduce);
    const stdin = pluginStdin(input, context.describe, context.parameter);
    let first: PluginRunRecord | undefined;
    const files = preconditionFiles(testCase);
    if (files) {
      const probe = await run(buildRequest(soundRequest(files), context.describe, context.parameter));
      const unmet = unmetPrecondition(probe.result, files, testCase.precondition === 'generates');
      if (unmet) return notReached(unmet, testCase.judgedBy);
      if (Buffer.from(probe.stdin).equals(Buffer.from(stdin))) first = probe;
    }
    first ??= await run(stdin);
    try {
      judge(testCase, first);
      if (testCase.expect.deterministic) {
        const second = await run(stdin);
        if (!second.result.stdout.equals(first.result.stdout)) {
          throw new ConformanceFailure(
            'plugin.output.deterministic',
            'the same stdout for the same request',
            `${first.result.stdout.length} bytes, then ${second.result.stdout.length} different bytes`,
          );
        }
      }
    } catch (error) {
      if (!(error instanceof ConformanceFailure)) throw error;
      return brokenOutcome([failureOf(error, reproduce(first))], testCase.requirements, context);
    }
    return { outcome: 'PASS' };
  } catch (error) {
    if (error instanceof HarnessError) return { outcome: 'ERROR', message: error.message };
    throw error;
  }
}

function failureOf(error: ConformanceFailure, reproduce: string): FailureDetail {
  return { requirement: error.requirement, expected: error.expected, actual: error.actual, reproduce };
}

/**
 * The judge of refusals: each sound request gets exit 0 and a response. Every request runs,
 * and every refusal is listed, so a plugin that refuses proto2 and proto3 alike says both.
 */
async function judgeSoundRequests(
  testCase: PluginCase,
  requests: { files: string[] }[],
  context: PluginCaseContext,
  run: (stdin: Uint8Array) => Promise<PluginRunRecord>,
  reproduce: (record: PluginRunRecord) => string,
): Promise<CaseOutcome> {
  const failures: FailureDetail[] = [];
  for (const { files } of requests) {
    const record = await run(buildRequest(soundRequest(files), context.describe, context.parameter));
    const broken = refusalOf(record.result, files);
    if (broken) failures.push(failureOf(broken, reproduce(record)));
  }
  if (failures.length === 0) return { outcome: 'PASS' };
  // Every request ran: what no request broke was checked, and held, unless none answered.
  return brokenOutcome(failures, testCase.requirements, context, failures.length === requests.length);
}

const filesOf = (files: string[]) => files.join(', ');

/** How the plugin failed to answer a sound request for `files`, as the failure it is; undefined when it answered. */
function refusalOf(result: PluginProcessResult, files: string[]): ConformanceFailure | undefined {
  // Why only exit 0 will do is the requirement's note: a sound request is no problem in the compiler.
  const expected = `exit 0 and a response for the sound request for ${filesOf(files)}`;
  if (!result.truncated && (result.signal || result.exitCode !== 0))
    return new ConformanceFailure('plugin.errors.schema-problem-exit-zero', expected, `${endedAs(result)}${stderrTail(result)}`);
  const unparsed = unparsedResponse(result);
  return unparsed === undefined
    ? undefined
    : new ConformanceFailure('plugin.io.one-request-one-response', `a CodeGeneratorResponse on stdout for ${filesOf(files)}`, unparsed);
}

/** Why stdout is not one CodeGeneratorResponse, or undefined. */
function unparsedResponse(result: PluginProcessResult): string | undefined {
  if (result.truncated) return endedAs(result);
  try {
    decodeResponse(result.stdout);
    return undefined;
  } catch (error) {
    if (!(error instanceof MalformedMessageError)) throw error;
    return `${result.stdout.length} bytes that do not parse: ${error.message}`;
  }
}

/** Why the plugin's answer to the sound request for `files` does not meet a precondition, or undefined. */
function unmetPrecondition(result: PluginProcessResult, files: string[], mustGenerate: boolean): string | undefined {
  const request = `the sound request for ${filesOf(files)}`;
  if (!result.truncated && (result.signal || result.exitCode !== 0))
    return `the plugin refused ${request}: ${endedAs(result)}${firstStderrLine(result)}`;
  const unparsed = unparsedResponse(result);
  if (unparsed) return `the plugin answered ${request} with ${unparsed}`;
  if (!mustGenerate) return undefined;
  const response = decodeResponse(result.stdout);
  if (response.error)
    return `the plugin declined ${request} in \`error\` (exit 0, as spec 3 allows): ${JSON.stringify(clip(response.error))}`;
  if (response.file.length === 0) return `the plugin generated no file for ${request}`;
  return undefined;
}

function judge(testCase: PluginCase, { stdin, result }: PluginRunRecord): void {
  const { expect } = testCase;
  const main = testCase.requirements[0];
  if (result.truncated) throw new ConformanceFailure(main, expect.exit === 'zero' ? 'a response' : 'a non-zero exit', endedAs(result));
  if (result.signal || (expect.exit === 'zero' && result.exitCode !== 0))
    throw new ConformanceFailure(main, expect.exit === 'zero' ? 'exit 0' : 'a non-zero exit', `${endedAs(result)}${stderrTail(result)}`);
  if (expect.exit === 'nonzero' && result.exitCode === 0)
    throw new ConformanceFailure(main, 'a non-zero exit', `exit 0 with ${result.stdout.length} bytes on stdout`);
  if (expect.stderr === 'nonempty' && result.stderr.toString().trim() === '')
    throw new ConformanceFailure(main, 'a message on stderr', 'nothing on stderr');
  if (!expect.response) return;
  const unparsed = unparsedResponse(result);
  if (unparsed) throw new ConformanceFailure('plugin.io.one-request-one-response', 'a CodeGeneratorResponse on stdout', unparsed);
  checkFiles(decodeResponse(result.stdout), stdin);
}

/**
 * Why a File name breaks spec 3's rules ("not absolute", "no `.` or `..` components", with
 * "`/` is the separator"), or undefined. Only those: a backslash is no separator, so `a\b`
 * is one component (the spec forbids nothing else), and `a//b` has an empty one, which is
 * neither `.` nor `..`. `C:/x` is not refused either: with `/` the only separator, `C:` is a
 * name like any other, and which systems' absolute paths "not absolute" means is not said.
 */
export function unsafeNameReason(name: string): string | undefined {
  if (name.startsWith('/')) return 'it is absolute';
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

const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** The last 300 characters of stderr, as "; stderr: …", or nothing. */
export function stderrTail(result: PluginProcessResult): string {
  const text = result.stderr.toString('utf8').trim();
  if (!text) return '';
  const tail = text.length > 300 ? `…${text.slice(-300)}` : text;
  return `; stderr: ${tail}`;
}

/** The first line of stderr that says something, as "; stderr: …", or nothing: the line a refusal names itself by. */
function firstStderrLine(result: PluginProcessResult): string {
  const line = result.stderr
    .toString('utf8')
    .split('\n')
    .find((l) => l.trim() !== '');
  return line ? `; stderr: ${clip(line.trim(), 200)}` : '';
}
