import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFixtureDescriptors } from './fixture-descriptors.js';
import { encodeResponse, type CodeGeneratorResponseInput } from '../protocol/plugin-codec.js';
import { loadRequirementRegistry } from '../core/requirement-registry.js';
import { suitePaths } from '../core/suite-paths.js';
import { runPluginCase, type PluginCaseContext } from './plugin-checks.js';
import { lintPluginSuites, loadPluginSuites } from './plugin-suite-loader.js';
import type { PluginCase } from './plugin-suite-format.js';

const REFERENCE_PLUGIN = fileURLToPath(new URL('../../bin/protoc-gen-touchstone.js', import.meta.url));
const registry = loadRequirementRegistry(suitePaths.requirements);
const suites = loadPluginSuites(suitePaths.plugin);
const allCases = suites.flatMap((s) => s.cases);
const caseById = (id: string): PluginCase => allCases.find((c) => c.id === id)!;

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-plugin-checks-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

const context = (command: string[]): PluginCaseContext => ({
  command,
  describe: loadFixtureDescriptors(),
  registry,
  strict: false,
  limits: { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 * 1024 },
});

/** A plugin that reads its request and answers `response` whatever it was asked. */
function cannedPlugin(name: string, response: CodeGeneratorResponseInput | Buffer, extra = ''): string[] {
  const file = path.join(dir, `${name}.bin`);
  writeFileSync(file, Buffer.isBuffer(response) ? response : encodeResponse(response));
  return ['/bin/sh', '-c', `cat >/dev/null; ${extra}cat '${file}'`];
}

test('the suites load and pass their lint', () => {
  expect(lintPluginSuites(suites, registry, suitePaths.pluginFixtures)).toEqual([]);
  expect(allCases.length).toBeGreaterThanOrEqual(12);
});

test('the reference plugin passes every case', async () => {
  test.setTimeout(120_000);
  for (const testCase of allCases) {
    expect({ id: testCase.id, ...(await runPluginCase(testCase, context(['node', REFERENCE_PLUGIN]))) }).toEqual({
      id: testCase.id,
      outcome: 'PASS',
    });
  }
});

test('each broken rule fails its own requirement, with a printf | plugin reproduction when no report folder saves the request', async () => {
  const named = (name: string, content = 'x\n') => ({ name, content });
  const cases: [string, CodeGeneratorResponseInput, string][] = [
    ['nameless-first', { file: [{ content: 'orphan\n' }] }, 'plugin.files.first-chunk-named'],
    ['absolute', { file: [named('/etc/x.txt')] }, 'plugin.files.name-safe'],
    ['dotdot', { file: [named('a/../../x.txt')] }, 'plugin.files.name-safe'],
    ['dot', { file: [named('a/./x.txt')] }, 'plugin.files.name-safe'],
    ['nameless-insert', { file: [named('a.txt'), { insertion_point: 'p', content: 'y\n' }] }, 'plugin.files.insertion-point-needs-name'],
  ];
  for (const [name, response, requirement] of cases) {
    const result = await runPluginCase(caseById('names-proto3'), context(cannedPlugin(name, response)));
    expect({ name, outcome: result.outcome, requirement: result.failure?.requirement }).toEqual({ name, outcome: 'FAIL', requirement });
    expect(result.failure?.reproduce).toMatch(/^printf '(?:[ -~]|\\[0-7]{3})*' \| \/bin\/sh -c /);
  }
  // Only the spec's three rules: a backslash is no separator, an empty component is neither . nor ..
  for (const [name, file] of [
    ['backslash', 'a\\b.txt'],
    ['empty-component', 'a//b.txt'],
  ]) {
    const result = await runPluginCase(caseById('names-proto3'), context(cannedPlugin(name, { file: [named(file)] })));
    expect({ name, outcome: result.outcome }).toEqual({ name, outcome: 'PASS' });
  }
  // The feature bit is protoc's negotiation, a MAY: WARN.
  const noFeature = await runPluginCase(caseById('proto3-optional'), context(cannedPlugin('no-feature', { file: [named('opt.md')] })));
  expect(noFeature).toMatchObject({ outcome: 'WARN', failure: { requirement: 'plugin.features.proto3-optional' } });
  // Declining the file instead is fine, but then the feature bit was never put to the test.
  const refuses = await runPluginCase(
    caseById('proto3-optional'),
    context(cannedPlugin('refuses', { error: 'proto3 optional is not supported' })),
  );
  expect(refuses).toMatchObject({
    outcome: 'SKIP',
    not_reached: {
      cause:
        'the plugin declined the sound request for optional.proto in `error` (exit 0, as spec 3 allows): "proto3 optional is not supported"',
    },
  });
});

test('exit status, stderr and unparseable output are judged; a level below MUST only warns', async () => {
  const garbageAnswer = await runPluginCase(caseById('real-request'), context(cannedPlugin('garbage-out', Buffer.from('not a response'))));
  expect(garbageAnswer.failure?.requirement).toBe('plugin.io.one-request-one-response');
  const zeroOnGarbage = await runPluginCase(caseById('garbage-stdin'), context(cannedPlugin('lenient', {})));
  expect(zeroOnGarbage).toMatchObject({
    outcome: 'FAIL',
    failure: { requirement: 'plugin.errors.unparseable-request-nonzero', actual: 'exit 0 with 0 bytes on stdout' },
  });
  const silent = await runPluginCase(caseById('garbage-stdin'), context(['/bin/sh', '-c', 'cat >/dev/null; exit 1']));
  expect(silent).toMatchObject({ outcome: 'FAIL', failure: { expected: 'a message on stderr' } });
  // Declining a schema through `error` with exit 0 is what spec 3 prescribes: a valid answer,
  // though then no generated name was there to judge.
  const erroring = cannedPlugin('erroring', { error: 'nope' });
  for (const id of ['real-request', 'empty-request', 'unknown-request-fields'])
    expect({ id, ...(await runPluginCase(caseById(id), context(erroring))) }).toEqual({ id, outcome: 'PASS' });
  for (const id of ['names-proto3', 'names-proto2'])
    expect(await runPluginCase(caseById(id), context(erroring))).toMatchObject({
      outcome: 'SKIP',
      message: expect.stringMatching(/^not reached: the plugin declined .* in `error`/),
    });
  // Different bytes each run: determinism is a MAY, so WARN, not FAIL.
  const counter = path.join(dir, 'counter');
  const flaky = await runPluginCase(
    caseById('deterministic'),
    context([
      '/bin/sh',
      '-c',
      `cat >/dev/null; echo x >>'${counter}'; printf '\\012\\001'; wc -c <'${counter}' | tr -d ' \\n' | head -c 1`,
    ]),
  );
  expect(flaky).toMatchObject({ outcome: 'WARN', failure: { requirement: 'plugin.output.deterministic' } });
});

test("a hang and a missing program are ERROR for their case only; a crash is the plugin's failure", async () => {
  const hang = await runPluginCase(caseById('garbage-stdin'), {
    ...context(['/bin/sh', '-c', 'sleep 30']),
    limits: { timeoutMs: 300, maxOutputBytes: 1024 },
  });
  expect(hang).toMatchObject({
    outcome: 'ERROR',
    message: expect.stringMatching(/^the plugin did not finish within 0.3 s and was killed \(--timeout: spec 3 sets no limit/),
  });
  const missing = await runPluginCase(caseById('real-request'), context(['/nonexistent/protoc-gen-x']));
  expect(missing).toEqual({ outcome: 'ERROR', message: 'the plugin could not be started: /nonexistent/protoc-gen-x: ENOENT' });
  const crashing = context(['/bin/sh', '-c', 'cat >/dev/null; echo dying >&2; kill -SEGV $$']);
  expect(await runPluginCase(caseById('garbage-stdin'), crashing)).toMatchObject({
    outcome: 'FAIL',
    failure: { requirement: 'plugin.errors.unparseable-request-nonzero', actual: 'killed by SIGSEGV; stderr: dying' },
  });
  const crash = await runPluginCase(caseById('real-request'), crashing);
  expect(crash).toMatchObject({
    outcome: 'FAIL',
    failure: { requirement: 'plugin.errors.schema-problem-exit-zero', actual: 'killed by SIGSEGV; stderr: dying' },
  });
  // Writing past --max-output is no response either.
  const flood = await runPluginCase(caseById('real-request'), {
    ...context(['/bin/sh', '-c', 'cat >/dev/null; yes']),
    limits: { timeoutMs: 20_000, maxOutputBytes: 4096 },
  });
  expect(flood).toMatchObject({
    outcome: 'FAIL',
    failure: { requirement: 'plugin.io.one-request-one-response', actual: expect.stringContaining('(--max-output)') },
  });
});

test('a plugin that refuses every sound request is one FAIL, in real-request; every case that needed an answer is not reached', async () => {
  const refusing = context([
    '/bin/sh',
    '-c',
    'cat >/dev/null; echo \'protoc-gen-x: unable to place "shop/money.proto"\' >&2; echo "see the docs" >&2; exit 1',
  ]);
  const outcomes = new Map<string, Awaited<ReturnType<typeof runPluginCase>>>();
  for (const testCase of allCases) outcomes.set(testCase.id, await runPluginCase(testCase, refusing));
  const judge = outcomes.get('real-request')!;
  expect(judge).toMatchObject({ outcome: 'FAIL', failure: { requirement: 'plugin.errors.schema-problem-exit-zero' } });
  // Every sound request the preconditions rely on is judged, and each refusal listed.
  expect(judge.failures?.map((f) => f.expected.match(/for the sound request for (.*)$/)?.[1])).toEqual([
    'shop/catalog.proto',
    'legacy.proto',
    'shop/catalog.proto, shop/money.proto, legacy.proto',
    'optional.proto',
  ]);
  const failing = [...outcomes].filter(([, o]) => o.outcome === 'FAIL' || o.outcome === 'WARN').map(([id]) => id);
  expect(failing).toEqual(['real-request', 'empty-request']); // empty-request: exit 1 for zero bytes is a MAY, so WARN
  expect(outcomes.get('empty-request')?.outcome).toBe('WARN');
  for (const id of [
    'unknown-request-fields',
    'proto-file-first',
    'schema-problem-in-error',
    'unknown-parameter',
    'deterministic',
    'names-proto3',
    'names-proto2',
    'several-files',
    'proto3-optional',
  ]) {
    const outcome = outcomes.get(id)!;
    expect(outcome.outcome, id).toBe('SKIP');
    expect(outcome.not_reached, id).toEqual({
      cause: expect.stringMatching(
        /^the plugin refused the sound request for .*: exit 1; stderr: protoc-gen-x: unable to place "shop\/money.proto"$/,
      ),
      judged_by: 'io/real-request',
    });
  }
  for (const id of ['garbage-stdin', 'truncated-request', 'oversized-length']) expect(outcomes.get(id)?.outcome, id).toBe('PASS');
});
