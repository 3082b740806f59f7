// The request as touchstone protoc encodes it, and the built-in faults and variations that change it.
import { expect, test } from '@playwright/test';
import protobuf from 'protobufjs';
import type { CompilerFault, CompilerVariant } from '../faults.js';
import { loadPluginMessages } from '../common/plugin-messages.js';
import { encodePluginRequest, transitiveProtoFiles, type RequestFile } from './plugin-request.js';

const messages = loadPluginMessages();

function file(name: string, dependency: string[], typeName?: string): RequestFile {
  const field = typeName ? [{ name: 'f', number: 1, label: 'LABEL_OPTIONAL', type: 'TYPE_MESSAGE', type_name: typeName }] : [];
  const bytes = messages.fileDescriptorProto
    .encode(messages.fileDescriptorProto.fromObject({ name, dependency, message_type: [{ name: 'M', field }] }))
    .finish();
  return { name, dependency, bytes };
}

const files = new Map([file('a.proto', ['b.proto'], '.pkg.B'), file('b.proto', [])].map((f) => [f.name, f]));
const version = { major: 3, minor: 21, patch: 12, suffix: '' };

interface Decoded {
  parameter?: string;
  compiler_version?: object;
  proto_file: { name: string; message_type: { field: { type_name: string }[] }[] }[];
}

function encoded(switches: (CompilerFault | CompilerVariant)[] = [], parameter = 'x=1'): { bytes: Uint8Array; request: Decoded } {
  const set = new Set(switches);
  const bytes = encodePluginRequest(
    messages,
    { fileToGenerate: ['a.proto'], parameter, protoFiles: transitiveProtoFiles(['a.proto'], files, set), compilerVersion: version },
    set,
  );
  return { bytes, request: messages.request.toObject(messages.request.decode(bytes), { defaults: false }) as Decoded };
}

test('faultless: imports first, fields 1, 2, 3 then proto_file, parameter and version sent, type names qualified', () => {
  const { bytes, request } = encoded();
  expect(bytes[0]).toBe((1 << 3) | 2);
  expect(request.proto_file.map((f) => f.name)).toEqual(['b.proto', 'a.proto']);
  expect(request.parameter).toBe('x=1');
  expect(request.compiler_version).toEqual({ major: 3, minor: 21, patch: 12, suffix: '' });
  expect(request.proto_file[1].message_type[0].field[0].type_name).toBe('.pkg.B');
});

test('each request fault changes what it names', () => {
  expect(encoded(['compiler.imports-last']).request.proto_file.map((f) => f.name)).toEqual(['a.proto', 'b.proto']);
  expect(encoded(['compiler.proto-file-first']).bytes[0]).toBe((15 << 3) | 2);
  expect(encoded(['compiler.parameter-dropped']).request.parameter).toBeUndefined();
  expect(encoded(['compiler.no-version']).request.compiler_version).toBeUndefined();
  expect(encoded(['compiler.relative-type-names']).request.proto_file[1].message_type[0].field[0].type_name).toBe('pkg.B');
});

/** Field numbers of a request in wire order. */
function fieldOrder(bytes: Uint8Array): number[] {
  const reader = protobuf.Reader.create(bytes);
  const numbers: number[] = [];
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    numbers.push(tag >>> 3);
    reader.skipType(tag & 7);
  }
  return numbers;
}

test('variation compiler.proto-file-by-depth: another topological order (by import depth, then name); off, depth-first', () => {
  // d imports c and a; c imports b; a imports b; z imports nothing.
  const graph = new Map(
    [
      file('d.proto', ['c.proto', 'a.proto']),
      file('c.proto', ['b.proto']),
      file('a.proto', ['b.proto']),
      file('b.proto', []),
      file('z.proto', []),
    ].map((f) => [f.name, f]),
  );
  const names = (switches: CompilerVariant[]) => transitiveProtoFiles(['d.proto', 'z.proto'], graph, new Set(switches)).map((f) => f.name);
  expect(names([])).toEqual(['b.proto', 'c.proto', 'a.proto', 'd.proto', 'z.proto']);
  expect(names(['compiler.proto-file-by-depth'])).toEqual(['b.proto', 'z.proto', 'a.proto', 'c.proto', 'd.proto']);
});

test('variation compiler.source-file-descriptors: field 17 (the files to generate) after proto_file; off, none', () => {
  expect(fieldOrder(encoded().bytes)).toEqual([1, 2, 3, 15, 15]);
  const { bytes } = encoded(['compiler.source-file-descriptors']);
  expect(fieldOrder(bytes)).toEqual([1, 2, 3, 15, 15, 17]);
  expect(Buffer.from(bytes).includes(Buffer.from(files.get('a.proto')!.bytes))).toBe(true);
});

test('variation compiler.empty-parameter-sent: an empty parameter when none was given; off, no parameter field', () => {
  expect(encoded([], '').request.parameter).toBeUndefined();
  expect(fieldOrder(encoded(['compiler.empty-parameter-sent'], '').bytes)).toEqual([1, 2, 3, 15, 15]);
  expect(encoded(['compiler.empty-parameter-sent'], '').request.parameter).toBe('');
  expect(encoded(['compiler.empty-parameter-sent']).request.parameter).toBe('x=1');
});
