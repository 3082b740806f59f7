import { expect, test } from '@playwright/test';
import {
  decodeRequest,
  decodeResponse,
  encodeRequest,
  encodeResponse,
  readProtoFile,
  unknownLengthDelimited,
  unknownVarint,
} from './plugin-codec.js';
import { protocolSchema } from './protocol-schema.js';
import { readableRequest, readableRequestBytes, readableResponse, readableResponseBytes } from './readable-form.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

function mainProto() {
  const { fileDescriptorProto } = protocolSchema();
  const descriptor = fileDescriptorProto.fromObject({
    name: 'main.proto',
    package: 'demo',
    dependency: ['dep.proto'],
    message_type: [
      { name: 'Main', field: [{ name: 'big', number: 1, label: 'LABEL_OPTIONAL', type: 'TYPE_INT64', default_value: '9007199254740993' }] },
    ],
    syntax: 'proto2',
  });
  return readProtoFile(fileDescriptorProto.encode(descriptor).finish());
}

test('a response reads with spec field names, content as text or base64, unknown fields listed', () => {
  const { generatedCodeInfo } = protocolSchema();
  const info = generatedCodeInfo
    .encode(generatedCodeInfo.fromObject({ annotation: [{ path: [4, 0], source_file: 'main.proto', begin: 1, end: 5, semantic: 'SET' }] }))
    .finish();
  const response = decodeResponse(
    encodeResponse({
      supported_features: 1n,
      file: [
        { name: 'a.txt', content: 'hello\n', generated_code_info: info },
        { name: 'bin', content: Uint8Array.of(0xff, 0x00, 0x41), unknown_fields: [unknownVarint(99, 7)] },
        { content: 'more' },
      ],
      unknown_fields: [unknownLengthDelimited(17, 'seventeen')],
    }),
  );
  expect(readableResponse(response)).toEqual({
    supported_features: '1',
    file: [
      {
        name: 'a.txt',
        content: { text: 'hello\n' },
        generated_code_info: { annotation: [{ path: [4, 0], source_file: 'main.proto', begin: 1, end: 5, semantic: 'SET' }] },
      },
      { name: 'bin', content: { base64: '/wBB' }, unknown_fields: [{ field: 99, wireType: 0, base64: 'Bw==' }] },
      { content: { text: 'more' } },
    ],
    unknown_fields: [{ field: 17, wireType: 2, base64: Buffer.from('seventeen').toString('base64') }],
  });
});

test('a request reads with proto_file decoded: enums by name, 64-bit values as strings', () => {
  const request = decodeRequest(
    encodeRequest({
      file_to_generate: ['main.proto'],
      parameter: 'x=1',
      proto_file: [mainProto()],
      compiler_version: { major: 3, minor: 21, patch: 12, suffix: '' },
    }),
  );
  expect(readableRequest(request)).toEqual({
    file_to_generate: ['main.proto'],
    parameter: 'x=1',
    proto_file: [
      {
        name: 'main.proto',
        package: 'demo',
        dependency: ['dep.proto'],
        message_type: [
          {
            name: 'Main',
            field: [{ name: 'big', number: 1, label: 'LABEL_OPTIONAL', type: 'TYPE_INT64', default_value: '9007199254740993' }],
          },
        ],
        syntax: 'proto2',
      },
    ],
    compiler_version: { major: 3, minor: 21, patch: 12, suffix: '' },
  });
});

test('the readable form is deterministic: same message, same JSON text, whatever the wire order', () => {
  const inOrder = encodeResponse({ error: 'e', supported_features: 1n, file: [{ name: 'a', content: 'x' }] });
  // The same fields written in reverse order (a valid encoding of the same message).
  const reversed = Buffer.concat([
    Buffer.from(inOrder.subarray(5)),
    Buffer.from(inOrder.subarray(3, 5)),
    Buffer.from(inOrder.subarray(0, 3)),
  ]);
  const first = JSON.stringify(readableResponse(decodeResponse(inOrder)));
  expect(JSON.stringify(readableResponse(decodeResponse(reversed)))).toBe(first);
  expect(JSON.stringify(readableResponse(decodeResponse(inOrder)))).toBe(first);
  expect(Object.keys(JSON.parse(first))).toEqual(['error', 'supported_features', 'file']);
});

test('an empty response reads as an empty object', () => {
  expect(readableResponse(decodeResponse(new Uint8Array()))).toEqual({});
  expect(readableResponse({ file: [{ name: 'x', content: utf8('') }] })).toEqual({ file: [{ name: 'x', content: { text: '' } }] });
});

test('bytes read as a message when they decode, else as why not and the bytes themselves', () => {
  const stdout = encodeResponse({ error: 'nope' });
  expect(readableResponseBytes(stdout)).toEqual({ error: 'nope' });
  expect(readableRequestBytes(encodeRequest({ file_to_generate: ['a.proto'] }))).toEqual({ file_to_generate: ['a.proto'] });
  const garbage = utf8('not a message\n');
  expect(readableRequestBytes(garbage)).toEqual({
    undecodable: expect.stringMatching(/^malformed CodeGeneratorRequest at byte \d+/),
    base64: Buffer.from(garbage).toString('base64'),
  });
  expect(readableResponseBytes(Uint8Array.of(0x0a, 0x05))).toMatchObject({
    undecodable: expect.stringContaining('CodeGeneratorResponse'),
    base64: 'CgU=',
  });
});
