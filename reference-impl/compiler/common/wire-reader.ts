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
  /** Reads buf from `pos` up to `limit`: one message, possibly inside a larger buffer. */
  constructor(
    readonly buf: Uint8Array,
    public pos = 0,
    readonly limit = buf.length,
  ) {}

  get done(): boolean {
    return this.pos >= this.limit;
  }

  varint(maxBytes: number): bigint {
    let result = 0n;
    for (let i = 0; i < maxBytes; i++) {
      if (this.pos >= this.limit) throw new WireFormatError('truncated varint');
      const byte = this.buf[this.pos++];
      result |= BigInt(byte & 0x7f) << BigInt(7 * i);
      if (byte < 0x80) return result;
    }
    throw new WireFormatError('varint too long');
  }

  /** Steps over `length` bytes; returns where they start. */
  skip(length: number): number {
    if (length > this.limit - this.pos) throw new WireFormatError('length beyond the end of the message');
    const start = this.pos;
    this.pos += length;
    return start;
  }

  /**
   * A varint of at most `maxBytes` (5 for tags and lengths) as a plain number: 35 bits at
   * most, so exact. Tags and lengths are read once per field, and the bigint path costs
   * several allocations per byte: with it, decoding a response of 11,000 Files took about
   * three times as long.
   */
  smallVarint(maxBytes: number): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < maxBytes; i++) {
      if (this.pos >= this.limit) throw new WireFormatError('truncated varint');
      const byte = this.buf[this.pos++];
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) return result;
      scale *= 128;
    }
    throw new WireFormatError('varint too long');
  }

  /** A tag as protoc reads it: at most 5 bytes, kept to 32 bits (number << 3 | wire type). */
  tag(): number {
    const tag = this.smallVarint(5) % 0x1_0000_0000;
    if (tag === 0) throw new WireFormatError('tag 0');
    return tag;
  }

  length(): number {
    const length = this.smallVarint(5);
    if (length > MAX_LENGTH) throw new WireFormatError('length of 2 GiB or more');
    return length;
  }
}

/** Skips one group whose start tag was just read, up to its matching end-group; returns where its body ends. */
function skipGroup(cursor: Cursor, number: number, depth: number): number {
  if (depth > RECURSION_LIMIT) throw new WireFormatError('groups nested too deeply');
  const inner = new WireFieldReader(cursor, depth);
  for (;;) {
    if (cursor.done) throw new WireFormatError('unterminated group');
    const end = cursor.pos;
    const tag = cursor.tag();
    if ((tag & 7) === 4) {
      if (tag >>> 3 !== number) throw new WireFormatError('mismatched end-group');
      return end;
    }
    inner.readValue(tag, end);
  }
}

/**
 * Reads the fields of one message one at a time into its own properties (the WireField
 * of the last `next()`), so a caller that keeps only some fields allocates nothing for
 * the others, not even views of their bytes (`bytes` is made when asked for; the payload's
 * offsets are `valueStart` and `valueEnd`). A plugin response has tens of thousands of
 * fields: an object per field, the array of them and a view per payload were half of its
 * decoding time, and most of its garbage-collection time.
 */
export class WireFieldReader implements WireField {
  number = 0;
  /** Offsets in `buffer`, like those of the payload. */
  start = 0;
  end = 0;
  wireType: WireType = 0;
  varint = 0n;
  valueStart = 0;
  valueEnd = 0;
  private readonly cursor: Cursor;

  /**
   * The message in `source` from `start` to `end` (all of it by default); `depth` as for
   * parseWireFields. A Cursor is shared by a group and its enclosing message.
   */
  constructor(
    source: Uint8Array | Cursor,
    private readonly depth = 0,
    start = 0,
    end?: number,
  ) {
    if (depth > RECURSION_LIMIT) throw new WireFormatError('messages nested too deeply');
    this.cursor = source instanceof Cursor ? source : new Cursor(source, start, end ?? source.length);
  }

  /** The buffer the offsets refer to. */
  get buffer(): Uint8Array {
    return this.cursor.buf;
  }

  get bytes(): Uint8Array {
    return this.wireType === 0 ? EMPTY : this.cursor.buf.subarray(this.valueStart, this.valueEnd);
  }

  /** Reads the next field; false at the end of the message. */
  next(): boolean {
    if (this.cursor.done) return false;
    const start = this.cursor.pos;
    this.readValue(this.cursor.tag(), start);
    return true;
  }

  /** Reads the value of the field whose tag, starting at `start`, was just read. */
  readValue(tag: number, start: number): void {
    const cursor = this.cursor;
    const number = tag >>> 3;
    const wireType = tag & 7;
    let varint = 0n;
    let valueStart = cursor.pos;
    let valueEnd = valueStart;
    switch (wireType) {
      case 0:
        varint = BigInt.asUintN(64, cursor.varint(10));
        break;
      case 1:
        valueStart = cursor.skip(8);
        valueEnd = cursor.pos;
        break;
      case 2:
        valueStart = cursor.skip(cursor.length());
        valueEnd = cursor.pos;
        break;
      case 3:
        valueEnd = skipGroup(cursor, number, this.depth + 1);
        break;
      case 5:
        valueStart = cursor.skip(4);
        valueEnd = cursor.pos;
        break;
      default:
        // 4 (an end-group nobody opened), 6 and 7.
        throw new WireFormatError(`unexpected wire type ${wireType}`);
    }
    this.number = number;
    this.start = start;
    this.end = cursor.pos;
    this.wireType = wireType;
    this.varint = varint;
    this.valueStart = valueStart;
    this.valueEnd = valueEnd;
  }
}

/**
 * The fields of one message, in wire order. Groups are validated (their body is returned);
 * length-delimited payloads are not descended into: the caller parses the ones it knows as
 * messages, passing `depth + 1`.
 */
export function parseWireFields(buf: Uint8Array, depth = 0): WireField[] {
  const reader = new WireFieldReader(buf, depth);
  const fields: WireField[] = [];
  while (reader.next()) {
    const { number, start, end, wireType, varint, bytes } = reader;
    fields.push({ number, start, end, wireType, varint, bytes });
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
