import { expect, test } from '@playwright/test';
import { HarnessError } from '../core/errors.js';
import {
  contentText,
  decodeRequest,
  decodeResponse,
  encodeRequest,
  encodeResponse,
  Feature,
  readProtoFile,
  unknownLengthDelimited,
  unknownVarint,
} from './plugin-codec.js';
import { protocolSchema } from './protocol-schema.js';
import { readableResponse } from './readable-form.js';
import { UNUSUAL_VALID_RESPONSES } from './wire-edge-cases.js';
import { concatBytes, encodeTag, lengthDelimitedField as len, varintField as varint, WireType } from './wire-format.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const bytes = (...values: number[]) => Uint8Array.from(values);
const hex = (data: Uint8Array) => Buffer.from(data).toString('hex');

function fileDescriptor(name: string, dependency: string[] = []): Uint8Array {
  return concatBytes([len(1, utf8(name)), ...dependency.map((dep) => len(3, utf8(dep))), len(12, utf8('proto3'))]);
}

test('a request built from scratch encodes in field-number order, as protoc writes it', () => {
  const dep = readProtoFile(fileDescriptor('dep.proto'));
  const main = readProtoFile(fileDescriptor('main.proto', ['dep.proto']));
  const encoded = encodeRequest({
    proto_file: [dep, main],
    compiler_version: { major: 3, minor: 21, patch: 12, suffix: '' },
    parameter: 'a=b',
    file_to_generate: ['main.proto'],
  });
  const expected = concatBytes([
    len(1, utf8('main.proto')),
    len(2, utf8('a=b')),
    len(3, concatBytes([varint(1, 3), varint(2, 21), varint(3, 12), len(4, new Uint8Array())])),
    len(15, dep.bytes),
    len(15, main.bytes),
  ]);
  expect(hex(encoded)).toBe(hex(expected));
  const decoded = decodeRequest(encoded);
  expect(decoded.file_to_generate).toEqual(['main.proto']);
  expect(decoded.parameter).toBe('a=b');
  expect(decoded.compiler_version).toEqual({ major: 3, minor: 21, patch: 12, suffix: '', unknown_fields: [] });
  expect(decoded.proto_file.map((file) => [file.name, file.dependency])).toEqual([
    ['dep.proto', []],
    ['main.proto', ['dep.proto']],
  ]);
  expect(decoded.proto_file[1].descriptor()).toMatchObject({ name: 'main.proto', dependency: ['dep.proto'], syntax: 'proto3' });
});

test('unknown fields at every level survive decode and encode byte for byte', () => {
  const version = concatBytes([varint(1, 3), varint(5, 7) /* unknown */, varint(2, 21)]);
  const request = concatBytes([
    len(17, fileDescriptor('main.proto')), // source_file_descriptors of newer compilers
    len(1, utf8('main.proto')),
    len(3, version),
    varint(99, 1),
    len(15, fileDescriptor('main.proto')),
  ]);
  const decodedRequest = decodeRequest(request);
  expect(decodedRequest.unknown_fields.map((field) => [field.field, field.wireType])).toEqual([
    [17, WireType.lengthDelimited],
    [99, WireType.varint],
  ]);
  expect(decodedRequest.compiler_version?.unknown_fields.map((field) => field.field)).toEqual([5]);
  expect(hex(encodeRequest(decodedRequest))).toBe(hex(request));

  const file = concatBytes([len(1, utf8('a.txt')), fixed32Field(99), len(15, utf8('hello\n'))]);
  const response = concatBytes([varint(3, 998) /* minimum_edition */, len(15, file), varint(2, 1), len(99, utf8('x'))]);
  const decodedResponse = decodeResponse(response);
  expect(decodedResponse.unknown_fields.map((field) => field.field)).toEqual([3, 99]);
  expect(decodedResponse.file[0].unknown_fields.map((field) => [field.field, field.wireType])).toEqual([[99, WireType.fixed32]]);
  expect(decodedResponse.supported_features).toBe(Feature.PROTO3_OPTIONAL);
  expect(hex(encodeResponse(decodedResponse))).toBe(hex(response));
});

test('fields out of order, repeated singular fields, padded varints and unknown groups round-trip exactly', () => {
  const paddedOne = bytes(0x10, 0x81, 0x80, 0x80, 0x00); // supported_features = 1, in 4 bytes
  const group = concatBytes([encodeTag(40, WireType.startGroup), varint(1, 5), encodeTag(40, WireType.endGroup)]);
  const response = concatBytes([
    len(15, len(1, utf8('b.txt'))),
    len(1, utf8('first error')),
    paddedOne,
    group,
    len(1, utf8('second error')),
    len(15, len(1, utf8('a.txt'))),
  ]);
  const decoded = decodeResponse(response);
  expect(decoded.error).toBe('second error'); // the last occurrence wins
  expect(decoded.supported_features).toBe(1n);
  expect(decoded.file.map((file) => file.name)).toEqual(['b.txt', 'a.txt']);
  expect(decoded.unknown_fields.map((field) => [field.field, field.wireType])).toEqual([[40, WireType.startGroup]]);
  expect(hex(encodeResponse(decoded))).toBe(hex(response));
});

test('a sub-message sent twice is merged, and still round-trips', () => {
  const request = concatBytes([len(3, varint(1, 3)), len(1, utf8('x.proto')), len(3, varint(2, 21))]);
  const decoded = decodeRequest(request);
  expect(decoded.compiler_version).toMatchObject({ major: 3, minor: 21 });
  expect(hex(encodeRequest(decoded))).toBe(hex(request));
  decoded.compiler_version!.patch = 12;
  // Changed: written once, where the last occurrence was.
  const changed = concatBytes([len(1, utf8('x.proto')), len(3, concatBytes([varint(1, 3), varint(2, 21), varint(3, 12)]))]);
  expect(hex(encodeRequest(decoded))).toBe(hex(changed));
});

for (const unusual of UNUSUAL_VALID_RESPONSES) {
  test(`unusual but valid output decodes as protoc reads it and round-trips: ${unusual.title}`, () => {
    const decoded = decodeResponse(unusual.bytes);
    expect(readableResponse(decoded)).toEqual(unusual.readable);
    expect(hex(encodeResponse(decoded))).toBe(hex(unusual.bytes));
  });
}

test('content that is not valid UTF-8 is kept byte for byte', () => {
  const content = bytes(0x68, 0x69, 0xff, 0xfe, 0x0a, 0xc3); // "hi", invalid bytes, a cut-off sequence
  const response = len(15, concatBytes([len(1, utf8('bin.txt')), len(15, content)]));
  const decoded = decodeResponse(response);
  expect(decoded.file[0].content).toEqual(content);
  expect(contentText(decoded.file[0])).toBeUndefined();
  expect(hex(encodeResponse(decoded))).toBe(hex(response));
  // And when it is rebuilt from the decoded value rather than the original bytes.
  expect(hex(encodeResponse({ file: [{ name: 'bin.txt', content: decoded.file[0].content }] }))).toBe(hex(response));
});

test('invalid UTF-8 in a string field round-trips although its decoded value shows U+FFFD', () => {
  const response = len(15, len(1, bytes(0x61, 0xff, 0x62)));
  const decoded = decodeResponse(response);
  expect(decoded.file[0].name).toBe('a\ufffdb');
  expect(hex(encodeResponse(decoded))).toBe(hex(response));
});

test('contentText gives text for UTF-8 (BOM included), empty text for no content', () => {
  expect(contentText({ content: utf8('\ufeffpackage x;\n') })).toBe('\ufeffpackage x;\n');
  expect(contentText({ content: 'as given' })).toBe('as given');
  expect(contentText({})).toBe('');
  const decoded = decodeResponse(encodeResponse({ file: [{ name: 'a', content: 'é\n' }] }));
  expect(decoded.file[0].content).toEqual(utf8('é\n'));
});

test('an empty buffer is an empty message, and an empty message encodes to nothing', () => {
  const response = decodeResponse(new Uint8Array());
  expect(response).toEqual({ file: [], unknown_fields: [] });
  expect(response.error).toBeUndefined();
  expect(encodeResponse(response)).toHaveLength(0);
  expect(decodeRequest(Buffer.alloc(0))).toEqual({ file_to_generate: [], proto_file: [], unknown_fields: [] });
  expect(encodeRequest({})).toHaveLength(0);
});

test('edits re-encode only what changed and keep everything else in place', () => {
  const original = concatBytes([
    len(99, utf8('keep me')),
    len(15, concatBytes([len(1, utf8('a.txt')), len(15, utf8('old'))])),
    len(15, concatBytes([len(1, utf8('b.txt')), len(15, utf8('b'))])),
  ]);
  const decoded = decodeResponse(original);
  decoded.file[0].content = utf8('new');
  decoded.file.push({ name: 'c.txt', content: utf8('c'), unknown_fields: [] });
  decoded.unknown_fields.push(unknownVarint(98, 2));
  decoded.error = 'boom';
  const expected = concatBytes([
    len(99, utf8('keep me')),
    len(15, concatBytes([len(1, utf8('a.txt')), len(15, utf8('new'))])),
    len(15, concatBytes([len(1, utf8('b.txt')), len(15, utf8('b'))])),
    len(1, utf8('boom')), // new fields follow the original layout, in field-number order
    len(15, concatBytes([len(1, utf8('c.txt')), len(15, utf8('c'))])),
    varint(98, 2),
  ]);
  expect(hex(encodeResponse(decoded))).toBe(hex(expected));

  decoded.unknown_fields = [];
  decoded.file = decoded.file.slice(1);
  delete decoded.error;
  expect(decodeResponse(encodeResponse(decoded)).file.map((file) => file.name)).toEqual(['b.txt', 'c.txt']);
  expect(decodeResponse(encodeResponse(decoded)).unknown_fields).toEqual([]);
});

test("a runner can add unknown fields to probe a plugin, e.g. a newer compiler's field 17", () => {
  const extra = unknownLengthDelimited(17, fileDescriptor('main.proto'));
  const encoded = encodeRequest({ file_to_generate: ['main.proto'], unknown_fields: [extra] });
  expect(hex(encoded)).toBe(hex(concatBytes([len(1, utf8('main.proto')), len(17, fileDescriptor('main.proto'))])));
  expect(decodeRequest(encoded).unknown_fields.map((field) => hex(field.bytes))).toEqual([hex(extra.bytes)]);
  expect(() => encodeRequest({ unknown_fields: [{ field: 17, wireType: WireType.varint, bytes: bytes(0xff) }] })).toThrow(
    /exactly one occurrence|truncated/,
  );
});

test('64-bit features and negative int32 versions use the full wire range', () => {
  const max = 0xffffffffffffffffn;
  const response = decodeResponse(encodeResponse({ supported_features: max }));
  expect(response.supported_features).toBe(max);
  const request = encodeRequest({ compiler_version: { major: -1 } });
  expect(request).toHaveLength(2 + 11); // tag, length, then tag and a ten-byte varint
  expect(decodeRequest(request).compiler_version?.major).toBe(-1);
});

test('values of the wrong type are refused with the field named', () => {
  const refused = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(HarnessError);
      return (error as HarnessError).message;
    }
    throw new Error('expected an error');
  };
  expect(refused(() => encodeRequest({ compiler_version: { major: 2 ** 31 } }))).toContain(
    'CodeGeneratorRequest.compiler_version.major must be an int32',
  );
  expect(refused(() => encodeResponse({ supported_features: 1 as unknown as bigint }))).toContain(
    'supported_features must be a uint64 bigint',
  );
  expect(refused(() => encodeResponse({ file: [{ name: 7 as unknown as string }] }))).toContain(
    'CodeGeneratorResponse.file[0].name must be a string',
  );
  expect(refused(() => encodeRequest({ proto_file: [{} as never] }))).toContain('proto_file entry must be a ProtoFile');
});

test('our encoding agrees with protobufjs decoding plugin.proto, and the other way round', () => {
  const { response } = protocolSchema();
  const ours = encodeResponse({ error: 'e', supported_features: 1n, file: [{ name: 'a', insertion_point: 'p', content: 'c' }] });
  expect(response.toObject(response.decode(ours), { longs: String })).toEqual({
    error: 'e',
    supported_features: '1',
    file: [{ name: 'a', insertion_point: 'p', content: 'c' }],
  });
  const theirs = response.encode(response.fromObject({ error: 'x', file: [{ name: 'n', content: 'body' }] })).finish();
  const decoded = decodeResponse(theirs);
  expect(decoded.error).toBe('x');
  expect(decoded.file.map((file) => [file.name, contentText(file)])).toEqual([['n', 'body']]);
  expect(hex(encodeResponse(decoded))).toBe(hex(theirs));
});

test('decoding copies its input, so a reused buffer cannot change a decoded message', () => {
  const buffer = Buffer.from(len(15, concatBytes([len(1, utf8('a')), len(15, utf8('abc'))])));
  const decoded = decodeResponse(buffer);
  buffer.fill(0);
  expect(contentText(decoded.file[0])).toBe('abc');
  expect(Buffer.isBuffer(decoded.file[0].content)).toBe(false);
});

function fixed32Field(field: number): Uint8Array {
  return concatBytes([encodeTag(field, WireType.fixed32), bytes(1, 2, 3, 4)]);
}
