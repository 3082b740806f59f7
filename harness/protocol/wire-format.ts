// The protobuf wire format at the level of spans: where each field of a message starts and
// ends, without interpreting values. The codec uses it to keep fields it does not know as
// the exact bytes that arrived, and to report malformed input with a byte offset instead
// of whatever a generic decoder throws. The rules follow protoc's parser (the judge of what
// a compiler accepts from a plugin, checked against protoc 3.21 in protoc-interop.test.ts):
// tags and lengths take at most 5 bytes, lengths fit in an int32, field 0 and wire types 6/7
// are invalid, groups close with their own field number, varints have at most 10 bytes.
import { HarnessError } from '../core/errors.js';

export const WireType = { varint: 0, fixed64: 1, lengthDelimited: 2, startGroup: 3, endGroup: 4, fixed32: 5 } as const;
export type WireType = (typeof WireType)[keyof typeof WireType];

/** protoc's default recursion limit, applied to nested groups. */
const MAX_GROUP_DEPTH = 100;

/**
 * Input that is not a well-formed protobuf message. `where` names the message being read
 * ("CodeGeneratorResponse.file[1]") and `offset` is the byte offset in the whole input.
 * The code is CONFIG, the code for an invalid file; a runner judging a plugin's output
 * catches this and reports it as the plugin's failure (protoc: "Plugin output is unparseable").
 */
export class MalformedMessageError extends HarnessError {
  constructor(
    readonly where: string,
    readonly offset: number,
    readonly reason: string,
  ) {
    super('CONFIG', `malformed ${where} at byte ${offset}: ${reason}`);
    this.name = 'MalformedMessageError';
  }
}

/** One field occurrence. Offsets are absolute in the buffer that was walked. */
export interface WireField {
  field: number;
  wireType: WireType;
  /** Where the tag starts. */
  start: number;
  /** Where the value starts: after the tag, and after the length prefix of a length-delimited field. */
  valueStart: number;
  /** Where the value ends: before the end-group tag of a group. */
  valueEnd: number;
  /** Where the next field starts. */
  end: number;
}

/** Splits bytes[start, end) into fields; throws MalformedMessageError on anything protoc would reject. */
export function walkFields(bytes: Uint8Array, start: number, end: number, where: string): WireField[] {
  const fields: WireField[] = [];
  let pos = start;
  while (pos < end) {
    const field = readField(bytes, pos, end, where, 0);
    if (field.wireType === WireType.endGroup) {
      throw new MalformedMessageError(where, pos, `end-group tag for field ${field.field} without a matching start-group`);
    }
    fields.push(field);
    pos = field.end;
  }
  return fields;
}

/** Reads a varint as an unsigned 64-bit value; the caller narrows it to the field's type. */
export function readVarint(bytes: Uint8Array, pos: number, end: number, where: string): { value: bigint; next: number } {
  let value = 0n;
  for (let i = 0; i < 10; i++) {
    if (pos + i >= end) throw new MalformedMessageError(where, pos, 'truncated varint');
    const byte = bytes[pos + i];
    value |= BigInt(byte & 0x7f) << BigInt(7 * i);
    // Bits past 64 in a tenth byte are dropped, as protoc does; only the length is an error.
    if (byte < 0x80) return { value: BigInt.asUintN(64, value), next: pos + i + 1 };
  }
  throw new MalformedMessageError(where, pos, 'varint longer than 10 bytes');
}

function readField(bytes: Uint8Array, start: number, end: number, where: string, depth: number): WireField {
  const tag = readVarint(bytes, start, end, where);
  // protoc reads a tag as a varint of at most 5 bytes and keeps its low 32 bits.
  if (tag.next - start > 5) throw new MalformedMessageError(where, start, 'tag longer than 5 bytes');
  const tagValue = BigInt.asUintN(32, tag.value);
  const wireType = Number(tagValue & 7n);
  const field = Number(tagValue >> 3n);
  if (field === 0) throw new MalformedMessageError(where, start, 'field number 0 is invalid');
  const valueStart = tag.next;
  const span = (valueEnd: number, next = valueEnd): WireField => ({
    field,
    wireType: wireType as WireType,
    start,
    valueStart,
    valueEnd,
    end: next,
  });
  switch (wireType) {
    case WireType.varint:
      return span(readVarint(bytes, valueStart, end, where).next);
    case WireType.fixed64:
      return span(fixedEnd(valueStart, 8, end, where, field));
    case WireType.fixed32:
      return span(fixedEnd(valueStart, 4, end, where, field));
    case WireType.lengthDelimited: {
      const length = readVarint(bytes, valueStart, end, where);
      // protoc reads a length as a varint of at most 5 bytes holding a non-negative int32.
      if (length.next - valueStart > 5)
        throw new MalformedMessageError(where, valueStart, `field ${field} has a length longer than 5 bytes`);
      if (length.value > 0x7fffffffn)
        throw new MalformedMessageError(where, valueStart, `field ${field} has length ${length.value}, over 2^31-1`);
      const valueEnd = length.next + Number(length.value);
      if (valueEnd > end) {
        throw new MalformedMessageError(
          where,
          valueStart,
          `field ${field} has length ${length.value}, past the end of the message at byte ${end}`,
        );
      }
      return { field, wireType: WireType.lengthDelimited, start, valueStart: length.next, valueEnd, end: valueEnd };
    }
    case WireType.startGroup: {
      if (depth >= MAX_GROUP_DEPTH) throw new MalformedMessageError(where, start, `groups nested deeper than ${MAX_GROUP_DEPTH}`);
      let pos = valueStart;
      for (;;) {
        if (pos >= end) throw new MalformedMessageError(where, start, `group for field ${field} is not closed`);
        const inner = readField(bytes, pos, end, where, depth + 1);
        if (inner.wireType === WireType.endGroup) {
          if (inner.field !== field) {
            throw new MalformedMessageError(where, pos, `end-group tag for field ${inner.field} closes the group of field ${field}`);
          }
          return span(pos, inner.end);
        }
        pos = inner.end;
      }
    }
    case WireType.endGroup:
      return span(valueStart);
    default:
      throw new MalformedMessageError(where, start, `invalid wire type ${wireType} (field ${field})`);
  }
}

function fixedEnd(valueStart: number, size: number, end: number, where: string, field: number): number {
  if (valueStart + size > end) throw new MalformedMessageError(where, valueStart, `truncated ${size * 8}-bit value of field ${field}`);
  return valueStart + size;
}

// ---- writing ----

export function encodeVarint(value: bigint | number): Uint8Array {
  let rest = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  while (rest >= 0x80n) {
    out.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  out.push(Number(rest));
  return Uint8Array.from(out);
}

export function encodeTag(field: number, wireType: WireType): Uint8Array {
  return encodeVarint((BigInt(field) << 3n) | BigInt(wireType));
}

/** A whole length-delimited field: tag, length, payload. */
export function lengthDelimitedField(field: number, payload: Uint8Array): Uint8Array {
  return concatBytes([encodeTag(field, WireType.lengthDelimited), encodeVarint(payload.length), payload]);
}

/** A whole varint field: tag, value. */
export function varintField(field: number, value: bigint | number): Uint8Array {
  return concatBytes([encodeTag(field, WireType.varint), encodeVarint(value)]);
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let pos = 0;
  for (const part of parts) {
    out.set(part, pos);
    pos += part.length;
  }
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
