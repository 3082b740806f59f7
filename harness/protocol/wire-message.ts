// A small message codec that round-trips byte for byte. Decoding keeps, next to the
// values, the layout of the input: every field occurrence in wire order with its exact
// bytes, known or not. Encoding walks that layout and re-emits the original bytes of
// every value that is unchanged, a fresh encoding of every value that changed, then
// values added since (in field-number order, as protoc writes) and unknown fields added
// since. So decode→encode gives the input back exactly (field order, duplicates, padded
// varints, invalid UTF-8 in strings, unknown fields), and a message built from scratch
// encodes canonically. protobufjs alone can do neither: it reorders fields and rewrites
// values.
import { HarnessError } from '../core/errors.js';
import { checkUnknownField, type UnknownField } from './unknown-field.js';
import {
  bytesEqual,
  concatBytes,
  lengthDelimitedField,
  MalformedMessageError,
  readVarint,
  varintField,
  walkFields,
  WireType,
  type WireField,
} from './wire-format.js';

export type { UnknownField };

export type ScalarKind = 'string' | 'bytes' | 'int32' | 'uint64';

/** A sub-message kept as bytes (the spec leaves its structure out); validated when read. */
export interface EmbeddedCodec {
  /** Reads buffer[start, end); errors name offsets in the whole buffer. */
  read(buffer: Uint8Array, start: number, end: number, where: string): unknown;
  bytes(value: unknown): Uint8Array;
  /** Plain JSON data for readable dumps. */
  readable(value: unknown): unknown;
}

export type FieldShape = { number: number; name: string; repeated: boolean; wireType: WireType } & (
  | { kind: ScalarKind }
  | { kind: 'message'; message: MessageShape }
  | { kind: 'embedded'; codec: EmbeddedCodec }
);

export interface MessageShape {
  name: string;
  /** Declaration order, as in the spec's tables. */
  fields: FieldShape[];
  byNumber: Map<number, FieldShape>;
}

export interface DecodeOptions {
  /**
   * Reject a known field sent with the wrong wire type. By default it is kept as an
   * unknown field, which is what protoc does (`error` sent as a varint is ignored, and the
   * response is still valid).
   */
  rejectWireTypeMismatch?: boolean;
}

export type WireObject = Record<string, unknown> & { unknown_fields?: UnknownField[] };

interface KnownToken {
  kind: 'known';
  shape: FieldShape;
  /** Occurrence index of a repeated field. */
  index: number;
  raw: Uint8Array;
  body: Uint8Array;
  /** The decoded value of this occurrence (repeated) or of the field (singular scalar). */
  value: unknown;
}
type LayoutToken = KnownToken | { kind: 'unknown'; field: UnknownField };

const WIRE_LAYOUT = Symbol('touchstone.wireLayout');

const utf8Lenient = new TextDecoder('utf-8', { ignoreBOM: true });
const utf8Encoder = new TextEncoder();

/** Decodes bytes[start, end). `bytes` must not change afterwards: values are views into it. */
export function decodeMessage(
  bytes: Uint8Array,
  start: number,
  end: number,
  shape: MessageShape,
  where: string,
  options: DecodeOptions,
): WireObject {
  const message: WireObject = {};
  for (const field of shape.fields) if (field.repeated) message[field.name] = [];
  const unknown: UnknownField[] = [];
  const tokens: LayoutToken[] = [];
  const singular = new Map<number, { shape: FieldShape; tokens: KnownToken[]; spans: WireField[] }>();
  for (const span of walkFields(bytes, start, end, where)) {
    const shapeOf = shape.byNumber.get(span.field);
    if (!shapeOf || shapeOf.wireType !== span.wireType) {
      if (shapeOf && options.rejectWireTypeMismatch) {
        throw new MalformedMessageError(
          where,
          span.start,
          `field ${span.field} (${shapeOf.name}) has wire type ${span.wireType}, expected ${shapeOf.wireType}`,
        );
      }
      const field: UnknownField = { field: span.field, wireType: span.wireType, bytes: bytes.subarray(span.start, span.end) };
      unknown.push(field);
      tokens.push({ kind: 'unknown', field });
      continue;
    }
    const token: KnownToken = {
      kind: 'known',
      shape: shapeOf,
      index: 0,
      raw: bytes.subarray(span.start, span.end),
      body: bytes.subarray(span.valueStart, span.valueEnd),
      value: undefined,
    };
    tokens.push(token);
    if (shapeOf.repeated) {
      const values = message[shapeOf.name] as unknown[];
      token.index = values.length;
      token.value = readValue(shapeOf, bytes, span, `${where}.${shapeOf.name}[${values.length}]`, options);
      values.push(token.value);
    } else {
      const entry = singular.get(shapeOf.number) ?? { shape: shapeOf, tokens: [], spans: [] };
      entry.tokens.push(token);
      entry.spans.push(span);
      singular.set(shapeOf.number, entry);
    }
  }
  for (const { shape: field, tokens: occurrences, spans } of singular.values()) {
    const fieldWhere = `${where}.${field.name}`;
    let value: unknown;
    if (field.wireType === WireType.lengthDelimited && field.kind !== 'string' && field.kind !== 'bytes' && spans.length > 1) {
      // A sub-message sent several times is their merge, i.e. the parse of the
      // concatenation. Each part is read alone first so errors carry real offsets.
      for (const span of spans) readValue(field, bytes, span, fieldWhere, options);
      const joined = concatBytes(occurrences.map((token) => token.body));
      value = readValue(field, joined, { ...spans[0], valueStart: 0, valueEnd: joined.length }, `${fieldWhere} (merged)`, options);
    } else {
      // A scalar sent several times: the last occurrence wins.
      value = readValue(field, bytes, spans[spans.length - 1], fieldWhere, options);
    }
    message[field.name] = value;
    for (const token of occurrences) token.value = value;
  }
  message.unknown_fields = unknown;
  Object.defineProperty(message, WIRE_LAYOUT, { value: tokens, enumerable: false });
  return message;
}

function readValue(field: FieldShape, bytes: Uint8Array, span: WireField, where: string, options: DecodeOptions): unknown {
  const body = bytes.subarray(span.valueStart, span.valueEnd);
  switch (field.kind) {
    case 'string':
      return utf8Lenient.decode(body);
    case 'bytes':
      return body;
    case 'int32':
      return Number(BigInt.asIntN(32, readVarint(bytes, span.valueStart, span.valueEnd, where).value));
    case 'uint64':
      return readVarint(bytes, span.valueStart, span.valueEnd, where).value;
    case 'message':
      return decodeMessage(bytes, span.valueStart, span.valueEnd, field.message, where, options);
    case 'embedded':
      return field.codec.read(bytes, span.valueStart, span.valueEnd, where);
  }
}

/** Encodes a decoded (possibly edited) or freshly built message. */
export function encodeMessage(message: WireObject, shape: MessageShape, where: string): Uint8Array {
  const parts: Uint8Array[] = [];
  const unknownNow = message.unknown_fields ?? [];
  const pendingUnknown = new Set(unknownNow);
  const repeatedDone = new Map<number, number>();
  const singularDone = new Set<number>();
  const tokens = (message as { [WIRE_LAYOUT]?: LayoutToken[] })[WIRE_LAYOUT] ?? [];
  const plans = planSingularFields(message, tokens, where);
  for (const token of tokens) {
    if (token.kind === 'unknown') {
      if (pendingUnknown.delete(token.field)) parts.push(token.field.bytes);
      continue;
    }
    const field = token.shape;
    if (field.repeated) {
      const values = repeatedValues(message, field, where);
      repeatedDone.set(field.number, token.index + 1);
      if (token.index < values.length)
        parts.push(reuseOrEncode(field, values[token.index], token, `${where}.${field.name}[${token.index}]`));
    } else {
      const plan = plans.get(field.number)!;
      singularDone.add(field.number);
      if (plan.reuse) parts.push(token.raw);
      else if (plan.fresh && token === plan.last) parts.push(plan.fresh);
    }
  }
  for (const field of [...shape.fields].sort((a, b) => a.number - b.number)) {
    if (field.repeated) {
      const values = repeatedValues(message, field, where);
      for (let i = repeatedDone.get(field.number) ?? 0; i < values.length; i++)
        parts.push(encodeField(field, values[i], `${where}.${field.name}[${i}]`));
    } else if (!singularDone.has(field.number) && message[field.name] !== undefined) {
      parts.push(encodeField(field, message[field.name], `${where}.${field.name}`));
    }
  }
  for (const field of unknownNow) {
    if (!pendingUnknown.delete(field)) continue;
    checkUnknownField(field, where);
    parts.push(field.bytes);
  }
  return concatBytes(parts);
}

interface SingularPlan {
  reuse: boolean;
  fresh?: Uint8Array;
  last: KnownToken;
}

// A singular field may occur several times; its original occurrences are reused only all
// together, when the current value is the one they decode to. Otherwise the new value is
// written once, where the last occurrence was (the one that decided the old value).
function planSingularFields(message: WireObject, tokens: LayoutToken[], where: string): Map<number, SingularPlan> {
  const byField = new Map<number, KnownToken[]>();
  for (const token of tokens) {
    if (token.kind !== 'known' || token.shape.repeated) continue;
    byField.set(token.shape.number, [...(byField.get(token.shape.number) ?? []), token]);
  }
  const plans = new Map<number, SingularPlan>();
  for (const [number, occurrences] of byField) {
    const field = occurrences[0].shape;
    const last = occurrences[occurrences.length - 1];
    const value = message[field.name];
    const fieldWhere = `${where}.${field.name}`;
    if (value === undefined) {
      plans.set(number, { reuse: false, last });
    } else if (field.kind === 'message' || field.kind === 'embedded') {
      const body = encodeBody(field, value, fieldWhere);
      const reuse = bytesEqual(body, concatBytes(occurrences.map((token) => token.body)));
      plans.set(number, { reuse, fresh: reuse ? undefined : lengthDelimitedField(field.number, body), last });
    } else {
      const reuse = scalarEquals(value, last.value);
      plans.set(number, { reuse, fresh: reuse ? undefined : encodeField(field, value, fieldWhere), last });
    }
  }
  return plans;
}

function reuseOrEncode(field: FieldShape, value: unknown, token: KnownToken, where: string): Uint8Array {
  if (field.kind === 'message' || field.kind === 'embedded') {
    const body = encodeBody(field, value, where);
    return bytesEqual(body, token.body) ? token.raw : lengthDelimitedField(field.number, body);
  }
  return scalarEquals(value, token.value) ? token.raw : encodeField(field, value, where);
}

function scalarEquals(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return bytesEqual(a, b);
  return a === b;
}

function repeatedValues(message: WireObject, field: FieldShape, where: string): unknown[] {
  const values = message[field.name] ?? [];
  if (!Array.isArray(values)) throw new HarnessError('CONFIG', `${where}.${field.name} must be an array`);
  return values;
}

function encodeField(field: FieldShape, value: unknown, where: string): Uint8Array {
  if (field.kind === 'int32') {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < -0x80000000 || value > 0x7fffffff) {
      throw new HarnessError('CONFIG', `${where} must be an int32, got ${String(value)}`);
    }
    return varintField(field.number, value);
  }
  if (field.kind === 'uint64') {
    if (typeof value !== 'bigint' || value < 0n || value > 0xffffffffffffffffn)
      throw new HarnessError('CONFIG', `${where} must be a uint64 bigint, got ${String(value)}`);
    return varintField(field.number, value);
  }
  return lengthDelimitedField(field.number, encodeBody(field, value, where));
}

function encodeBody(field: FieldShape, value: unknown, where: string): Uint8Array {
  switch (field.kind) {
    case 'string':
      if (typeof value !== 'string') throw new HarnessError('CONFIG', `${where} must be a string`);
      return utf8Encoder.encode(value);
    case 'bytes':
      if (typeof value === 'string') return utf8Encoder.encode(value);
      if (!(value instanceof Uint8Array)) throw new HarnessError('CONFIG', `${where} must be bytes (Uint8Array) or a string`);
      return value;
    case 'message':
      if (typeof value !== 'object' || value === null) throw new HarnessError('CONFIG', `${where} must be a ${field.message.name} object`);
      return encodeMessage(value as WireObject, field.message, where);
    case 'embedded':
      return field.codec.bytes(value);
    default:
      throw new HarnessError('CONFIG', `${where} is not length-delimited`);
  }
}
