// Runs one compiler case and decides its outcome: the compiler is started in a sandbox
// (compiler-sandbox.ts) with canned plugins, then judged on its exit status, its stderr,
// the files it left, and the requests its plugins received. Like plugin-checks.ts it knows
// nothing of Playwright; a hook carries each run's facts out.
//
// Decisions where the brief is silent:
// - Checks run in a fixed order and the first broken one decides the case: anything
//   outside the output directories (the worst harm), the exit status, stderr, the output
//   tree, nothing written, then the request. A wrong exit usually explains what follows.
// - Writing outside the output directories is judged in every case, under
//   compiler.apply.names-inside-output: that is the harm the name rules exist to prevent.
//   Spec 3 puts the rules on the plugin's names, not on what a compiler does with a name
//   that breaks them, so the requirement is a SHOULD (protoc 3.21 writes `../x` beside).
// - `output` checks the files it lists and their contents; other files may stand beside them
//   (spec 3 says nothing of what else a compiler writes), and nothing_written (a MAY) is the
//   check that none do.
// - `file_to_generate` compares the names in any order (spec 3 gives none); the order is
//   a check of its own, `file_to_generate_order`, under a MAY requirement.
// - `proto_file_last` looks only at the fields spec 3 lists (1, 2, 3): protoc 24 and later
//   write source_file_descriptors (17) after proto_file, in field-number order.
// - `qualified_type_names` looks at fields and extensions (type_name, extendee), the
//   references spec 3 names; method input and output types are not its business.
// - A case checks its requirement or says it could not: unless its precondition is `none`,
//   every generator's canned plugin must have been started (it saved its request) before
//   anything else is judged. A compiler that never started one leaves the case not reached
//   (SKIP), naming what it did instead once, and the case with plugins_started judges that.
// - A compiler that cannot be started, or hangs past --timeout, is ERROR (it could not be
//   judged: spec 3 sets no time limit). One that dies by a signal or floods its stdout has
//   failed: its exit and output are judged as they are.
// - `parameter: null` accepts an absent or empty parameter: spec 3 calls the field
//   optional, and an empty string carries no parameter either.
// - The sandbox of a case that does not pass is kept, so the failure's reproduction
//   command can rerun the compiler with the same canned plugins (empty its output
//   directories first).
import { rmSync } from 'node:fs';
import { ConformanceFailure } from '../core/errors.js';
import { decodeRequest, MalformedMessageError, type CodeGeneratorRequest } from '../protocol/plugin-codec.js';
import { walkFields } from '../protocol/wire-format.js';
import { notReached, stoppedAt, type CaseOutcome, type Grading } from '../core/case-outcome.js';
import { createCompilerSandbox, type CompilerSandbox } from './compiler-sandbox.js';
import { CHECK_REQUIREMENT, type CompilerCase, type RequestExpectation } from './compiler-suite-format.js';
import { endedAs, runPluginProcess, type PluginProcessOptions, type PluginProcessResult } from './plugin-process.js';
import { shellWord } from '../core/shell-word.js';
import { stderrTail } from './plugin-checks.js';
import { someOf } from '../core/plural.js';

export interface CompilerRunRecord {
  args: string[];
  result: PluginProcessResult;
  /** Paths under the working directory after the run. */
  files: string[];
}

export interface CompilerCaseContext extends Grading {
  command: string[];
  fixturesDir: string;
  limits: PluginProcessOptions;
  /** Where the case's sandbox is made; it must not exist yet. */
  sandboxRoot: string;
  /** The compiler's working directory: where the user ran touchstone. */
  cwd: string;
  onRun?(record: CompilerRunRecord): Promise<void>;
}

export async function runCompilerCase(testCase: CompilerCase, context: CompilerCaseContext): Promise<CaseOutcome> {
  const sandbox = createCompilerSandbox(context.sandboxRoot, testCase, context.fixturesDir);
  const result = await runPluginProcess([...context.command, ...sandbox.args], new Uint8Array(0), { ...context.limits, cwd: context.cwd });
  const files = sandbox.files();
  await context.onRun?.({ args: sandbox.args, result, files: [...files.keys()] });
  let outcome: CaseOutcome = { outcome: 'PASS' };
  const unstarted = testCase.generators.filter((g) => !sandbox.request(g.name)).map((g) => `protoc-gen-${g.name}`);
  if (result.spawnError) {
    outcome = { outcome: 'ERROR', message: `the compiler could not be started: ${result.spawnError}` };
  } else if (result.timedOut) {
    outcome = {
      outcome: 'ERROR',
      message: `the compiler did not finish within ${context.limits.timeoutMs / 1000} s and was killed (--timeout)`,
    };
  } else if (testCase.precondition === 'plugins-started' && unstarted.length) {
    outcome = notReached(`the compiler never started ${listed(unstarted)} (${endedAs(result)}${stderrTail(result)})`, testCase.judgedBy);
  } else {
    try {
      if (testCase.expect.plugins_started && unstarted.length)
        throw new ConformanceFailure(
          CHECK_REQUIREMENT.plugins_started,
          `${listed(unstarted)} to be started and sent a request`,
          `never started (${endedAs(result)}${stderrTail(result)})`,
        );
      judge(testCase, sandbox, result, files);
    } catch (error) {
      if (!(error instanceof ConformanceFailure)) throw error;
      const reproduce = `cd ${shellWord(context.cwd)} && ${[...context.command, ...sandbox.args].map(shellWord).join(' ')}`;
      outcome = stoppedAt(error, testCase.requirements, context, { reproduce });
    }
  }
  if (outcome.outcome === 'PASS') rmSync(sandbox.root, { recursive: true, force: true });
  return outcome;
}

function listed(names: Iterable<string>): string {
  const all = [...names];
  if (all.length === 0) return 'nothing';
  return someOf(all, 8);
}

function judge(testCase: CompilerCase, sandbox: CompilerSandbox, result: PluginProcessResult, files: Map<string, Buffer>): void {
  const { expect } = testCase;
  const main = testCase.requirements[0];
  const stderr = result.stderr.toString('utf8');
  const strays = sandbox.strays();
  if (strays.length)
    throw new ConformanceFailure(
      CHECK_REQUIREMENT.outside_output,
      'nothing written outside the output directory',
      `${listed(strays)} beside it (exit ${result.exitCode})`,
    );
  if (expect.exit === 'zero' && result.exitCode !== 0)
    throw new ConformanceFailure(main, 'exit 0', `${endedAs(result)}${stderrTail(result)}`);
  if (expect.exit === 'nonzero' && result.exitCode === 0)
    throw new ConformanceFailure(main, 'a non-zero exit', `exit 0, having written ${listed(files.keys())}`);

  if (expect.stderr === 'nonempty' && stderr.trim() === '')
    throw new ConformanceFailure(CHECK_REQUIREMENT.stderr, 'a message on stderr', 'nothing on stderr');
  for (const text of expect.stderr_contains ?? []) {
    if (!stderr.includes(text))
      throw new ConformanceFailure(
        main,
        `stderr to contain ${JSON.stringify(text)}`,
        stderr.trim() ? `stderr ${JSON.stringify(stderr.trim().slice(0, 500))}` : 'nothing on stderr',
      );
  }
  if (expect.output) checkOutput(main, expect.output, files);
  const unwanted = (expect.not_written ?? []).filter((name) => files.has(name));
  if (unwanted.length)
    throw new ConformanceFailure(main, `no ${listed(expect.not_written!)}`, `${listed(unwanted)} written (exit ${result.exitCode})`);
  if (expect.nothing_written && files.size > 0)
    throw new ConformanceFailure(CHECK_REQUIREMENT.nothing_written, 'no file written after the failure', `${listed(files.keys())} on disk`);
  if (expect.request) checkRequest(expect.request, sandbox, testCase);
}

function checkOutput(requirement: string, expected: Record<string, string>, files: Map<string, Buffer>): void {
  for (const [name, content] of Object.entries(expected)) {
    const actual = files.get(name);
    if (!actual) throw new ConformanceFailure(requirement, `${name} to be written`, `no such file; written: ${listed(files.keys())}`);
    if (!actual.equals(Buffer.from(content, 'utf8')))
      throw new ConformanceFailure(requirement, `${name} = ${JSON.stringify(content)}`, JSON.stringify(actual.toString('utf8')));
  }
}

function checkRequest(expect: RequestExpectation, sandbox: CompilerSandbox, testCase: CompilerCase): void {
  const generator = expect.generator ?? testCase.generators[0].name;
  const fail = (key: keyof typeof CHECK_REQUIREMENT, expected: string, actual: string): never => {
    throw new ConformanceFailure(expect.requirement ?? CHECK_REQUIREMENT[key], expected, actual);
  };
  const firstCheck =
    Object.keys(expect).find((key): key is keyof typeof CHECK_REQUIREMENT => key in CHECK_REQUIREMENT) ?? 'file_to_generate';
  const bytes = sandbox.request(generator);
  if (!bytes) return fail(firstCheck, `protoc-gen-${generator} to be run`, 'it never received a request');
  let request: CodeGeneratorRequest;
  try {
    request = decodeRequest(bytes);
  } catch (error) {
    if (!(error instanceof MalformedMessageError)) throw error;
    return fail(firstCheck, "a CodeGeneratorRequest on the plugin's stdin", `${bytes.length} bytes that do not parse: ${error.message}`);
  }

  if (expect.file_to_generate && !sameMembers(request.file_to_generate, expect.file_to_generate)) {
    fail(
      'file_to_generate',
      `file_to_generate ${JSON.stringify(expect.file_to_generate)} in any order`,
      JSON.stringify(request.file_to_generate),
    );
  }
  if (expect.file_to_generate_order && JSON.stringify(request.file_to_generate) !== JSON.stringify(expect.file_to_generate_order)) {
    fail(
      'file_to_generate_order',
      `file_to_generate ${JSON.stringify(expect.file_to_generate_order)} in this order`,
      JSON.stringify(request.file_to_generate),
    );
  }
  if (expect.parameter !== undefined) {
    const sent = request.parameter ?? null;
    const same = expect.parameter === null ? !sent : sent === expect.parameter;
    if (!same)
      fail(
        'parameter',
        expect.parameter === null ? 'no parameter' : `parameter ${JSON.stringify(expect.parameter)}`,
        sent === null ? 'no parameter' : `parameter ${JSON.stringify(sent)}`,
      );
  }
  if (expect.topological_order) {
    const problem = topologicalProblem(request);
    if (problem)
      fail('topological_order', 'every file to generate and its imports in proto_file, each after the files it imports', problem);
  }
  if (expect.qualified_type_names) {
    const unqualified = unqualifiedTypeNames(request);
    if (unqualified.length) fail('qualified_type_names', 'fully qualified type names (starting with ".")', listed(unqualified));
  }
  if (expect.proto_file_last) {
    const fields = walkFields(bytes, 0, bytes.length, 'CodeGeneratorRequest').map((f) => f.field);
    const first = fields.indexOf(15);
    const after = first < 0 ? [] : fields.slice(first).filter((f) => LISTED_BEFORE_PROTO_FILE.has(f));
    if (after.length)
      fail(
        'proto_file_last',
        'proto_file (15) after file_to_generate, parameter and compiler_version (1, 2, 3)',
        `field order ${fields.join(' ')}`,
      );
  }
  // Each number of Version is optional (spec 3's table), so only the field is required.
  if (expect.compiler_version && !request.compiler_version) fail('compiler_version', 'compiler_version', 'no compiler_version');
}

/** The fields spec 3 lists besides proto_file: "the other fields" it writes proto_file after. */
const LISTED_BEFORE_PROTO_FILE = new Set([1, 2, 3]);

/** The same names, each as often, in any order. */
function sameMembers(actual: readonly string[], expected: readonly string[]): boolean {
  return JSON.stringify([...actual].sort()) === JSON.stringify([...expected].sort());
}

/** Why proto_file is not complete and in topological order, or undefined. */
function topologicalProblem(request: CodeGeneratorRequest): string | undefined {
  const position = new Map(request.proto_file.map((file, index) => [file.name, index]));
  for (const name of request.file_to_generate) if (!position.has(name)) return `${name} (to generate) is not in proto_file`;
  for (const [index, file] of request.proto_file.entries()) {
    for (const dependency of file.dependency) {
      const at = position.get(dependency);
      if (at === undefined) return `${dependency} (imported by ${file.name}) is not in proto_file`;
      if (at > index) return `${file.name} comes before ${dependency}, which it imports`;
    }
  }
  return undefined;
}

interface DescriptorNode {
  field?: { name?: string; type_name?: string; extendee?: string }[];
  extension?: DescriptorNode['field'];
  nested_type?: DescriptorNode[];
  message_type?: DescriptorNode[];
  name?: string;
}

/** Field and extension type references (type_name, extendee) in proto_file that do not start with '.', as file: name. */
function unqualifiedTypeNames(request: CodeGeneratorRequest): string[] {
  const found: string[] = [];
  for (const file of request.proto_file) {
    const check = (name: string | undefined, where: string) => {
      if (name !== undefined && !name.startsWith('.')) found.push(`${file.name}: ${where} ${JSON.stringify(name)}`);
    };
    const walk = (node: DescriptorNode) => {
      for (const field of [...(node.field ?? []), ...(node.extension ?? [])]) {
        check(field.type_name, `${field.name} type_name`);
        check(field.extendee, `${field.name} extendee`);
      }
      for (const child of [...(node.nested_type ?? []), ...(node.message_type ?? [])]) walk(child);
    };
    walk(file.descriptor() as DescriptorNode);
  }
  return found;
}
