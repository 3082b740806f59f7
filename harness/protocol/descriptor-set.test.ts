// Reading descriptor sets in-process; protoc-interop.test.ts reads real ones from protoc -o.
import { expect, test } from '@playwright/test';
import { readDescriptorSet } from './descriptor-set.js';
import { encodeRequest, MalformedMessageError } from './plugin-codec.js';
import { concatBytes, lengthDelimitedField as len, varintField } from './wire-format.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const descriptor = (name: string, ...dependency: string[]) =>
  concatBytes([len(1, utf8(name)), ...dependency.map((dep) => len(3, utf8(dep)))]);

function readError(bytes: Uint8Array): MalformedMessageError {
  try {
    readDescriptorSet(bytes, 'set.bin');
  } catch (error) {
    if (error instanceof MalformedMessageError) return error;
    throw error;
  }
  throw new Error('expected readDescriptorSet to fail');
}

test('files keep their order, names, imports and exact bytes', () => {
  // A field newer than protobufjs's descriptor.proto (number 99) must survive in the bytes.
  const dep = concatBytes([descriptor('dep.proto'), varintField(99, 1)]);
  const main = descriptor('main.proto', 'dep.proto');
  const files = readDescriptorSet(concatBytes([len(1, dep), len(1, main)]));
  expect(files.map((file) => [file.name, file.dependency])).toEqual([
    ['dep.proto', []],
    ['main.proto', ['dep.proto']],
  ]);
  expect(Buffer.from(files[0].bytes).equals(Buffer.from(dep))).toBe(true);
  expect(files[0].descriptor()).toEqual({ name: 'dep.proto' });
});

test('an empty input is an empty set', () => {
  expect(readDescriptorSet(new Uint8Array())).toEqual([]);
});

test('a .proto source given by mistake gets a hint', () => {
  const error = readError(utf8('syntax = "proto3";\nmessage A {}\n'));
  expect(error.where).toBe('FileDescriptorSet (set.bin)');
  expect(error.message).toContain('the input looks like text; expected the binary file protoc writes with -o/--descriptor_set_out');
});

test('another message is refused by the first field a descriptor set cannot hold', () => {
  const request = encodeRequest({ file_to_generate: ['a.proto'], parameter: 'x' });
  const error = readError(request);
  expect(error.message).toMatch(/^malformed (FileDescriptorSet \(set\.bin\)|FileDescriptorSet \(set\.bin\)\.file\[0\]) at byte \d+: /);
  expect(readError(varintField(2, 1)).message).toBe(
    'malformed FileDescriptorSet (set.bin) at byte 0: field 2 with wire type 0: a descriptor set holds only field 1 (file), length-delimited',
  );
});

test('a file without a name is refused', () => {
  expect(readError(len(1, len(2, utf8('pkg')))).message).toBe('malformed FileDescriptorSet (set.bin) at byte 0: file[0] has no name');
});

test('a truncated set names the byte where it breaks', () => {
  const whole = concatBytes([len(1, descriptor('a.proto')), len(1, descriptor('b.proto'))]);
  const error = readError(whole.subarray(0, whole.length - 3));
  expect(error.offset).toBe(12);
  expect(error.reason).toContain('past the end of the message');
});
