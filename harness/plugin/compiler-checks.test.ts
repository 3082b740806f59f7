// The compiler checks judged against fake compilers that get one thing wrong each: a
// checker that cannot fail proves nothing. A fake compiler is a node script with a baked-in
// plan: it runs the case's canned plugin with the request bytes the plan gives, writes the
// plan's files (relative to the output directory, so `../x` escapes it) and exits as told.
import { expect, test } from '@playwright/test';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeRequest, readProtoFile, unknownLengthDelimited, type CodeGeneratorRequestInput } from '../protocol/plugin-codec.js';
import { protocolSchema } from '../protocol/protocol-schema.js';
import { loadRequirementRegistry } from '../core/requirement-registry.js';
import { suitePaths } from '../core/suite-paths.js';
import { runCompilerCase } from './compiler-checks.js';
import type { CompilerCase, CompilerExpectation } from './compiler-suite-format.js';
import { lintCompilerSuites } from './plugin-suite-loader.js';

interface FakePlan {
  /** Sent to the plugin as its request; no plugin is run without it. */
  request?: Uint8Array;
  /** Written relative to the output directory. */
  write?: Record<string, string>;
  exit?: number;
  stderr?: string;
  signal?: NodeJS.Signals;
}

const FAKE_COMPILER = `
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
const plan = JSON.parse(process.argv[2]);
const args = process.argv.slice(3);
const plugin = args.find((a) => a.startsWith('--plugin=')).split('=').slice(2).join('=');
const out = args.find((a) => /^--[a-z0-9_]+_out=/.test(a)).split('=').slice(1).join('=').split(':').at(-1);
if (plan.request !== undefined) spawnSync(plugin, { input: Buffer.from(plan.request, 'hex') });
for (const [name, content] of Object.entries(plan.write ?? {})) {
  mkdirSync(path.dirname(path.join(out, name)), { recursive: true });
  writeFileSync(path.join(out, name), content);
}
if (plan.stderr) process.stderr.write(plan.stderr);
if (plan.signal) process.kill(process.pid, plan.signal);
process.exitCode = plan.exit ?? 0;
`;

const registry = loadRequirementRegistry(suitePaths.requirements);
let dir: string;
let script: string;
test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-compiler-checks-'));
  script = path.join(dir, 'fake-compiler.mjs');
  writeFileSync(script, FAKE_COMPILER);
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileDescriptor(object: Record<string, unknown>) {
  const { fileDescriptorProto } = protocolSchema();
  return readProtoFile(fileDescriptorProto.encode(fileDescriptorProto.fromObject(object)).finish());
}
const money = fileDescriptor({ name: 'shop/money.proto', package: 'shop.v1', message_type: [{ name: 'Money' }] });
const catalog = (typeName: string) =>
  fileDescriptor({
    name: 'shop/catalog.proto',
    package: 'shop.v1',
    dependency: ['shop/money.proto'],
    message_type: [{ name: 'Product', field: [{ name: 'price', number: 3, type: 'TYPE_MESSAGE', type_name: typeName }] }],
  });
const soundRequest: CodeGeneratorRequestInput = {
  file_to_generate: ['shop/catalog.proto'],
  compiler_version: { major: 1, minor: 0, patch: 0 },
  proto_file: [money, catalog('.shop.v1.Money')],
};

let caseNumber = 0;
async function judge(
  expectation: CompilerExpectation,
  plan: FakePlan,
  options: { requirements?: string[]; strict?: boolean; timeoutMs?: number; precondition?: CompilerCase['precondition'] } = {},
) {
  const testCase: CompilerCase = {
    id: 'fake',
    title: 'a case judged against a fake compiler',
    requirements: options.requirements ?? ['compiler.apply.continuation'],
    precondition: options.precondition ?? 'none',
    files: ['shop/catalog.proto'],
    generators: [{ name: 'one', response: {} }],
    expect: expectation,
  };
  const sandboxRoot = path.join(dir, `case-${++caseNumber}`);
  const planArg = JSON.stringify({ ...plan, request: plan.request && Buffer.from(plan.request).toString('hex') });
  const outcome = await runCompilerCase(testCase, {
    command: ['node', script, planArg],
    fixturesDir: suitePaths.pluginFixtures,
    registry,
    strict: options.strict ?? false,
    limits: { timeoutMs: options.timeoutMs ?? 20_000, maxOutputBytes: 1 << 20 },
    sandboxRoot,
    cwd: dir,
  });
  return { ...outcome, kept: existsSync(sandboxRoot) };
}

test('a compiler that does what the case expects passes, and its sandbox is removed', async () => {
  const result = await judge(
    {
      exit: 'zero',
      output: { 'out/a.txt': 'a\n' },
      request: {
        file_to_generate: ['shop/catalog.proto'],
        proto_file_last: true,
        topological_order: true,
        qualified_type_names: true,
        compiler_version: true,
      },
    },
    { request: encodeRequest(soundRequest), write: { 'a.txt': 'a\n' } },
  );
  expect(result).toMatchObject({ outcome: 'PASS', kept: false });
});

test('a file written outside the output directory is judged under names-inside-output (SHOULD), whatever else the case checks', async () => {
  const result = await judge({ exit: 'nonzero' }, { write: { '../escaped.txt': 'x' }, exit: 1 });
  expect(result.outcome).toBe('WARN');
  expect(result.failure).toMatchObject({
    requirement: 'compiler.apply.names-inside-output',
    actual: expect.stringContaining('escaped.txt beside it'),
  });
  expect(result.kept).toBe(true);
  expect(result.failure?.reproduce).toMatch(new RegExp(`^cd ${dir} && node `));
  expect((await judge({ exit: 'nonzero' }, { write: { '../escaped.txt': 'x' }, exit: 1 }, { strict: true })).outcome).toBe('FAIL');
});

test('exit any accepts either status; not_written fails the case when a named file exists', async () => {
  for (const exit of [0, 1]) expect((await judge({ exit: 'any' }, { exit })).outcome).toBe('PASS');
  const expectation: CompilerExpectation = { exit: 'any', not_written: ['out/missing.txt'] };
  expect((await judge(expectation, { write: { 'ok.txt': 'ok' } })).outcome).toBe('PASS');
  const created = await judge(expectation, { write: { 'ok.txt': 'ok', 'missing.txt': 'x' }, exit: 1 });
  expect(created.failure).toMatchObject({
    requirement: 'compiler.apply.continuation',
    expected: 'no out/missing.txt',
    actual: 'out/missing.txt written (exit 1)',
  });
});

test("a wrong output tree fails the case's own requirement, naming the file and both contents", async () => {
  const wrong = await judge({ exit: 'zero', output: { 'out/a.txt': 'part1\npart2\n' } }, { write: { 'a.txt': 'part1\n' } });
  expect(wrong.failure).toMatchObject({
    requirement: 'compiler.apply.continuation',
    expected: 'out/a.txt = "part1\\npart2\\n"',
    actual: '"part1\\n"',
  });
  // spec 3 says nothing of what else a compiler writes: a file beside the expected ones is no failure.
  const extra = await judge({ exit: 'zero', output: { 'out/a.txt': 'a' } }, { write: { 'a.txt': 'a', 'b.txt': 'b' } });
  expect(extra.outcome).toBe('PASS');
});

test('output left after a failure is a MAY (a choice spec 3 leaves open): WARN, even with --strict', async () => {
  const requirements = ['compiler.apply.error-fails', 'compiler.apply.nothing-written-on-failure'];
  const plan = { write: { 'a.txt': 'a' }, exit: 1, stderr: 'failed' };
  const lenient = await judge({ exit: 'nonzero', nothing_written: true }, plan, { requirements });
  expect(lenient).toMatchObject({ outcome: 'WARN', failure: { requirement: 'compiler.apply.nothing-written-on-failure' } });
  const strict = await judge({ exit: 'nonzero', nothing_written: true }, plan, { requirements, strict: true });
  expect(strict.outcome).toBe('WARN');
});

test('a success where failure is expected, and silence where a message is expected, fail', async () => {
  expect((await judge({ exit: 'nonzero' }, { write: { 'ok.txt': 'ok' } })).failure?.actual).toBe('exit 0, having written out/ok.txt');
  // A failure said on stderr is a SHOULD (spec 3 names no channel): WARN, FAIL under --strict.
  const silent = await judge(
    { exit: 'nonzero', stderr: 'nonempty' },
    { exit: 1 },
    { requirements: ['compiler.apply.error-fails', 'compiler.apply.failure-said'] },
  );
  expect(silent).toMatchObject({ outcome: 'WARN', failure: { requirement: 'compiler.apply.failure-said', actual: 'nothing on stderr' } });
  expect(
    (await judge({ exit: 'nonzero', stderr_contains: ['the plugin error'] }, { exit: 1, stderr: 'something else' })).failure?.expected,
  ).toBe('stderr to contain "the plugin error"');
});

test('each request check fails under its own requirement', async () => {
  const cases: [CompilerExpectation['request'], Uint8Array, string][] = [
    [
      { file_to_generate: ['shop/catalog.proto'] },
      encodeRequest({ ...soundRequest, file_to_generate: ['shop/money.proto', 'shop/catalog.proto'] }),
      'compiler.request.file-to-generate',
    ],
    [
      { file_to_generate_order: ['shop/catalog.proto', 'shop/money.proto'] },
      encodeRequest({ ...soundRequest, file_to_generate: ['shop/money.proto', 'shop/catalog.proto'] }),
      'compiler.request.file-to-generate-order',
    ],
    [
      { topological_order: true },
      encodeRequest({ ...soundRequest, proto_file: [catalog('.shop.v1.Money'), money] }),
      'compiler.request.topological-order',
    ],
    [
      { topological_order: true },
      encodeRequest({ ...soundRequest, proto_file: [catalog('.shop.v1.Money')] }),
      'compiler.request.topological-order',
    ],
    [
      { qualified_type_names: true },
      encodeRequest({ ...soundRequest, proto_file: [money, catalog('Money')] }),
      'compiler.request.qualified-type-names',
    ],
    [
      { proto_file_last: true },
      Buffer.concat([encodeRequest({ proto_file: soundRequest.proto_file }), encodeRequest({ ...soundRequest, proto_file: [] })]),
      'compiler.request.proto-file-last',
    ],
    [{ parameter: null }, encodeRequest({ ...soundRequest, parameter: 'x=1' }), 'compiler.request.parameter'],
    [{ parameter: 'a,b' }, encodeRequest({ ...soundRequest, parameter: 'b,a' }), 'compiler.request.parameter'],
    [{ compiler_version: true }, encodeRequest({ ...soundRequest, compiler_version: undefined }), 'compiler.request.compiler-version'],
  ];
  for (const [request, bytes, requirement] of cases) {
    const result = await judge({ exit: 'zero', request }, { request: bytes });
    expect(result.failure?.requirement, JSON.stringify(request)).toBe(requirement);
  }
  // A Version with only some numbers: each is optional (spec 3's table), so it passes.
  expect(
    (
      await judge(
        { exit: 'zero', request: { compiler_version: true } },
        { request: encodeRequest({ ...soundRequest, compiler_version: { major: 3 } }) },
      )
    ).outcome,
  ).toBe('PASS');
  // The names in another order, proto_file followed by a field spec 3 does not list (protoc
  // 24+ writes source_file_descriptors = 17 there), a method type as written: all allowed.
  const twoFiles = { ...soundRequest, file_to_generate: ['shop/money.proto', 'shop/catalog.proto'] };
  const withMethod = fileDescriptor({
    name: 'shop/catalog.proto',
    package: 'shop.v1',
    dependency: ['shop/money.proto'],
    message_type: [{ name: 'Product', field: [{ name: 'price', number: 3, type: 'TYPE_MESSAGE', type_name: '.shop.v1.Money' }] }],
    service: [{ name: 'Shop', method: [{ name: 'Get', input_type: 'Product', output_type: 'shop.v1.Product' }] }],
  });
  const allowed: [CompilerExpectation['request'], Uint8Array][] = [
    [{ file_to_generate: ['shop/catalog.proto', 'shop/money.proto'] }, encodeRequest(twoFiles)],
    [
      { proto_file_last: true },
      Buffer.concat([
        encodeRequest(soundRequest),
        encodeRequest({ unknown_fields: [unknownLengthDelimited(17, catalog('.shop.v1.Money').bytes)] }),
      ]),
    ],
    [{ qualified_type_names: true }, encodeRequest({ ...soundRequest, proto_file: [money, withMethod] })],
  ];
  for (const [request, bytes] of allowed)
    expect((await judge({ exit: 'zero', request }, { request: bytes })).outcome, JSON.stringify(request)).toBe('PASS');
  // A request check may be judged under another requirement the case cites (a MAY case pinning one reading).
  const pinned = await judge(
    { exit: 'zero', request: { parameter: 'a,b', requirement: 'compiler.request.opt-merged' } },
    { request: encodeRequest({ ...soundRequest, parameter: 'b,a' }) },
    { requirements: ['compiler.request.opt-merged'] },
  );
  expect(pinned).toMatchObject({ outcome: 'WARN', failure: { requirement: 'compiler.request.opt-merged' } });
  // An empty parameter carries none, so it satisfies `parameter: null`.
  expect(
    (await judge({ exit: 'zero', request: { parameter: null } }, { request: encodeRequest({ ...soundRequest, parameter: '' }) })).outcome,
  ).toBe('PASS');
  // A plugin that never ran, or got bytes that are not a request, fails the first check asked for.
  expect((await judge({ exit: 'zero', request: { proto_file_last: true } }, {})).failure).toMatchObject({
    requirement: 'compiler.request.proto-file-last',
    actual: 'it never received a request',
  });
  expect((await judge({ exit: 'zero', request: { parameter: 'x' } }, { request: Buffer.from('garbage') })).failure?.requirement).toBe(
    'compiler.request.parameter',
  );
});

test('a compiler that hangs is ERROR, one that crashes has failed, and one that starts no plugin leaves the case not reached', async () => {
  expect(await judge({ exit: 'zero' }, { signal: 'SIGSEGV' })).toMatchObject({
    outcome: 'FAIL',
    failure: { requirement: 'compiler.apply.continuation', expected: 'exit 0', actual: 'killed by SIGSEGV' },
  });
  const hang = await judge({ exit: 'zero' }, { request: encodeRequest(soundRequest), write: {} }, { timeoutMs: 1 });
  expect(hang).toMatchObject({ outcome: 'ERROR', message: expect.stringContaining('did not finish within 0.001 s') });
  // Exit 1 with a message and nothing written is what a failure case wants: but no plugin ran.
  const idle = await judge(
    { exit: 'nonzero', stderr: 'nonempty', nothing_written: true },
    { exit: 1 },
    { precondition: 'plugins-started' },
  );
  expect(idle).toMatchObject({
    outcome: 'SKIP',
    not_reached: { cause: expect.stringMatching(/^the compiler never started protoc-gen-one \(exit 1/) },
  });
  const judged = await judge({ exit: 'zero', plugins_started: true }, { exit: 0 }, { requirements: ['compiler.run.plugins-started'] });
  expect(judged).toMatchObject({
    outcome: 'FAIL',
    failure: { requirement: 'compiler.run.plugins-started', expected: 'protoc-gen-one to be started and sent a request' },
  });
});

test('the lint refuses a case that checks what it does not cite, or names what it does not have', () => {
  const base: CompilerCase = {
    id: 'c',
    title: 'a case with problems in it',
    requirements: ['compiler.request.parameter'],
    precondition: 'none',
    files: ['shop/money.proto', 'nope.proto'],
    generators: [
      { name: 'one', response: {} },
      { name: 'one', response: {} },
    ],
    expect: { exit: 'zero', nothing_written: true, output: { 'other/x.txt': '' }, request: { generator: 'two', topological_order: true } },
  };
  const overridden: CompilerCase = {
    ...base,
    id: 'd',
    title: 'a case judging its request under another requirement',
    files: ['shop/money.proto'],
    generators: [{ name: 'one', response: {} }],
    expect: { exit: 'zero', request: { parameter: 'x', requirement: 'compiler.request.opt-merged' } },
  };
  const problems = lintCompilerSuites([{ name: 's', file: 's.yaml', cases: [base, overridden] }], registry, suitePaths.pluginFixtures);
  expect(problems).toEqual([
    expect.stringContaining('no fixture nope.proto'),
    's.yaml case c: checks compiler.request.topological-order but does not cite it',
    's.yaml case c: checks compiler.apply.nothing-written-on-failure but does not cite it',
    's.yaml case c: two generators share a name',
    's.yaml case c: expect.request.generator two is not one of its generators',
    's.yaml case c: expected output other/x.txt is not in an output directory of the case',
    's.yaml case d: checks compiler.request.opt-merged but does not cite it',
  ]);
});
