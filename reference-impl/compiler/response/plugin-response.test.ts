// Decoding plugin output with the strictness of protoc's C++ parser, and CEscape.
import { expect, test } from '@playwright/test';
import { cEscape } from '../common/c-escape.js';
import { encodeResponse } from '../canned-plugin.fixture.js';
import { decodePluginResponse } from './plugin-response.js';

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (b: Uint8Array) => Buffer.from(b).toString('latin1');

test.describe.configure({ mode: 'parallel' });

test('a response decodes with content as raw bytes; absent and empty are the same', () => {
  const response = decodePluginResponse(
    encodeResponse({ supported_features: 3, file: [{ name: 'a', content: bytes(0xff, 0) }, { content: 'x' }] }),
  )!;
  expect(response.supportedFeatures).toBe(3n);
  expect(response.files.map((f) => [text(f.name), text(f.insertionPoint), [...f.content]])).toEqual([
    ['a', '', [0xff, 0]],
    ['', '', [0x78]],
  ]);
  expect(decodePluginResponse(new Uint8Array(0))).toEqual({ error: new Uint8Array(0), supportedFeatures: 0n, files: [] });
});

test('unknown fields and known fields with another wire type are skipped, as protoc does', () => {
  // field 1 (error) as a varint, field 99 as a varint, a group 7 holding a varint, field 2 as fixed32.
  const response = decodePluginResponse(bytes(0x08, 0x05, 0x98, 0x06, 0x01, 0x3b, 0x08, 0x01, 0x3c, 0x15, 1, 0, 0, 0))!;
  expect(response.error.length).toBe(0);
  expect(response.supportedFeatures).toBe(0n);
  expect(decodePluginResponse(bytes(0x0a, 0x01, 0x41, 0x0a, 0x01, 0x42))!.error, 'a repeated singular field: last wins').toEqual(
    bytes(0x42),
  );
});

test('what protoc refuses to parse is unparseable here too', () => {
  const unparseable = [
    bytes(0x00), // tag 0
    bytes(0x0a, 0x05, 0x41), // length beyond the end
    bytes(0x08), // truncated varint
    bytes(0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), // 11-byte varint
    bytes(0x0e), // wire type 6
    bytes(0x0c), // end-group with no group
    bytes(0x3b, 0x08, 0x01), // unterminated group
    bytes(0x3b, 0x44), // group closed by another field number
    bytes(0x7a, 0x02, 0x00, 0x00), // tag 0 inside a File
    Buffer.from('this is not a protobuf\n'),
  ];
  for (const input of unparseable) expect(decodePluginResponse(input), cEscape(input)).toBeUndefined();
});

test('CEscape: named escapes, octal for everything outside printable ASCII', () => {
  expect(cEscape(Buffer.from('a\n\r\t"\'\\z'))).toBe('a\\n\\r\\t\\"\\\'\\\\z');
  expect(cEscape(bytes(0x10, 0x01, 0x7a, 0x13, 0x7f, 0xc3, 0xa9, 0x20))).toBe('\\020\\001z\\023\\177\\303\\251 ');
});
