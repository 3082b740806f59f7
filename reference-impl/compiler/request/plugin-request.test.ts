// The request as touchstone protoc encodes it, and the built-in faults that change it.
import { expect, test } from '@playwright/test';
import type { CompilerFault } from '../faults.js';
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

function encoded(faults: CompilerFault[] = []): { bytes: Uint8Array; request: Decoded } {
  const set = new Set(faults);
  const bytes = encodePluginRequest(
    messages,
    { fileToGenerate: ['a.proto'], parameter: 'x=1', protoFiles: transitiveProtoFiles(['a.proto'], files, set), compilerVersion: version },
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
