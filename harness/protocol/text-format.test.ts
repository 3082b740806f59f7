// The text format printer against the real thing: every message here is also given to Debian's
// `protoc --decode`, and the two outputs must be the same bytes, or both must refuse the input.
// The messages: requests protoc sends for the plugin fixtures, and hand-built requests and
// responses at the edges (escapes, unknown fields, closed enums, doubles, merged messages,
// fields newer than protoc 3.21, malformed input).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import protobuf from 'protobufjs';
import { DEBIAN_PROTOC, runDebianProtoc, skipWithoutDebianProtoc } from '../../test-support/debian-protoc.js';
import { skipUnlessInstalled } from '../../test-support/required-tool.js';
import { projectPath } from '../../lib/project-files.js';
import { decodeRequest, encodeRequest, encodeResponse, unknownLengthDelimited, unknownVarint } from './plugin-codec.js';
import { protocolSchema } from './protocol-schema.js';
import { protoc321Field, requestTextFormat, responseTextFormat } from './text-format.js';
import { MALFORMED_RESPONSES, UNUSUAL_VALID_RESPONSES } from './wire-edge-cases.js';
import {
  concatBytes,
  encodeTag,
  lengthDelimitedField as len,
  MalformedMessageError,
  varintField as varint,
  WireType,
} from './wire-format.js';

const INCLUDE = '/usr/include';
const DESCRIPTOR_PROTO = `${INCLUDE}/google/protobuf/descriptor.proto`;
const PLUGIN_PROTO = 'google/protobuf/compiler/plugin.proto';
const FIXTURES = projectPath('suites/plugin/fixtures');

skipWithoutDebianProtoc(test);
// descriptor.proto comes with libprotobuf-dev, which protobuf-compiler only recommends.
skipUnlessInstalled(
  test,
  existsSync(DESCRIPTOR_PROTO),
  `${DESCRIPTOR_PROTO} not found: install libprotobuf-dev`,
  'TOUCHSTONE_REQUIRE_PROTOC',
);

const utf8 = (text: string) => new TextEncoder().encode(text);
const bytes = (...values: number[]) => Uint8Array.from(values);
const double = (field: number, value: number) => {
  const payload = new DataView(new ArrayBuffer(8));
  payload.setFloat64(0, value, true);
  return concatBytes([encodeTag(field, WireType.fixed64), new Uint8Array(payload.buffer)]);
};
const nest = (field: number, depth: number, inner: Uint8Array) => {
  let out = inner;
  for (let i = 0; i < depth; i++) out = len(field, out);
  return out;
};

type Kind = 'CodeGeneratorRequest' | 'CodeGeneratorResponse';
interface Case {
  title: string;
  kind: Kind;
  bytes: Uint8Array;
}

interface Workspace {
  dir: string;
  /** -I flags giving protoc plugin.proto: Debian's (libprotoc-dev) if installed, else the harness's copy, which defines the same fields. */
  includes: string[];
  /** The requests protoc sent a capturing plugin for the fixtures. */
  captured: Case[];
}

function createWorkspace(): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'touchstone-text-format-'));
  const includes = [`-I${INCLUDE}`];
  if (!existsSync(join(INCLUDE, PLUGIN_PROTO))) {
    mkdirSync(join(dir, 'include/google/protobuf/compiler'), { recursive: true });
    writeFileSync(join(dir, 'include', PLUGIN_PROTO), readFileSync(projectPath('harness/protocol/plugin.proto')));
    includes.unshift(`-I${join(dir, 'include')}`);
  }
  // Saves the request and claims proto3 optional (field 2 = 1), so protoc accepts optional.proto.
  const plugin = join(dir, 'protoc-gen-cap');
  writeFileSync(plugin, '#!/bin/sh\ncat > "$OUT"\nprintf "\\020\\001"\n');
  chmodSync(plugin, 0o755);
  mkdirSync(join(dir, 'out'));
  const capture = (title: string, out: string, files: string[]): Case => {
    const path = join(dir, `${files.length}-${files[0].replaceAll('/', '_')}.bin`);
    const args = [`-I${FIXTURES}`, `--plugin=protoc-gen-cap=${plugin}`, `--cap_out=${out}`, ...files];
    const run = runDebianProtoc(args, { cwd: dir, env: { OUT: path } });
    if (run.status !== 0) throw new Error(`protoc ${args.join(' ')}: ${run.stderr}`);
    return { title, kind: 'CodeGeneratorRequest', bytes: readFileSync(path) };
  };
  const captured = [
    capture('shop and legacy, with a parameter', `a=b,c:${join(dir, 'out')}`, ['shop/catalog.proto', 'legacy.proto']),
    capture('proto3 optional', join(dir, 'out'), ['optional.proto']),
    capture('two files differing by the .proto suffix', join(dir, 'out'), ['clash/stock.proto', 'clash/stock']),
  ];
  return { dir, includes, captured };
}

let workspace: Workspace;
test.beforeAll(() => {
  workspace = createWorkspace();
});
test.afterAll(() => {
  if (workspace) rmSync(workspace.dir, { recursive: true, force: true });
});

function protocDecode(kind: Kind, input: Uint8Array): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(DEBIAN_PROTOC, [`--decode=google.protobuf.compiler.${kind}`, ...workspace.includes, PLUGIN_PROTO], {
    cwd: workspace.dir,
    input,
    timeout: 30_000,
  });
  if (run.error) throw new Error(`cannot run ${DEBIAN_PROTOC}: ${run.error.message}`);
  // Text format escapes every byte outside printable ASCII, so latin1 loses nothing.
  return { status: run.status, stdout: run.stdout.toString('latin1'), stderr: run.stderr.toString('utf8') };
}

const print = (kind: Kind, input: Uint8Array) => (kind === 'CodeGeneratorRequest' ? requestTextFormat : responseTextFormat)(input);

function expectSameAsProtoc(cases: readonly Case[]): void {
  for (const { title, kind, bytes: input } of cases) {
    const protoc = protocDecode(kind, input);
    expect(protoc.status, `${title}: protoc refused it: ${protoc.stderr}`).toBe(0);
    expect(print(kind, input), title).toBe(protoc.stdout);
  }
}

function expectBothRefuse(cases: readonly Case[]): void {
  for (const { title, kind, bytes: input } of cases) {
    const protoc = protocDecode(kind, input);
    expect(protoc.stderr, title).toContain('Failed to parse input.');
    expect(() => print(kind, input), title).toThrow(MalformedMessageError);
  }
}

/** A FileDescriptorProto with something of every kind descriptor.proto has, written by protobufjs (its newer schema). */
function edgeDescriptor(): Uint8Array {
  const { fileDescriptorProto } = protocolSchema();
  const message = fileDescriptorProto.fromObject({
    name: 'edge/é.proto',
    package: 'edge',
    dependency: ['a.proto', 'b "quoted".proto'],
    public_dependency: [1, 0],
    weak_dependency: [1],
    message_type: [
      {
        name: 'M',
        field: [
          { name: 'n', number: -5, label: 1, type: 5, json_name: 'n', default_value: '-1', oneof_index: 0, proto3_optional: true },
          { name: 's', number: 536870911, label: 2, type: 9, type_name: '.x.Y', extendee: '.x.Z', default_value: 'a"b\\c\n\té\0' },
          {
            name: 'o',
            number: 3,
            label: 3,
            type: 14,
            options: { packed: true, ctype: 1, jstype: 2, lazy: true, weak: false, retention: 2, debug_redact: true },
          },
        ],
        nested_type: [{ name: 'N', options: { map_entry: true, deprecated: false } }],
        enum_type: [
          {
            name: 'E',
            value: [{ name: 'A', number: -1, options: { deprecated: true } }],
            reserved_range: [{ start: 1, end: 2 }],
            reserved_name: ['B'],
          },
        ],
        extension_range: [{ start: 100, end: 536870912, options: {} }],
        oneof_decl: [{ name: '_n' }],
        reserved_range: [{ start: 5, end: 6 }],
        reserved_name: ['x'],
        visibility: 2,
      },
    ],
    service: [
      {
        name: 'S',
        method: [{ name: 'Do', input_type: '.edge.M', output_type: '.edge.M', client_streaming: true, options: { idempotency_level: 1 } }],
      },
    ],
    options: { java_package: 'p', optimize_for: 2, cc_enable_arenas: true, php_namespace: 'A\\B' },
    source_code_info: {
      location: [
        {
          path: [4, 0, 2, 0],
          span: [1, 2, 3, 4],
          leading_comments: ' lead\n',
          trailing_comments: ' é ',
          leading_detached_comments: ['a', ''],
        },
      ],
    },
    syntax: 'proto2',
    edition: 1000,
  });
  const options = (value: Uint8Array, extra: Uint8Array[] = []) =>
    // uninterpreted_option (999): name (2) with its name part (1) and is_extension (2), then the value.
    len(999, concatBytes([len(2, concatBytes([len(1, utf8('opt')), varint(2, 1)])), value, ...extra]));
  const doubles = [0.1, -0, 0, 1, -1.5, 2.5, 100, 1 / 3, 0.0001, 0.00001, 1e15, 1e16, 1e21, 1e100, 1000000000000005, 123456789012345680000];
  const moreDoubles = [2 ** -25, 5e-324, 3 * 2 ** -1074, 1.7976931348623157e308, 0.30000000000000004, 4.35, NaN, Infinity, -Infinity];
  const uninterpreted = [...doubles, ...moreDoubles].map((value) => options(double(6, value)));
  uninterpreted.push(
    options(varint(3, 2n ** 64n - 1n), [
      varint(4, -(2n ** 63n)),
      len(5, bytes(0, 0xff, 0x22, 0x5c)),
      len(8, utf8('a { b: 1 }')),
      len(3, utf8('id')),
    ]),
    // A NaN with the sign bit and a payload still prints as nan.
    options(concatBytes([encodeTag(6, WireType.fixed64), bytes(1, 0, 0, 0, 0, 0, 0xf8, 0xff)])),
  );
  return concatBytes([
    fileDescriptorProto.encode(message).finish(),
    // A second options (8) merges into the first: php_generic_services (42) is known to 3.21 only.
    len(8, concatBytes([varint(42, 1), varint(17, 1), ...uninterpreted])),
    // A field of closed enum type given values it lacks (kept as unknown int32s, sign-extended) and one past 32 bits (read as TYPE_STRING).
    len(
      4,
      concatBytes([
        len(1, utf8('Closed')),
        len(2, concatBytes([varint(4, 99), varint(4, 2n ** 31n), varint(4, 2n ** 32n + 99n), varint(5, -1), varint(5, 2n ** 32n + 9n)])),
      ]),
    ),
    // source_code_info (9) again, merged: a path given unpacked and packed, with a negative value.
    len(9, len(1, concatBytes([varint(1, 7), len(1, concatBytes([varint(0, -1).subarray(1), varint(0, 3).subarray(1)])), varint(2, 1)]))),
    // Known fields with the wrong wire type are unknown fields; syntax given twice keeps the last.
    varint(1, 5),
    varint(4, 1),
    len(12, utf8('proto3')),
  ]);
}

test('requests protoc sends for the plugin fixtures print as protoc prints them', () => {
  expectSameAsProtoc(workspace.captured);
});

test('a request with escapes, unknown fields and every kind of descriptor field prints as protoc prints it', () => {
  const captured = decodeRequest(workspace.captured[0].bytes);
  const unknownPayloads: [string, Uint8Array][] = [
    ['empty', bytes()],
    ['a zero tag', bytes(0, 1)],
    ['nested messages', len(1, len(2, varint(3, 300)))],
    ['nesting past the budget of 10', nest(1, 12, varint(1, 1))],
    ['a group', bytes(0x0b, 0x08, 0x01, 0x0c)],
    ['groups nested past the budget', concatBytes([...new Array(11).fill(bytes(0x0b)), ...new Array(11).fill(bytes(0x0c))])],
    ['an unmatched end-group tag', bytes(0x08, 0x01, 0x0c)],
    ['a 6-byte tag', bytes(0x88, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01)],
    ['a 6-byte length', bytes(0x0a, 0x81, 0x80, 0x80, 0x80, 0x80, 0x00, 0x41)],
    ['a tag with bits past 32', bytes(0x88, 0x80, 0x80, 0x80, 0x70, 0x01)],
    ['fixed32 and fixed64', concatBytes([bytes(0x0d, 1, 2, 3, 4), double(2, -2.5)])],
    ['a truncated fixed64', bytes(0x09, 1, 2, 3)],
    ['wire type 6', bytes(0x0e, 0x01)],
    ['text', utf8('plain "text"\n')],
  ];
  const request = encodeRequest({
    file_to_generate: ['a "quoted" \\ back\\slash.proto', "it's\ttab\nnewline\r.proto", 'ünïcødé/名前.proto', '\u0000\u0001\u001f\u007f'],
    parameter: 'overwritten below',
    proto_file: [...captured.proto_file],
    compiler_version: { major: -1, minor: 2147483647, patch: 0, suffix: 'rc-é', unknown_fields: [unknownVarint(9, 1)] },
    unknown_fields: [
      unknownLengthDelimited(17, captured.proto_file[0].bytes),
      ...unknownPayloads.map(([, payload]) => unknownLengthDelimited(17, payload)),
      unknownVarint(4242, 1),
      unknownVarint(4243, 2n ** 64n - 1n),
    ],
  });
  const edge = edgeDescriptor();
  expectSameAsProtoc([
    {
      title: 'escapes and unknown fields',
      kind: 'CodeGeneratorRequest',
      bytes: concatBytes([
        request,
        // A second parameter, not UTF-8, wins; then unknown fixed32, fixed64 and a group holding a message-like field.
        len(2, bytes(0xff, 0xfe, 0x80, 0x41, 0x22)),
        bytes(0xa5, 0x01, 0x2a, 0, 0, 0),
        double(21, 1),
        bytes(0xb3, 0x01),
        len(1, varint(1, 1)),
        bytes(0xb4, 0x01),
      ]),
    },
    { title: 'a descriptor of every kind of field', kind: 'CodeGeneratorRequest', bytes: len(15, edge) },
    { title: 'an empty request', kind: 'CodeGeneratorRequest', bytes: bytes() },
    { title: 'an empty proto_file and compiler_version', kind: 'CodeGeneratorRequest', bytes: bytes(0x7a, 0x00, 0x1a, 0x00) },
  ]);
});

test('messages nested 100 deep print, 101 deep are refused, by both', () => {
  // The request is depth 0, then proto_file (1) > message_type (2) > nested_type (3 …).
  const nested = (depth: number): Case => ({
    title: `messages nested ${depth} deep`,
    kind: 'CodeGeneratorRequest',
    bytes: len(15, len(4, nest(3, depth - 2, len(1, utf8('deep'))))),
  });
  expectSameAsProtoc([nested(99), nested(100)]);
  expectBothRefuse([nested(101)]);
});

test('responses print as protoc prints them', () => {
  const { generatedCodeInfo } = protocolSchema();
  const codeInfo = generatedCodeInfo
    .encode(
      generatedCodeInfo.fromObject({
        annotation: [{ path: [4, 0, 2, 1], source_file: 'x.proto', begin: 0, end: 10, semantic: 1 }, { source_file: 'é' }],
      }),
    )
    .finish();
  const response = encodeResponse({
    error: 'bad "thing"\n\tat é \\ here',
    supported_features: 2n ** 64n - 1n,
    file: [
      { name: 'a/b.txt', insertion_point: 'scope:ns', content: 'line 1\nline 2\r\n\u00e9\u4e2d\n', generated_code_info: codeInfo },
      { content: bytes(0xff, 0x00, 0x41), unknown_fields: [unknownVarint(99, 1), unknownLengthDelimited(100, 'x')] },
      { name: '' },
    ],
    unknown_fields: [unknownLengthDelimited(17, 'from a newer plugin'), unknownVarint(3, 998)],
  });
  expectSameAsProtoc([
    { title: 'a full response', kind: 'CodeGeneratorResponse', bytes: response },
    ...UNUSUAL_VALID_RESPONSES.map(({ title, bytes: input }): Case => ({ title, kind: 'CodeGeneratorResponse', bytes: input })),
  ]);
});

test('input protoc fails to parse throws MalformedMessageError', () => {
  expectBothRefuse([
    ...MALFORMED_RESPONSES.map(({ title, bytes: input }): Case => ({ title, kind: 'CodeGeneratorResponse', bytes: input })),
    { title: 'a truncated descriptor', kind: 'CodeGeneratorRequest', bytes: len(15, bytes(0x0a, 0x05, 0x61)) },
    { title: 'field number 0 in a descriptor', kind: 'CodeGeneratorRequest', bytes: len(15, bytes(0x00, 0x01)) },
    { title: 'a truncated packed path', kind: 'CodeGeneratorRequest', bytes: len(15, len(9, len(1, len(1, bytes(0x01, 0x80))))) },
  ]);
});

test('the fields protoc 3.21 knows are those of its descriptor.proto', () => {
  const old = new protobuf.Root().loadSync(DESCRIPTOR_PROTO, { keepCase: true });
  old.resolveAll();
  const types: protobuf.Type[] = [];
  const collect = (namespace: protobuf.NamespaceBase) => {
    for (const nested of namespace.nestedArray) {
      if (nested instanceof protobuf.Type) types.push(nested);
      if (nested instanceof protobuf.Namespace) collect(nested);
    }
  };
  collect(old);
  const shape = (field: protobuf.Field | ReturnType<typeof protoc321Field>) =>
    field && {
      name: field.name,
      type: field.type,
      repeated: field.repeated,
      enum: field.resolvedType instanceof protobuf.Enum ? field.resolvedType.valuesById : undefined,
    };
  for (const type of types) {
    const current = protocolSchema().root.lookupType(type.fullName);
    const ids = new Set([...type.fieldsArray, ...current.fieldsArray].map((field) => field.id));
    for (const id of ids) expect(shape(protoc321Field(current, id)), `${type.fullName} field ${id}`).toEqual(shape(type.fieldsById[id]));
  }
});
