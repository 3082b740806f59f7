// Differential tests: the same canned plugins, inputs and flags through Debian's protoc 3.21
// and through touchstone protoc, each in its own sandbox. Same exit status, same stdout and
// stderr, byte-identical trees (outputs and anything that escaped into the sandbox), except
// where touchstone differs on purpose; those cases say how and why. Inputs come from a
// descriptor set protoc itself wrote (--include_imports --include_source_info), so both
// sides see the same descriptors whether or not the .proto parser exists yet.
import { fileURLToPath } from 'node:url';
import {
  DEMO_PROTOS,
  demoDescriptorSet,
  expect,
  test,
  type CannedPlugin,
  type RunResult,
  type Sandbox,
  type SandboxFactory,
} from './canned-plugin.fixture.js';
import { DIFF_CASES, file, GEN, type DiffCase } from './protoc-differential-cases.fixture.js';
import { loadPluginMessages } from './common/plugin-messages.js';
import { skipWithoutDebianProtoc } from '../../test-support/debian-protoc.js';

skipWithoutDebianProtoc(test);
test.describe.configure({ mode: 'parallel' });

/** Files that are the fixture, not output. */
const FIXTURE = /^(bin|req|resp|protos)\/|^set\.pb$/;
/** Debian's libprotobuf logs invalid UTF-8 in strings; not part of protoc's own texts. */
const LIBPROTOBUF_LOG = /^\[libprotobuf (ERROR|WARNING) [^\n]*\n/gm;

const messages = loadPluginMessages();
const PROTOC_GEN_ES = fileURLToPath(new URL('../../node_modules/.bin/protoc-gen-es', import.meta.url));

let descriptorSet: Uint8Array;
test.beforeAll(async () => {
  descriptorSet = await demoDescriptorSet();
});

function outputs(box: Sandbox): Record<string, string> {
  return Object.fromEntries(
    Object.entries(box.tree()).filter(([name]) => !FIXTURE.test(name) && !['bin/', 'req/', 'resp/', 'protos/'].includes(name)),
  );
}

async function compare(sandbox: SandboxFactory, c: DiffCase): Promise<{ protoc: RunResult; ours: RunResult }> {
  const [theirs, ours] = [sandbox({ descriptorSet }), sandbox({ descriptorSet })];
  for (const box of [theirs, ours]) {
    for (const plugin of c.plugins) box.addPlugin(plugin);
    c.setup?.(box);
  }
  const args = [...(c.input ?? ['--descriptor_set_in=set.pb']), ...c.args];
  const protocResult = await theirs.runDebianProtoc(args);
  expect(protocResult.code, `protoc: ${protocResult.stderr}`).toBe(c.code);
  // protoc's compiler_version, so requests can be compared byte for byte.
  const oursResult = await ours.runOurs(['--compiler_version=3.21.12', ...args]);
  const protoc = { ...protocResult, stderr: protocResult.stderr.replace(LIBPROTOBUF_LOG, '') };
  if (c.differs) {
    expect(oursResult, c.differs.reason).toEqual(c.differs.ours);
    if (c.differs.oursTree) expect(outputs(ours), c.differs.reason).toEqual(c.differs.oursTree);
  } else {
    expect(oursResult).toEqual(protoc);
    expect(outputs(ours)).toEqual(outputs(theirs));
  }
  for (const name of c.compareRequests ?? []) {
    expect(theirs.request(name), `protoc sent ${name} a request`).toBeDefined();
    expect(Buffer.from(ours.request(name)!).equals(Buffer.from(theirs.request(name)!)), `request of ${name} byte-identical`).toBe(true);
  }
  for (const name of c.compareRequestNames ?? []) {
    const names = (box: Sandbox) => {
      const request = box.request(name);
      expect(request, `${name} got a request`).toBeDefined();
      const decoded = messages.request.decode(request!) as unknown as {
        file_to_generate: string[];
        parameter?: string;
        proto_file: { name: string }[];
      };
      return { fileToGenerate: decoded.file_to_generate, parameter: decoded.parameter, protoFile: decoded.proto_file.map((f) => f.name) };
    };
    expect(names(ours)).toEqual(names(theirs));
  }
  return { protoc, ours: oursResult };
}

for (const [title, c] of Object.entries(DIFF_CASES)) {
  test(title, async ({ sandbox }) => {
    await compare(sandbox, c);
  });
}

const REFUSAL = ' (touchstone refuses what the plugin protocol forbids; protoc 3.21 would not)\n';
const refused: [string, string, string][] = [
  ['absname', '/abs_target/abs.txt', 'File name "/abs_target/abs.txt" is absolute: names are relative to the output directory'],
  ['dotdot', '../escaped.txt', 'File name "../escaped.txt" has a ".." component'],
  ['dotname', './dot.txt', 'File name "./dot.txt" has a "." component'],
  ['backslash', 'a\\b.txt', 'File name "a\\\\b.txt" contains a backslash: "/" is the only separator'],
];
for (const [plugin, name, problem] of refused) {
  test(`refused name ${name}: protoc writes it, touchstone refuses the run`, async ({ sandbox }) => {
    await compare(sandbox, {
      code: 0,
      plugins: [{ name: plugin, response: { file: [file('ok.txt', 'ok'), file(name, 'x')] } }],
      args: [`--${plugin}_out=out`, 'foo.proto'],
      differs: {
        reason: 'the spec forbids this name',
        ours: { code: 1, stdout: '', stderr: `--${plugin}_out: protoc-gen-${plugin}: ${problem}${REFUSAL}` },
        oursTree: { 'o2/': '', 'out/': '' },
      },
    });
  });
}

test('insertion with no name: protoc defers an error for file "", touchstone refuses the run', async ({ sandbox }) => {
  const { protoc } = await compare(sandbox, {
    code: 1,
    plugins: [
      { name: 'base', response: { file: [file('gen.txt', GEN)] } },
      { name: 'noname', response: { file: [{ insertion_point: 'twice', content: 'x' }] } },
    ],
    args: ['--base_out=out', '--noname_out=out', 'foo.proto'],
    differs: {
      reason: 'the spec says insertion_point requires name',
      ours: {
        code: 1,
        stdout: '',
        stderr: `--noname_out: protoc-gen-noname: File with insertion_point "twice" has no name: an insertion needs the name of the file to insert into${REFUSAL}`,
      },
      oursTree: { 'o2/': '', 'out/': '' },
    },
  });
  expect(protoc).toEqual({ code: 1, stdout: '', stderr: ": Tried to insert into file that doesn't exist.\n" });
});

test('a real plugin, protoc-gen-es: byte-identical output', async ({ sandbox }) => {
  await compare(sandbox, {
    code: 0,
    plugins: [],
    args: [`--plugin=protoc-gen-es=${PROTOC_GEN_ES}`, '--es_out=out', '--es_opt=target=ts+js', 'foo.proto', 'opt.proto', 'usesopt.proto'],
  });
});

test.describe('with .proto sources, through proto-parser.ts', () => {
  const INSERTIONS = DIFF_CASES['insertions: indentation, inline, first line, order within a response and across plugins, continuation'];
  const dump: CannedPlugin = { name: 'dump', response: { supported_features: 1, file: [{ name: 'x.txt', content: 'x' }] } };
  const sourceCases: Record<string, DiffCase> = {
    'insertions across plugins': { ...INSERTIONS, input: ['-Iprotos'] },
    'request: names relative to the import path, order, parameter': {
      code: 0,
      plugins: [dump],
      input: ['-Iprotos'],
      args: ['--dump_out=p:out', '--dump_opt=o', 'protos/usesopt.proto', 'foo.proto', './protos/dep.proto'],
      compareRequestNames: ['dump'],
    },
    'proto3 optional without the feature': {
      code: 1,
      plugins: [{ name: 'nofeat' }],
      input: ['-Iprotos'],
      args: ['--nofeat_out=out', 'opt.proto'],
    },
    'input not found': { code: 1, plugins: [dump], input: ['-Iprotos'], args: ['--dump_out=out', 'nope.proto'] },
    'input outside every import directory': {
      code: 1,
      plugins: [dump],
      input: ['-Iprotos'],
      args: ['--dump_out=out', 'other/foo.proto'],
      setup: (box) => box.write('other/foo.proto', DEMO_PROTOS['foo.proto']),
    },
    'input shadowed by an earlier import directory': {
      code: 1,
      plugins: [dump],
      input: ['-Iprotos', '-Iother'],
      args: ['--dump_out=out', 'other/dep.proto'],
      setup: (box) => box.write('other/dep.proto', DEMO_PROTOS['dep.proto']),
    },
  };
  for (const [title, c] of Object.entries(sourceCases)) {
    test(title, async ({ sandbox }) => {
      await compare(sandbox, c);
    });
  }
});
