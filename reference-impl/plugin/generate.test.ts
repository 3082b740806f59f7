import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { typeCheckDeclarations } from './declaration-check.fixture.js';
import type { CodeGeneratorRequest, CodeGeneratorResponse } from './descriptor-types.js';
import type { PluginVariant } from './faults.js';
import { generate, PluginRefusal } from './generate.js';
import { createPluginCodec } from './plugin-codec.js';
import { demoRequest, field, message, proto3File, wireRequest } from './test-requests.js';

/** name → whole content, continuation chunks appended as a compiler does. */
function outputs(response: CodeGeneratorResponse): Map<string, string> {
  const files = new Map<string, string>();
  let current = '';
  for (const file of response.file) {
    if (file.name) current = file.name;
    files.set(current, (files.get(current) ?? '') + (file.content ?? ''));
  }
  return files;
}

function only(response: CodeGeneratorResponse, name: string): string {
  expect(response.error).toBeUndefined();
  const content = outputs(response).get(name);
  expect(content, `${name} in ${[...outputs(response).keys()].join(', ')}`).toBeDefined();
  return content!;
}

test('answers every file_to_generate with a Markdown reference and declarations named after it', () => {
  const response = generate(demoRequest());
  expect(response.error).toBeUndefined();
  expect(response.supported_features).toBe(1);
  expect(response.file.map((file) => file.name)).toEqual(['demo/foo.md', 'demo/foo.d.ts']);
});

test('the Markdown lists fields with number, label and type; proto3 optional is optional, its synthetic oneof is not shown', () => {
  const md = only(generate(demoRequest()), 'demo/foo.md');
  expect(md).toContain('### demo.Foo\n\nThe Foo.\n');
  expect(md).toContain('| 1 | `name` |  | `string` |  |');
  expect(md).toContain('| 2 | `maybe` | optional | `int32` | Maybe a number. |');
  expect(md).toContain('| 3 | `circle` |  | `demo.Foo.Circle` | oneof `shape` |');
  expect(md).toContain('| 5 | `counts` |  | `map<string, int64>` |  |');
  expect(md).toContain('| 6 | `points` | repeated | `demo.Point` |  |');
  expect(md).toContain('- oneof `shape`: `circle`, `label`');
  expect(md).not.toContain('_maybe');
  expect(md).not.toContain('CountsEntry');
  expect(md).toContain('### demo.Foo.Kind');
  expect(md).toContain('| 1 | `KIND_ROUND` |  |');
});

test('the declarations give the JSON form: JSON names, 64-bit as string, maps as objects, well-known types inline', () => {
  const ts = only(generate(demoRequest()), 'demo/foo.d.ts');
  expect(ts).toContain('import type * as $demo_common from "./common.js";');
  expect(ts).not.toContain('timestamp');
  expect(ts).toContain('/** The Foo. */\nexport interface Foo {');
  expect(ts).toContain('   * Maybe a number.\n   *\n   * `optional int32 maybe = 2`\n   */\n  maybe?: number;');
  expect(ts).toContain('  circle?: Foo_Circle;');
  expect(ts).toContain('in oneof `shape`');
  expect(ts).toContain('  counts?: { [key: string]: string };');
  expect(ts).toContain('  points?: $demo_common.Point[];');
  expect(ts).toContain('  at?: string;');
  expect(ts).toContain('  kind?: Foo_Kind;');
  expect(ts).toContain('  bigNumber?: string;');
  expect(ts).toContain('export type Foo_Kind = "KIND_UNSPECIFIED" | "KIND_ROUND";');
  expect(ts).not.toContain('_maybe');
});

test('declarations of several files, in directories, type-check together', async ({}, testInfo) => {
  const request = demoRequest();
  const other = proto3File('other/deep/bar.proto', 'other', {
    dependency: ['demo/foo.proto'],
    message_type: [
      message('Bar', [
        field('foo', 1, 'TYPE_MESSAGE', { type_name: '.demo.Foo' }),
        field('kinds', 2, 'TYPE_ENUM', { label: 'LABEL_REPEATED', type_name: '.demo.Foo.Kind' }),
        field('odd', 3, 'TYPE_STRING', { json_name: 'odd-name' }),
      ]),
      message('string', [field('interface', 1, 'TYPE_STRING')]),
      message('Promise', []),
    ],
    service: [
      { name: 'Svc', method: [{ name: 'Get', input_type: '.other.Promise', output_type: '.other.string', client_streaming: true }] },
    ],
  });
  const response = generate(
    wireRequest({
      ...request,
      file_to_generate: ['demo/common.proto', 'demo/foo.proto', 'other/deep/bar.proto'],
      proto_file: [...request.proto_file!, other],
    }),
  );
  const dir = testInfo.outputPath('gen');
  for (const [name, content] of outputs(response)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  const bar = outputs(response).get('other/deep/bar.d.ts')!;
  expect(bar).toContain('import type * as $demo_foo from "../../demo/foo.js";');
  expect(bar).toContain('  kinds?: $demo_foo.Foo_Kind[];');
  expect(bar).toContain('  "odd-name"?: string;');
  expect(bar).toContain('export interface string$ {');
  expect(bar).toContain('  Get(request: globalThis.AsyncIterable<Promise>): globalThis.Promise<string$>;');
  expect(typeCheckDeclarations(dir)).toEqual([]);
});

test('insertion points: imports, one message_scope per message (nested too), eof, in both outputs', () => {
  const files = outputs(generate(demoRequest()));
  const points = (text: string) => [...text.matchAll(/@@protoc_insertion_point\(([^)]*)\)/g)].map((match) => match[1]);
  const expected = ['imports', 'message_scope:demo.Foo', 'message_scope:demo.Foo.Circle', 'eof'];
  expect(points(files.get('demo/foo.md')!)).toEqual(expected);
  expect(points(files.get('demo/foo.d.ts')!)).toEqual(expected);
  // Inside the interface body and indented, so inserted members get the body's indentation.
  expect(files.get('demo/foo.d.ts')).toContain('  bigNumber?: string;\n  // @@protoc_insertion_point(message_scope:demo.Foo)\n}');
  expect(files.get('demo/foo.md')).toContain('<!-- @@protoc_insertion_point(eof) -->\n');
});

test('a comment quoting an annotation or a comment terminator cannot create a point or end a comment', () => {
  const request = demoRequest();
  const foo = request.proto_file!.at(-1)!;
  foo.source_code_info = { location: [{ path: [4, 0], leading_comments: ' See @@protoc_insertion_point(eof) */ here.\n' }] };
  const files = outputs(generate(request));
  for (const text of files.values()) expect(text.match(/@@protoc_insertion_point\(eof\)/g)).toHaveLength(1);
  expect(files.get('demo/foo.d.ts')).toContain('/** See @ @protoc_insertion_point(eof) *\\/ here. */');
  expect(files.get('demo/foo.md')).toContain('See &#64;@protoc_insertion_point(eof) */ here.');
});

test('format, insertion_points and chunk options', () => {
  expect(generate(demoRequest('format=md')).file.map((file) => file.name)).toEqual(['demo/foo.md']);
  expect(generate(demoRequest('format=ts')).file.map((file) => file.name)).toEqual(['demo/foo.d.ts']);
  expect(generate(demoRequest('format=md,format=both')).file).toHaveLength(2);
  const plain = generate(demoRequest('insertion_points=false'));
  for (const file of plain.file) expect(file.content).not.toContain('@@protoc_insertion_point');
  const whole = outputs(generate(demoRequest('chunk=0')));
  expect(generate(demoRequest('chunk=0')).file).toHaveLength(2);
  const chunked = generate(demoRequest(' chunk = 100 ,,'));
  expect(chunked.file.length).toBeGreaterThan(10);
  expect(outputs(chunked)).toEqual(whole);
  for (const file of chunked.file) expect(Buffer.byteLength(file.content ?? '')).toBeLessThanOrEqual(100);
});

test('chunks are cut between characters, never inside a multi-byte one', () => {
  const request = demoRequest('chunk=5,format=md');
  request.proto_file!.at(-1)!.source_code_info = { location: [{ path: [4, 0], leading_comments: ' Ünïcödé 🙂🙂 ✓\n' }] };
  const response = generate(request);
  expect(response.file[0]).toEqual({ name: 'demo/foo.md', content: expect.any(String) });
  for (const file of response.file.slice(1)) expect(file.name).toBeUndefined();
  for (const file of response.file) {
    expect(Buffer.byteLength(file.content!)).toBeLessThanOrEqual(5);
    expect(Buffer.from(file.content!, 'utf8').toString('utf8')).toBe(file.content);
    expect(file.content).not.toMatch(/[\ud800-\udbff]$|^[\udc00-\udfff]/);
  }
  expect(outputs(response).get('demo/foo.md')).toContain('Ünïcödé 🙂🙂 ✓');
});

test('by default a big output is chunked at 16 KiB', () => {
  const request = demoRequest('format=ts');
  const fields = Array.from({ length: 400 }, (_, index) => field(`field_${index}`, index + 1, 'TYPE_STRING'));
  request.proto_file!.at(-1)!.message_type!.push(message('Big', fields));
  const response = generate(request);
  expect(response.file.length).toBeGreaterThan(1);
  expect(Buffer.byteLength(response.file[0]!.content!)).toBe(16384);
  expect(response.file.slice(1).every((file) => file.name === undefined)).toBe(true);
});

test('a bad parameter is an error naming the option, with no files and the feature still advertised', () => {
  const cases: [string, RegExp][] = [
    ['colour=red', /unknown option "colour".*known options: chunk, format, insertion_points/],
    ['format=xml', /option "format" must be md, ts or both, got "xml"/],
    ['chunk=-1', /option "chunk" must be a whole number/],
    ['chunk=2', /option "chunk" must be 0 or at least 4/],
    ['chunk=1e3', /option "chunk"/],
    ['insertion_points=yes', /option "insertion_points" must be true or false/],
    ['format', /option "format" needs a value/],
    ['format=md,toString=1', /unknown option "toString"/],
  ];
  for (const [parameter, message] of cases) {
    const response = generate(demoRequest(parameter));
    expect(response.error, parameter).toMatch(message);
    expect(response.file).toEqual([]);
    expect(response.supported_features).toBe(1);
  }
});

test('schema problems are reported in error, each naming the file and the element', () => {
  const base = demoRequest();
  const problem = (request: CodeGeneratorRequest) => generate(wireRequest(request));
  expect(problem({ ...base, file_to_generate: ['demo/missing.proto'] }).error).toBe(
    'demo/missing.proto: listed in file_to_generate but absent from proto_file',
  );

  const broken = structuredClone(base);
  broken.proto_file!.at(-1)!.message_type![0]!.field![5]!.type_name = '.demo.Nowhere';
  broken.proto_file!.at(-1)!.message_type![0]!.field![7]!.type_name = '.demo.Point';
  broken.proto_file!.at(-1)!.message_type![0]!.field![2]!.type_name = 'Circle';
  const response = problem(broken);
  expect(response.error?.split('\n')).toEqual([
    'demo/foo.proto: field demo.Foo.circle: type "Circle" is not fully qualified (descriptors in a request must use ".package.Name")',
    'demo/foo.proto: field demo.Foo.points: type ".demo.Nowhere" is not defined in any file of the request',
    'demo/foo.proto: field demo.Foo.kind: type ".demo.Point" is a message, not an enum',
  ]);
  expect(response.file).toEqual([]);
  expect(response.supported_features).toBe(1);

  const withoutImport = { ...base, proto_file: base.proto_file!.filter((file) => file.name !== 'demo/common.proto') };
  expect(problem(withoutImport).error).toContain('field demo.Foo.points: type ".demo.Point" is not defined');
});

test('a .proto name that gives no safe output name, or two that give the same, is refused', () => {
  for (const name of ['../escape.proto', '/abs/x.proto', 'a\\b.proto', './a.proto', 'a//b.proto', '.proto', '']) {
    const response = generate(wireRequest({ file_to_generate: [name], proto_file: [proto3File(name, 'x')] }));
    expect(response.error, name).toContain('no safe output file name');
    expect(response.file).toEqual([]);
  }
  const twice = generate(
    wireRequest({ file_to_generate: ['a.proto', 'a'], proto_file: [proto3File('a.proto', 'x'), proto3File('a', 'y')] }),
  );
  expect(twice.error).toBe('a: its outputs (a.*) would overwrite those of a.proto');
});

test('proto2: required, explicit optional, defaults and extensions', () => {
  const file: CodeGeneratorRequest['proto_file'] = [
    {
      name: 'old.proto',
      package: 'old',
      syntax: 'proto2',
      message_type: [
        message('Rec', [
          field('id', 1, 'TYPE_STRING', { label: 'LABEL_REQUIRED' }),
          field('n', 2, 'TYPE_INT32', { default_value: '7' }),
          field('note', 3, 'TYPE_STRING', { default_value: 'a | `b`' }),
        ]),
      ],
      extension: [field('flag', 100, 'TYPE_BOOL', { extendee: '.old.Rec' })],
    },
  ];
  const md = only(generate(wireRequest({ file_to_generate: ['old.proto'], proto_file: file })), 'old.md');
  expect(md).toContain('- Syntax: proto2');
  expect(md).toContain('| 1 | `id` | required | `string` |  |');
  expect(md).toContain('| 2 | `n` | optional | `int32` | default `7` |');
  expect(md).toContain('| 3 | `note` | optional | `string` | default `` a \\| `b` `` |');
  expect(md).toContain('| `old.Rec` | 100 | `old.flag` | optional | `bool` |  |');
});

test('an empty request answers no files and no error', () => {
  expect(generate({})).toEqual({ supported_features: 1, file: [] });
  expect(generate(wireRequest({}))).toEqual({ supported_features: 1, file: [] });
});

test('deterministic: the same request bytes give the same response bytes', () => {
  const codec = createPluginCodec();
  const bytes = codec.encodeRequest(demoRequest('chunk=64'));
  const first = codec.encodeResponse(generate(codec.decodeRequest(bytes)));
  const second = codec.encodeResponse(generate(codec.decodeRequest(bytes)));
  expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
});

test('built-in faults change only what they name, and are off unless given', () => {
  const faultless = generate(demoRequest());
  expect(generate(demoRequest(), new Set())).toEqual(faultless);
  const faulty = generate(
    demoRequest(),
    new Set(['plugin.absolute-names', 'plugin.first-chunk-unnamed', 'plugin.insertion-point-without-name'] as const),
  );
  expect(faulty.supported_features).toBe(1);
  expect(faulty.file.map((file) => file.name)).toEqual([undefined, '/demo/foo.d.ts', undefined]);
  expect(faulty.file.at(-1)).toEqual({ insertion_point: 'touchstone_fault', content: '// inserted\n' });
});

test('variations take the other reading of what spec 3 leaves open, and are off unless given', () => {
  const on = (variant: PluginVariant) => new Set([variant]);
  // No feature bits: spec 3 does not tie FEATURE_PROTO3_OPTIONAL to the fields.
  expect(generate(demoRequest(), on('plugin.features-not-advertised'))).toMatchObject({ supported_features: 0 });
  expect(generate(demoRequest('format=pdf'), on('plugin.features-not-advertised')).supported_features).toBe(0);
  // Outputs sorted by name, each output's chunks kept right after it.
  const sorted = generate(demoRequest('chunk=64'), on('plugin.outputs-sorted-by-name'));
  expect(sorted.file.map((file) => file.name).filter(Boolean)).toEqual(['demo/foo.d.ts', 'demo/foo.md']);
  expect(outputs(sorted)).toEqual(outputs(generate(demoRequest('chunk=64'))));
  expect(sorted.file.length).toBeGreaterThan(2);
  // Nothing to generate is declined through error (exit 0 in main); a request with files is unchanged.
  expect(generate({}, on('plugin.empty-request-declined'))).toEqual({
    error: 'nothing to generate: the request names no file in file_to_generate',
    supported_features: 1,
    file: [],
  });
  expect(generate(demoRequest(), on('plugin.empty-request-declined'))).toEqual(generate(demoRequest()));
  // A run id in the Markdown: two runs of one request differ, in the .md only.
  const stamped = on('plugin.output-stamped-per-run');
  const [first, second] = [generate(demoRequest(), stamped), generate(demoRequest(), stamped)];
  expect(first).not.toEqual(second);
  expect(outputs(first).get('demo/foo.md')).toMatch(/\n<!-- generation run [0-9a-f-]{36} -->\n$/);
  expect(outputs(first).get('demo/foo.d.ts')).toBe(outputs(generate(demoRequest())).get('demo/foo.d.ts'));
  // An unknown option goes to stderr with exit 1 (main), instead of into error.
  expect(() => generate(demoRequest('format=pdf'), on('plugin.unknown-option-on-stderr'))).toThrow(PluginRefusal);
  expect(generate(demoRequest(), on('plugin.unknown-option-on-stderr'))).toEqual(generate(demoRequest()));
});

test('faults that refuse a parameter or schema problem throw instead of answering with error', () => {
  expect(generate(demoRequest('format=pdf')).error).toContain('option "format"');
  const clash = demoRequest();
  clash.file_to_generate = ['demo/foo.proto', 'demo/foo.proto'];
  expect(generate(clash).error).toContain('would overwrite');
  expect(() => generate(clash, new Set(['plugin.schema-problem-exit-nonzero']))).toThrow(/would overwrite/);
});
