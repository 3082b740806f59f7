// Protobuf wire format, read with the strictness of protoc's own C++ parser (3.21), because
// "Plugin output is unparseable" must fire exactly when protoc's ParseFromString fails:
// - a known field arriving with another wire type is an unknown field, not an error
//   (protobufjs' generated decoders would misread it instead);
// - tag 0, wire types 6 and 7, an end-group without its start, an unterminated group,
//   a varint longer than 10 bytes (5 for tags and lengths) and a length beyond the buffer
//   or of 2 GiB and more fail the whole parse;
// - nesting deeper than 100 messages or groups fails (protoc's default recursion limit).
// Values are views into the input (no copies): plugin output can be hundreds of MiB.

export class WireFormatError extends Error {
  readonly code = 'WIRE_FORMAT';
  constructor(message: string) {
    super(message);
    this.name = 'WireFormatError';
  }
}

export type WireType = 0 | 1 | 2 | 3 | 5;

export interface WireField {
  number: number;
  /** Offsets of the whole field, tag included, in the parsed buffer. */
  start: number;
  end: number;
  wireType: WireType;
  /** The value of a varint field (wire type 0), as unsigned 64 bits. */
  varint: bigint;
  /** The payload of a length-delimited field (wire type 2), the 4 or 8 bytes of a fixed
   *  one (1, 5), or the body of a group (3, without its end tag). */
  bytes: Uint8Array;
}

/** protoc's default recursion limit (io::CodedInputStream::GetDefaultRecursionLimit). */
export const RECURSION_LIMIT = 100;
/** ReadSizeFallback refuses sizes this close to INT_MAX (kSlopBytes = 16). */
const MAX_LENGTH = 0x7fffffff - 16;
const EMPTY = new Uint8Array(0);

class Cursor {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  varint(maxBytes: number): bigint {
    let result = 0n;
    for (let i = 0; i < maxBytes; i++) {
      if (this.pos >= this.buf.length) throw new WireFormatError('truncated varint');
      const byte = this.buf[this.pos++];
      result |= BigInt(byte & 0x7f) << BigInt(7 * i);
      if (byte < 0x80) return result;
    }
    throw new WireFormatError('varint too long');
  }

  take(length: number): Uint8Array {
    if (length > this.buf.length - this.pos) throw new WireFormatError('length beyond the end of the message');
    const out = this.buf.subarray(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }

  /** A tag as protoc reads it: at most 5 bytes, kept to 32 bits. */
  tag(): { number: number; wireType: number } {
    const tag = Number(this.varint(5) & 0xffffffffn);
    if (tag === 0) throw new WireFormatError('tag 0');
    return { number: tag >>> 3, wireType: tag & 7 };
  }

  length(): number {
    const length = this.varint(5);
    if (length > BigInt(MAX_LENGTH)) throw new WireFormatError('length of 2 GiB or more');
    return Number(length);
  }
}

/** Skips one group whose start tag was just read, up to its matching end-group; returns its body. */
function skipGroup(cursor: Cursor, number: number, depth: number): Uint8Array {
  if (depth > RECURSION_LIMIT) throw new WireFormatError('groups nested too deeply');
  const start = cursor.pos;
  for (;;) {
    if (cursor.done) throw new WireFormatError('unterminated group');
    const end = cursor.pos;
    const tag = cursor.tag();
    if (tag.wireType === 4) {
      if (tag.number !== number) throw new WireFormatError('mismatched end-group');
      return cursor.buf.subarray(start, end);
    }
    readValue(cursor, tag.number, tag.wireType, depth);
  }
}

function readValue(cursor: Cursor, number: number, wireType: number, depth: number): Omit<WireField, 'start' | 'end'> {
  switch (wireType) {
    case 0:
      return { number, wireType, varint: BigInt.asUintN(64, cursor.varint(10)), bytes: EMPTY };
    case 1:
      return { number, wireType, varint: 0n, bytes: cursor.take(8) };
    case 2:
      return { number, wireType, varint: 0n, bytes: cursor.take(cursor.length()) };
    case 3:
      return { number, wireType, varint: 0n, bytes: skipGroup(cursor, number, depth + 1) };
    case 5:
      return { number, wireType, varint: 0n, bytes: cursor.take(4) };
    default:
      // 4 (an end-group nobody opened), 6 and 7.
      throw new WireFormatError(`unexpected wire type ${wireType}`);
  }
}

/**
 * The fields of one message, in wire order. Groups are validated (their body is returned);
 * length-delimited payloads are not descended into: the caller parses the ones it knows as
 * messages, passing `depth + 1`.
 */
export function parseWireFields(buf: Uint8Array, depth = 0): WireField[] {
  if (depth > RECURSION_LIMIT) throw new WireFormatError('messages nested too deeply');
  const cursor = new Cursor(buf);
  const fields: WireField[] = [];
  while (!cursor.done) {
    const start = cursor.pos;
    const tag = cursor.tag();
    const value = readValue(cursor, tag.number, tag.wireType, depth);
    fields.push({ ...value, start, end: cursor.pos });
  }
  return fields;
}

/** The elements of a packed repeated varint field; each must be complete. */
export function parsePackedVarints(buf: Uint8Array): bigint[] {
  const cursor = new Cursor(buf);
  const values: bigint[] = [];
  while (!cursor.done) values.push(cursor.varint(10));
  return values;
}

/** An int32 field's value: the low 32 bits of the varint, signed. */
export function toInt32(value: bigint): number {
  return Number(BigInt.asIntN(32, value));
}
