// protoc 3.21's command line, in-process: flag forms, parameter merging, and every error
// text the parser can produce (checked against Debian's protoc where it shares them, in
// protoc-differential.test.ts).
import { expect, test } from '@playwright/test';
import { parseProtocArgs, pluginNameOf, type ArgsEnvironment, type ArgsOutcome, type ProtocInvocation } from './protoc-args.js';

function env(existing: string[] = ['.', 'protos', 'a', 'b'], argumentFiles: Record<string, string> = {}): ArgsEnvironment {
  return { pathExists: (p) => existing.includes(p), readArgumentFile: (p) => argumentFiles[p] };
}

function run(args: string[], environment = env()): ProtocInvocation {
  const outcome = parseProtocArgs(args, environment);
  if (outcome.kind !== 'run') throw new Error(`expected a run, got exit ${outcome.code}: ${outcome.stderr}`);
  return outcome.invocation;
}

function failure(args: string[], environment = env()): string {
  const outcome: ArgsOutcome = parseProtocArgs(args, environment);
  expect(outcome.kind).toBe('exit');
  if (outcome.kind !== 'exit') return '';
  expect(outcome.code).toBe(1);
  return outcome.stderr;
}

test.describe.configure({ mode: 'parallel' });

test('--NAME_out splits PARAMS:DIR at the first colon; each occurrence is its own run', () => {
  const { outputs } = run(['--basic_out=a=b:c:out', '--basic_out=plain', '--other_out', 'o2', 'x.proto']);
  expect(outputs).toEqual([
    { flag: '--basic_out', pluginName: 'protoc-gen-basic', parameter: 'a=b', location: 'c:out' },
    { flag: '--basic_out', pluginName: 'protoc-gen-basic', parameter: '', location: 'plain' },
    { flag: '--other_out', pluginName: 'protoc-gen-other', parameter: '', location: 'o2' },
  ]);
});

test('--NAME_opt values reach every run of NAME, wherever they stand, joined as protoc joins them', () => {
  const { outputs } = run(['--plug_opt=foo1', '--plug_out=bar:a', '--plug_opt=foo2', '--plug_out=baz:b', '--plug_opt=foo3', 'x.proto']);
  expect(outputs.map((o) => o.parameter)).toEqual(['bar,foo1,foo2,foo3', 'baz,foo1,foo2,foo3']);
  expect(run(['--p_out=:o', '--p_opt=x', 'x.proto']).outputs[0].parameter).toBe('x');
  expect(run(['--p_out=o', '--p_opt=a', '--p_opt=', '--p_opt=b', 'x.proto']).outputs[0].parameter).toBe('a,,b');
  expect(run(['--p_out=o', '--p_opt=', '--p_opt=b', 'x.proto']).outputs[0].parameter).toBe('b');
});

test('orphan --NAME_opt flags: all reported, in plugin-name order; --plugin registration exempts', () => {
  expect(failure(['--zzz_opt=a', '--aaa_opt=b', '--mmm_opt=c', '--mmm_out=out', 'x.proto'])).toBe(
    'Unknown flag: --aaa_opt\nUnknown flag: --zzz_opt\n',
  );
  expect(run(['--plugin=protoc-gen-reg=./p', '--reg_opt=x', '--other_out=o', 'x.proto']).outputs).toHaveLength(1);
});

test('--plugin: NAME=PATH maps exactly that name; a bare PATH is named by its basename; later wins', () => {
  const { plugins } = run([
    '--plugin=protoc-gen-a=bin/one',
    '--plugin=custom=bin/two',
    '--plugin=tools/protoc-gen-b',
    '--plugin=protoc-gen-a=bin/three',
    '--a_out=o',
    'x.proto',
  ]);
  expect([...plugins]).toEqual([
    ['protoc-gen-a', 'bin/three'],
    ['custom', 'bin/two'],
    ['protoc-gen-b', 'tools/protoc-gen-b'],
  ]);
  expect(pluginNameOf('--foo_out')).toBe('protoc-gen-foo');
});

test('-I forms, colon lists, the default ".", and a missing directory only warns', () => {
  expect(run(['-Ia', '-I', 'b', '--proto_path=protos:a', '--proto_path', 'b', '--x_out=o', 'x.proto']).protoPaths).toEqual([
    'a',
    'b',
    'protos',
    'a',
    'b',
  ]);
  expect(run(['-I=a', '--x_out=o', 'x.proto']).protoPaths).toEqual(['a']);
  expect(run(['--x_out=o', 'x.proto']).protoPaths).toEqual(['.']);
  expect(run(['--descriptor_set_in=s.pb', '--x_out=o', 'x.proto']).protoPaths).toEqual([]);
  const outcome = parseProtocArgs(['-Inodir', '--x_out=o', 'x.proto'], env());
  expect(outcome).toMatchObject({ kind: 'run', stderr: 'nodir: warning: directory does not exist.\n' });
  expect(failure(['-I=', '--x_out=o', 'x.proto'])).toBe('--proto_path passed empty directory name.  (Use "." for current directory.)\n');
  expect(failure(['-Iv=a', '--x_out=o', 'x.proto'])).toBe(
    '-I: v=a: VIRTUAL=DISK mappings are not supported by touchstone protoc; give a plain directory\n',
  );
  expect(run(['-Iodd=name', '--x_out=o', 'x.proto'], env(['odd=name'])).protoPaths, 'an existing path with "=" is a plain path').toEqual([
    'odd=name',
  ]);
});

test('--descriptor_set_in: a colon list, once, non-empty', () => {
  expect(run(['--descriptor_set_in=a.pb::b.pb', '--x_out=o', 'x.proto']).descriptorSetIn).toEqual(['a.pb', 'b.pb']);
  expect(failure(['--descriptor_set_in=a', '--descriptor_set_in=b', '--x_out=o', 'x.proto'])).toBe(
    "--descriptor_set_in may only be passed once. To specify multiple descriptor sets, pass them all as a single parameter separated by ':'.\n",
  );
  expect(failure(['--descriptor_set_in=', '--x_out=o', 'x.proto'])).toBe('--descriptor_set_in requires a non-empty value.\n');
});

test("protoc's errors: missing value, unknown flag, empty argument, missing input, missing output", () => {
  expect(failure(['--x_out'])).toBe('Missing value for flag: --x_out\n');
  expect(failure(['--x_out', '-Ia'])).toBe('Missing value for flag: --x_out\n');
  expect(failure(['-I'])).toBe('Missing value for flag: -I\n');
  expect(failure(['--bogus', 'x.proto'])).toBe('Unknown flag: --bogus\n');
  expect(failure(['-x', 'foo'])).toBe('Unknown flag: -x\n');
  expect(failure(['--bogus', '--version']), 'a flag takes the next argument unless it starts with -').toBe(
    'Missing value for flag: --bogus\n',
  );
  expect(failure(['', '--x_out=o'])).toContain('You seem to have passed an empty string as one of the arguments to touchstone protoc.');
  expect(failure(['--x_out=o'])).toBe('Missing input file.\n');
  expect(failure(['x.proto'])).toBe('Missing output directives.\n');
});

test('--version and --help stop where they stand; no arguments prints the usage', () => {
  expect(parseProtocArgs(['--version', '--bogus'], env())).toMatchObject({
    kind: 'exit',
    code: 0,
    stdout: expect.stringMatching(/^touchstone protoc \d+\.\d+\.\d+ \(plugin handling of protoc 3\.21\.12\)\n$/),
  });
  expect(parseProtocArgs(['-h'], env())).toMatchObject({
    kind: 'exit',
    code: 0,
    stdout: expect.stringContaining('Usage: touchstone protoc'),
  });
  expect(parseProtocArgs([], env())).toMatchObject({ kind: 'exit', code: 0, stdout: expect.stringContaining('--NAME_out=[PARAMS:]DIR') });
});

test('@file arguments expand to one argument per line', () => {
  const files = { 'args.txt': '--x_out=o\nwith space.proto\n', 'nonl.txt': 'y.proto' };
  expect(run(['@args.txt', '@nonl.txt'], env(['.'], files)).inputs).toEqual(['with space.proto', 'y.proto']);
  expect(failure(['@missing.txt'])).toBe('Failed to open argument file: missing.txt\n');
});

test('built-in generators and other protoc modes are refused, not half-emulated', () => {
  expect(failure(['--cpp_out=o', 'x.proto'])).toBe(
    "--cpp_out: names protoc's built-in cpp generator; touchstone protoc has no built-in generators and runs plugins only\n",
  );
  expect(failure(['--python_opt=x', '--p_out=o', 'x.proto'])).toContain("--python_opt: names protoc's built-in python generator");
  expect(failure(['-o', 'set.pb', 'x.proto'])).toBe('-o: not supported by touchstone protoc, which only runs code-generator plugins\n');
  expect(failure(['--encode=M', 'x.proto'])).toBe('--encode: not supported by touchstone protoc, which only runs code-generator plugins\n');
  expect(run(['--experimental_allow_proto3_optional', '--fatal_warnings', '--error_format=gcc', '--x_out=o', 'x.proto']).inputs).toEqual([
    'x.proto',
  ]);
});

test('touchstone-only flags: plugin timeout, output limit, compiler_version', () => {
  const invocation = run(['--plugin_timeout=2.5', '--plugin_output_limit=1024', '--compiler_version=3.21.12-rc1', '--x_out=o', 'x.proto']);
  expect(invocation).toMatchObject({
    timeoutMs: 2500,
    outputLimit: 1024,
    compilerVersion: { major: 3, minor: 21, patch: 12, suffix: 'rc1' },
  });
  expect(run(['--x_out=o', 'x.proto'])).toMatchObject({ timeoutMs: 60_000, outputLimit: 256 * 1024 * 1024, compilerVersion: undefined });
  expect(failure(['--plugin_timeout=0', '--x_out=o', 'x.proto'])).toBe(
    '--plugin_timeout: expected a number of seconds greater than 0, got "0"\n',
  );
  expect(failure(['--plugin_output_limit=lots', '--x_out=o', 'x.proto'])).toBe(
    '--plugin_output_limit: expected a number of bytes greater than 0, got "lots"\n',
  );
  expect(failure(['--compiler_version=3.21', '--x_out=o', 'x.proto'])).toBe(
    '--compiler_version: expected MAJOR.MINOR.PATCH or MAJOR.MINOR.PATCH-SUFFIX, got "3.21"\n',
  );
});

test('--fault=NAME (repeatable) switches built-in faults on; none by default; an unknown one fails with the list', () => {
  expect([...run(['--x_out=o', 'x.proto']).switches]).toEqual([]);
  expect([...run(['--fault=compiler.no-version', '--x_out=o', '--fault', 'compiler.imports-last', 'x.proto']).switches]).toEqual([
    'compiler.no-version',
    'compiler.imports-last',
  ]);
  expect(failure(['--fault=compiler.bogus', '--x_out=o', 'x.proto'])).toMatch(
    /^--fault: unknown fault "compiler\.bogus"; faults: compiler\.imports-generated, /,
  );
});

test('--variant=NAME (repeatable) switches built-in variations on; an unknown one fails with the list', () => {
  expect([
    ...run(['--variant=compiler.duplicate-last-wins', '--x_out=o', '--variant', 'compiler.features-unchecked', 'x.proto']).switches,
  ]).toEqual(['compiler.duplicate-last-wins', 'compiler.features-unchecked']);
  expect(failure(['--variant=compiler.bogus', '--x_out=o', 'x.proto'])).toMatch(
    /^--variant: unknown variation "compiler\.bogus"; variations: compiler\.file-to-generate-sorted, /,
  );
});

test('variation compiler.opt-before-out-parameter: --NAME_opt values come before the --NAME_out parameter; off, after it', () => {
  const args = ['--p_out=out1,out2:o', '--p_opt=opt1', '--p_opt=opt2', 'x.proto'];
  expect(run(args).outputs[0].parameter).toBe('out1,out2,opt1,opt2');
  expect(run(['--variant=compiler.opt-before-out-parameter', ...args]).outputs[0].parameter).toBe('opt1,opt2,out1,out2');
  // Either alone is the same either way.
  expect(run(['--variant=compiler.opt-before-out-parameter', '--p_out=o', '--p_opt=a', 'x.proto']).outputs[0].parameter).toBe('a');
  expect(run(['--variant=compiler.opt-before-out-parameter', '--p_out=a:o', 'x.proto']).outputs[0].parameter).toBe('a');
});
