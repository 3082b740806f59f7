// What a runner sees when a plugin (or a compiler) writes something that is not a valid
// message: one error type, naming the message and the byte offset, never a crash.
import { expect, test } from '@playwright/test';
import { HarnessError } from '../core/errors.js';
import { MALFORMED_RESPONSES } from './wire-edge-cases.js';
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse, MalformedMessageError } from './plugin-codec.js';
import { concatBytes, lengthDelimitedField as len, varintField as varint, WireType } from './wire-format.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

function decodeError(run: () => unknown): MalformedMessageError {
  try {
    run();
  } catch (error) {
    if (error instanceof MalformedMessageError) return error;
    throw new Error(`expected a MalformedMessageError, got ${String(error)}`);
  }
  throw new Error('expected a MalformedMessageError, but decoding succeeded');
}

for (const malformed of MALFORMED_RESPONSES) {
  test(`${malformed.title} is reported with its byte offset`, () => {
    const error = decodeError(() => decodeResponse(malformed.bytes));
    expect(error).toBeInstanceOf(HarnessError);
    expect(error.code).toBe('CONFIG');
    expect(error.offset).toBe(malformed.offset);
    expect(error.reason).toContain(malformed.reason);
    expect(error.where).toBe(malformed.where ?? 'CodeGeneratorResponse');
    expect(error.message).toBe(`malformed ${error.where} at byte ${malformed.offset}: ${error.reason}`);
  });
}

test('a known field with the wrong wire type is kept as unknown, as protoc does, or refused on request', () => {
  const bytes = concatBytes([varint(1, 5) /* error must be a string */, len(15, len(1, utf8('a.txt')))]);
  const lenient = decodeResponse(bytes);
  expect(lenient.error).toBeUndefined();
  expect(lenient.unknown_fields.map((field) => [field.field, field.wireType])).toEqual([[1, WireType.varint]]);
  expect(Buffer.from(encodeResponse(lenient)).equals(Buffer.from(bytes))).toBe(true);

  const strict = decodeError(() => decodeResponse(bytes, { rejectWireTypeMismatch: true }));
  expect(strict.message).toBe('malformed CodeGeneratorResponse at byte 0: field 1 (error) has wire type 0, expected 2');
});

test('a proto_file entry that is not a valid FileDescriptorProto names the entry and where it starts', () => {
  // message_type (4) holds a DescriptorProto whose field (2) has a truncated length.
  const descriptor = concatBytes([len(1, utf8('x.proto')), len(4, Uint8Array.of(0x12, 0x05))]);
  const request = concatBytes([len(1, utf8('x.proto')), len(15, descriptor)]);
  const error = decodeError(() => decodeRequest(request));
  expect(error.where).toBe('CodeGeneratorRequest.proto_file[0]');
  expect(error.offset).toBe(11); // where the descriptor's bytes start
  expect(error.reason).toMatch(/^not a valid FileDescriptorProto: /);
});

test('every truncation of a valid message either decodes or fails with a MalformedMessageError', () => {
  const valid = encodeResponse({
    error: 'partial',
    supported_features: 3n,
    file: [
      { name: 'a.txt', content: 'alpha\n'.repeat(20) },
      { name: 'b.txt', insertion_point: 'here', content: 'beta' },
    ],
    unknown_fields: [],
  });
  for (let cut = 0; cut < valid.length; cut++) {
    try {
      decodeResponse(valid.subarray(0, cut));
    } catch (error) {
      expect(error, `cut at ${cut}`).toBeInstanceOf(MalformedMessageError);
    }
  }
});

test('random bytes never crash the decoder, and those that decode round-trip', () => {
  // A fixed-seed generator keeps the test repeatable.
  let seed = 0x2545f491;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
  let decoded = 0;
  for (let round = 0; round < 2000; round++) {
    const bytes = Uint8Array.from({ length: 1 + (round % 40) }, next);
    const hex = Buffer.from(bytes).toString('hex');
    for (const [decode, encode] of [
      [decodeRequest, encodeRequest],
      [decodeResponse, encodeResponse],
    ] as const) {
      let message: unknown;
      try {
        message = decode(bytes);
      } catch (error) {
        expect(error, hex).toBeInstanceOf(MalformedMessageError);
        continue;
      }
      decoded++;
      expect(Buffer.from(encode(message as never)).toString('hex'), hex).toBe(hex);
    }
  }
  expect(decoded).toBeGreaterThan(0); // some random inputs are valid messages, as with protoc
});

test('decoding something other than bytes is a usage mistake, not a malformed message', () => {
  expect(() => decodeResponse('\x10\x01' as unknown as Uint8Array)).toThrow('CodeGeneratorResponse must be decoded from bytes');
});
