// touchstone's verdicts on real code generators, each held to what spec 3's words give. A case
// not listed for a plugin must PASS; a listed one must have the outcome given, for the reason
// written beside it: spec 3's words and, where it matters, the plugin's own public source
// (protobuf-go v1.28.1, grpc-go v1.33.3, gogo/protobuf v1.3.2, protobuf-es/connect-es 1.x, the
// versions Debian and npm ship). The Errors table is quoted as:
//   (E1) "problem in the schema files that prevents correct generation | set
//        CodeGeneratorResponse.error to a non-empty message and exit with status zero"
//   (E2) "problem in the compiler itself, such as an unparseable request | write a message to
//        standard error and exit with a non-zero status"
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Outcome, Results } from '../core/results.js';
import { loadRequirementRegistry } from '../core/requirement-registry.js';
import { suitePaths } from '../core/suite-paths.js';
import { loadFixtureDescriptors } from './fixture-descriptors.js';
import { runPluginCase } from './plugin-checks.js';
import { loadPluginSuites } from './plugin-suite-loader.js';
import { runCli } from '../../test-support/cli-process.js';
import { debianPlugin, npmPlugin, skipWithoutRealPlugins } from '../../test-support/real-plugins.js';

skipWithoutRealPlugins(test);

const registry = loadRequirementRegistry(suitePaths.requirements);
const suites = loadPluginSuites(suitePaths.plugin);

type Expected = Record<string, [Exclude<Outcome, 'PASS'>, string]>;

const NOT_REACHED = 'not reached: its precondition did not hold, and io/real-request judges why';

/** The Go plugins share protogen (compiler/protogen/protogen.go): what they answer alike. */
const PROTOGEN: Expected = {
  'io/schema-problem-in-error': [
    'FAIL',
    'E1: clash/* carry no go_package, a problem in the schema files for a Go generator, and protogen answers it on stderr with exit 1 ("unable to determine Go import path"): every error of Options.New ends in os.Exit(1) (protogen.go L51-55, L70-73, L245-253)',
  ],
  'io/unknown-parameter': [
    'WARN',
    'a MAY: spec 3 does not say what a plugin does with a parameter it does not know; protogen refuses it on stderr with exit 1 ("no such flag", ParamFunc: flags.Set in cmd/protoc-gen-go/main.go)',
  ],
};

const NO_SERVICE_NOTHING_GENERATED = `${NOT_REACHED}: a generator of services only generates no file for legacy.proto or optional.proto, which have none, so no name was there to judge (spec 3 asks for nothing more)`;

/** The gogoprotobuf generators (protoc-gen-gogo/generator/generator.go): none ever sets `error`. */
const GOGO: Expected = {
  'io/real-request': [
    'FAIL',
    'E1: it refuses the sound request for shop/* and legacy.proto together (two Go packages in one request) on stderr with exit 1, "inconsistent package import paths": Generator.Fail ends in os.Exit(1) and nothing sets CodeGeneratorResponse.error (generator.go L490-501), though its own plugin.pb.go (L173-180) states the rule',
  ],
  'files/several-files': ['SKIP', `${NOT_REACHED}: the same refusal`],
  'io/deterministic': ['SKIP', `${NOT_REACHED}: the same refusal`],
  'files/proto3-optional': [
    'WARN',
    "a MAY (protoc's feature negotiation): it generates for proto3 optional fields without FEATURE_PROTO3_OPTIONAL; its CodeGeneratorResponse has no supported_features field at all",
  ],
  'io/empty-request': [
    'WARN',
    'a MAY: "no files to generate" on stderr with exit 1 for a request naming no file, which E2 allows ("such as an unparseable request": only a broken compiler sends one); never a MUST',
  ],
  'io/schema-problem-in-error': [
    'FAIL',
    'E1: "inconsistent package names: clash_stock, clash_bare" on stderr with exit 1 (generator.go L761-763, g.Fail)',
  ],
};

const PLUGINS: { name: string; command: () => string[]; parameter?: string; expected: Expected }[] = [
  { name: 'protoc-gen-go', command: () => [debianPlugin('protoc-gen-go')], expected: PROTOGEN },
  {
    // What every Go user passes: M options placing each file (here, as its go_package does).
    name: 'protoc-gen-go with M options',
    command: () => [debianPlugin('protoc-gen-go')],
    parameter: 'Mshop/money.proto=example.com/touchstone/shop/v1;shopv1,Mlegacy.proto=example.com/touchstone/legacy;legacy',
    expected: PROTOGEN,
  },
  {
    name: 'protoc-gen-go-grpc',
    command: () => [debianPlugin('protoc-gen-go-grpc')],
    expected: {
      ...PROTOGEN,
      'files/names-proto2': ['SKIP', NO_SERVICE_NOTHING_GENERATED],
      'files/proto3-optional': ['SKIP', NO_SERVICE_NOTHING_GENERATED],
    },
  },
  ...(['gogo', 'gofast', 'gogofast', 'gogofaster', 'gogoslick', 'gostring'] as const).map((name) => ({
    name: `protoc-gen-${name}`,
    command: () => [debianPlugin(`protoc-gen-${name}`)],
    expected: GOGO,
  })),
  {
    // A generator of google/protobuf's own types: on any other file it dereferences nil.
    name: 'protoc-gen-gogotypes',
    command: () => [debianPlugin('protoc-gen-gogotypes')],
    expected: {
      ...GOGO,
      'io/real-request': [
        'FAIL',
        'E1: it answers the sound request for shop/catalog.proto with a Go panic (exit 2, "invalid memory address or nil pointer dereference"): no response, and a sound request is no problem in the compiler',
      ],
      ...Object.fromEntries(
        [
          'files/names-proto3',
          'files/proto3-optional',
          'io/unknown-request-fields',
          'io/proto-file-first',
          'io/schema-problem-in-error',
          'io/unknown-parameter',
        ].map((id) => [id, ['SKIP', `${NOT_REACHED}: the same panic on the sound request its precondition needs`]]),
      ),
    },
  },
  {
    name: 'protoc-gen-connect-es',
    command: () => [npmPlugin('protoc-gen-connect-es')!],
    expected: {
      'files/names-proto2': ['SKIP', NO_SERVICE_NOTHING_GENERATED],
      'files/proto3-optional': ['SKIP', NO_SERVICE_NOTHING_GENERATED],
      'io/schema-problem-in-error': [
        'FAIL',
        'E1: "files_to_generate missing in the request: clash/stock" on stderr with exit 1, for a file protoc accepts: protoplugin names files by stripping ".proto" (create-descriptor-set.ts L155) and cannot find one without it (schema.ts L164-171), and runNodeJs turns every thrown error into stderr and exit 1 (run-node.ts L44-57)',
      ],
      'io/unknown-parameter': [
        'WARN',
        'a MAY: it refuses an unknown option on stderr with exit 1, \'invalid option "touchstone_probe_unknown_option=1"\' (ecmascript/parameter.ts L136-140)',
      ],
    },
  },
];

for (const plugin of PLUGINS) {
  test(`${plugin.name}: touchstone's verdicts are spec 3's`, async () => {
    test.setTimeout(120_000);
    const got: Record<string, string> = {};
    const wanted: Record<string, string> = {};
    for (const suite of suites) {
      for (const testCase of suite.cases) {
        const id = `${suite.name}/${testCase.id}`;
        const outcome = await runPluginCase(testCase, {
          command: plugin.command(),
          describe: loadFixtureDescriptors(),
          registry,
          strict: false,
          limits: { timeoutMs: 30_000, maxOutputBytes: 64 * 1024 * 1024 },
          parameter: plugin.parameter,
        });
        const [expected, why] = plugin.expected[id] ?? ['PASS', ''];
        got[id] = `${outcome.outcome}${outcome.not_reached ? ` judged by ${outcome.not_reached.judged_by}` : ''}: ${outcome.message ?? ''}`;
        wanted[id] = `${expected}${expected === 'SKIP' ? ' judged by io/real-request' : ''}: ${why}`;
        // The outcome (and whom a not-reached case names) must agree; the message is shown when it does not.
        expect(got[id].split(':')[0], `${id}\n  got: ${got[id]}\n  wanted: ${wanted[id]}`).toBe(wanted[id].split(':')[0]);
      }
    }
  });
}

test('touchstone plugin --plugin protoc-gen-go --parameter M…: exactly the real deviations, and a repro.sh whose command reproduces the failure from the saved request', async () => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-real-go-'));
  try {
    const parameter = 'Mshop/money.proto=example.com/touchstone/shop/v1;shopv1,paths=import';
    const run = await runCli(['plugin', '--plugin', debianPlugin('protoc-gen-go'), '--parameter', parameter, '--out', 'report'], {}, dir);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const results = JSON.parse(readFileSync(path.join(dir, 'report', 'results.json'), 'utf8')) as Results;
    expect(results.verdict).toBe('non-conforming');
    expect(results.target.plugin).toEqual({ parameter });
    const notPassing = results.cases.filter((c) => c.outcome !== 'PASS').map((c) => [c.id, c.outcome]);
    expect(notPassing).toEqual([
      ['io/schema-problem-in-error', 'FAIL'],
      ['io/unknown-parameter', 'WARN'],
    ]);
    const repro = readFileSync(path.join(dir, 'report', 'repro.sh'), 'utf8');
    const failing = results.cases.find((c) => c.id === 'io/schema-problem-in-error')!;
    expect(repro).toContain(`${failing.rerun}\n`);
    expect(failing.rerun).toContain(`--parameter '${parameter}'`);
    // The saved request, fed to the plugin as the report says: the same refusal, from bytes with the parameter in them.
    const command = failing.failure!.reproduce!;
    expect(command).toBe(`${debianPlugin('protoc-gen-go')} < report/plugin-requests/io/schema-problem-in-error/run-2.bin`);
    expect(repro).toContain(`#   ${command}`);
    const again = spawnSync('/bin/sh', ['-c', command], { cwd: dir, encoding: 'utf8' });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('unable to determine Go import path for "clash/stock.proto"');
    const text = readFileSync(path.join(dir, 'report/plugin-requests/io/schema-problem-in-error/run-2.txt'), 'utf8');
    expect(text).toContain(`parameter: "${parameter}"`);
    expect(text).toContain('file_to_generate: "clash/stock.proto"');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("your own schema files without go_package: protoc-gen-go's refusal is named once, in io/real-request; the cases on them are not reached; M options make them pass", async () => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-real-own-'));
  try {
    mkdirSync(path.join(dir, 'protos', 'billing', 'v1'), { recursive: true });
    writeFileSync(
      path.join(dir, 'protos', 'billing', 'v1', 'invoice.proto'),
      'syntax = "proto3";\npackage billing.v1;\n// An invoice, as a project without Go options writes it.\nmessage Invoice {\n  string id = 1;\n  int64 total_minor_units = 2;\n}\n',
    );
    const own = ['--proto-path', 'protos', '--proto', 'billing/v1/invoice.proto'];
    const judge = async (extra: string[], out: string) => {
      const run = await runCli(['plugin', '--plugin', debianPlugin('protoc-gen-go'), ...own, ...extra, '--out', out], {}, dir);
      const results = JSON.parse(readFileSync(path.join(dir, out, 'results.json'), 'utf8')) as Results;
      return { run, results, outcomes: Object.fromEntries(results.cases.filter((c) => c.outcome !== 'PASS').map((c) => [c.id, c])) };
    };
    const bare = await judge([], 'bare');
    expect(bare.results.verdict).toBe('non-conforming');
    expect(Object.keys(bare.outcomes).sort()).toEqual([
      'io/real-request',
      'io/schema-problem-in-error',
      'io/unknown-parameter',
      'own/deterministic',
      'own/names',
      'own/unknown-request-fields',
    ]);
    const refusal = bare.outcomes['io/real-request'];
    expect(refusal.outcome).toBe('FAIL');
    expect(refusal.failure).toMatchObject({
      requirement: 'plugin.errors.schema-problem-exit-zero',
      expected: 'exit 0 and a response for the sound request for billing/v1/invoice.proto',
      actual: expect.stringContaining('unable to determine Go import path for "billing/v1/invoice.proto"'),
    });
    for (const id of ['own/deterministic', 'own/names', 'own/unknown-request-fields']) {
      expect(bare.outcomes[id].outcome, id).toBe('SKIP');
      expect(bare.outcomes[id].not_reached, id).toEqual({
        cause:
          'the plugin refused the sound request for billing/v1/invoice.proto: exit 1; stderr: protoc-gen-go: unable to determine Go import path for "billing/v1/invoice.proto"',
        judged_by: 'io/real-request',
      });
    }
    // The console says the refusal once for the three cases, with who judges it.
    expect(bare.run.stdout).toContain(
      'not reached, own/names, own/unknown-request-fields, own/deterministic: the plugin refused the sound request for billing/v1/invoice.proto',
    );
    const placed = await judge(['--parameter', 'Mbilling/v1/invoice.proto=example.com/billing/v1;billingv1'], 'placed');
    expect(Object.keys(placed.outcomes).sort()).toEqual(['io/schema-problem-in-error', 'io/unknown-parameter']);
    expect(placed.results.target.plugin).toEqual({
      parameter: 'Mbilling/v1/invoice.proto=example.com/billing/v1;billingv1',
      proto: ['billing/v1/invoice.proto'],
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
