// A request or response in protobuf text format, byte for byte what Debian's protoc 3.21 prints
// with `protoc --decode=google.protobuf.compiler.CodeGeneratorRequest` (or …Response), so what
// the harness shows can be diffed with what protoc shows (text-format.test.ts checks it against
// protoc). The bytes are read here rather than by protobufjs because protoc prints
// what its parser kept: known fields in field-number order (the last value of a singular
// scalar, singular messages merged), then unknown fields in wire order, with known fields of
// the wrong wire type and unknown values of closed enums among them.
// The types are plugin.proto's and descriptor.proto's from protocolSchema(), seen as protoc 3.21
// sees them: protobufjs ships a newer descriptor.proto, whose later fields 3.21 reads as unknown.
// Both files are proto2 (explicit presence, closed enums) without oneofs, maps or groups.
import protobuf from 'protobufjs';
import { HarnessError } from '../core/errors.js';
import { protocolSchema } from './protocol-schema.js';
import { MalformedMessageError, readVarint, walkFields, WireType, type WireField } from './wire-format.js';

/** What the printer needs of a field; a protobufjs Field is one. */
export interface FieldSpec {
  readonly name: string;
  readonly id: number;
  readonly type: string;
  readonly repeated: boolean;
  readonly resolvedType: protobuf.Type | protobuf.Enum | null;
}

// Fields of protobufjs's descriptor.proto that protoc 3.21's lacks (editions, features,
// retention …), by message; text-format.test.ts checks this against /usr/include's copy.
const AFTER_3_21: Readonly<Record<string, readonly number[]>> = {
  '.google.protobuf.FileDescriptorProto': [14, 15],
  '.google.protobuf.DescriptorProto': [11],
  '.google.protobuf.EnumDescriptorProto': [6],
  '.google.protobuf.ExtensionRangeOptions': [2, 3, 50],
  '.google.protobuf.FileOptions': [50],
  '.google.protobuf.MessageOptions': [11, 12],
  '.google.protobuf.FieldOptions': [16, 17, 19, 20, 21, 22],
  '.google.protobuf.OneofOptions': [1],
  '.google.protobuf.EnumOptions': [6, 7],
  '.google.protobuf.EnumValueOptions': [2, 3, 4],
  '.google.protobuf.ServiceOptions': [34],
  '.google.protobuf.MethodOptions': [35],
  '.google.protobuf.GeneratedCodeInfo.Annotation': [5],
};
// The one field 3.21 has that later releases dropped.
const PHP_GENERIC_SERVICES: FieldSpec = { name: 'php_generic_services', id: 42, type: 'bool', repeated: false, resolvedType: null };

/** Field `id` of `type` as protoc 3.21's plugin.proto and descriptor.proto define it, if they do. */
export function protoc321Field(type: protobuf.Type, id: number): FieldSpec | undefined {
  if (AFTER_3_21[type.fullName]?.includes(id)) return undefined;
  if (id === PHP_GENERIC_SERVICES.id && type.fullName === '.google.protobuf.FileOptions') return PHP_GENERIC_SERVICES;
  return type.fieldsById[id];
}

/** A CodeGeneratorRequest's bytes as `protoc --decode` prints them; throws MalformedMessageError where protoc fails to parse. */
export function requestTextFormat(bytes: Uint8Array): string {
  return messageTextFormat(bytes, protocolSchema().request);
}

/** A CodeGeneratorResponse's bytes as `protoc --decode` prints them; throws MalformedMessageError where protoc fails to parse. */
export function responseTextFormat(bytes: Uint8Array): string {
  return messageTextFormat(bytes, protocolSchema().response);
}

type Unknown = { field: number; text: string } | { field: number; payload: Uint8Array } | { field: number; group: Unknown[] };

interface ParsedMessage {
  /** Per known field number, each kept value: its printed text, or a message. */
  known: Map<number, (string | ParsedMessage)[]>;
  unknown: Unknown[];
}

/** protoc's default recursion limit: messages nested deeper fail to parse. */
const MAX_DEPTH = 100;
/** TextFormat's budget for reading unknown length-delimited fields as messages, per message printed. */
const UNKNOWN_RECURSION_BUDGET = 10;

function messageTextFormat(bytes: Uint8Array, type: protobuf.Type): string {
  if (!(bytes instanceof Uint8Array)) throw new HarnessError('CONFIG', `${type.name} must be given as bytes (Uint8Array or Buffer)`);
  const lines: string[] = [];
  printMessage(parseMessage(bytes, 0, bytes.length, type, type.name, 0), type, '', lines);
  return lines.join('');
}

function parseMessage(
  bytes: Uint8Array,
  start: number,
  end: number,
  type: protobuf.Type,
  where: string,
  depth: number,
  into?: ParsedMessage,
): ParsedMessage {
  if (depth > MAX_DEPTH) throw new MalformedMessageError(where, start, `messages nested deeper than ${MAX_DEPTH}`);
  const message: ParsedMessage = into ?? { known: new Map(), unknown: [] };
  for (const wire of walkFields(bytes, start, end, where)) {
    const field = protoc321Field(type, wire.field);
    if (field) readKnownField(bytes, wire, field, message, `${where}.${field.name}`, depth);
    else message.unknown.push(unknownOnWire(bytes, wire));
  }
  return message;
}

function readKnownField(bytes: Uint8Array, wire: WireField, field: FieldSpec, message: ParsedMessage, where: string, depth: number): void {
  const values = message.known.get(field.id) ?? [];
  const keep = (value: string | ParsedMessage) => {
    if (field.repeated) values.push(value);
    else values.splice(0, values.length, value);
    message.known.set(field.id, values);
  };
  const kind = field.resolvedType instanceof protobuf.Enum ? 'enum' : field.type;
  if (field.resolvedType instanceof protobuf.Type) {
    if (wire.wireType !== WireType.lengthDelimited) return void message.unknown.push(unknownOnWire(bytes, wire));
    // A singular message given twice is the two merged, as protoc parses it.
    const merge = field.repeated ? undefined : (values[0] as ParsedMessage | undefined);
    const label = field.repeated ? `${where}[${values.length}]` : where;
    keep(parseMessage(bytes, wire.valueStart, wire.valueEnd, field.resolvedType, label, depth + 1, merge));
  } else if (kind === 'string' || kind === 'bytes') {
    if (wire.wireType !== WireType.lengthDelimited) return void message.unknown.push(unknownOnWire(bytes, wire));
    keep(`"${cEscape(bytes.subarray(wire.valueStart, wire.valueEnd))}"`);
  } else if (wire.wireType === scalarWireType(kind)) {
    const raw = readScalar(bytes, wire.valueStart, wire.valueEnd, kind, where);
    // A closed enum (descriptor.proto is proto2) keeps an unknown value as an unknown varint, sign-extended from int32.
    const text = scalarText(field, kind, raw.value);
    if (text === undefined) message.unknown.push({ field: field.id, text: String(BigInt.asUintN(64, BigInt.asIntN(32, raw.value))) });
    else keep(text);
  } else if (field.repeated && wire.wireType === WireType.lengthDelimited) {
    // Packed: protoc accepts it for any repeated scalar, declared packed or not.
    for (let pos = wire.valueStart; pos < wire.valueEnd; ) {
      const raw = readScalar(bytes, pos, wire.valueEnd, kind, where);
      const text = scalarText(field, kind, raw.value);
      if (text === undefined) message.unknown.push({ field: field.id, text: String(raw.value) });
      else keep(text);
      pos = raw.next;
    }
  } else {
    message.unknown.push(unknownOnWire(bytes, wire));
  }
}

// plugin.proto and descriptor.proto use no other scalar types (no float, sint, fixed or uint32).
const scalarWireType = (kind: string): WireType => (kind === 'double' ? WireType.fixed64 : WireType.varint);

/** A scalar's bits as an unsigned 64-bit value (a varint, or 8 little-endian bytes). */
function readScalar(bytes: Uint8Array, pos: number, end: number, kind: string, where: string): { value: bigint; next: number } {
  if (scalarWireType(kind) === WireType.varint) return readVarint(bytes, pos, end, where);
  if (pos + 8 > end) throw new MalformedMessageError(where, pos, `packed ${kind} values do not fill the field`);
  return { value: littleEndian(bytes, pos, 8), next: pos + 8 };
}

/** How protoc prints the value; undefined for a value its closed enum lacks. */
function scalarText(field: FieldSpec, kind: string, raw: bigint): string | undefined {
  switch (kind) {
    case 'enum':
      return (field.resolvedType as protobuf.Enum).valuesById[Number(BigInt.asIntN(32, raw))];
    case 'bool':
      return raw === 0n ? 'false' : 'true';
    case 'int32':
      return String(BigInt.asIntN(32, raw));
    case 'int64':
      return String(BigInt.asIntN(64, raw));
    case 'uint64':
      return String(raw);
    case 'double':
      return simpleDtoa(new DataView(BigUint64Array.of(raw).buffer).getFloat64(0, true));
    default:
      throw new HarnessError('CONFIG', `text format: ${field.name} is a ${kind}, a type plugin.proto and descriptor.proto do not use`);
  }
}

function littleEndian(bytes: Uint8Array, pos: number, size: number): bigint {
  let value = 0n;
  for (let i = size - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[pos + i]);
  return value;
}

function unknownOnWire(bytes: Uint8Array, wire: WireField): Unknown {
  const { field } = wire;
  switch (wire.wireType) {
    case WireType.varint:
      return { field, text: String(readVarint(bytes, wire.valueStart, wire.valueEnd, '').value) };
    case WireType.fixed32:
    case WireType.fixed64:
      return { field, text: hex(littleEndian(bytes, wire.valueStart, wire.valueEnd - wire.valueStart), wire.valueEnd - wire.valueStart) };
    case WireType.lengthDelimited:
      return { field, payload: bytes.subarray(wire.valueStart, wire.valueEnd) };
    default:
      // walkFields has checked the group, so it reads with no depth limit.
      return { field, group: readUnknownFields(bytes, wire.valueStart, wire.end, Number.POSITIVE_INFINITY, field)?.fields ?? [] };
  }
}

const hex = (value: bigint, size: number) => `0x${value.toString(16).padStart(size * 2, '0')}`;

/**
 * Reads bytes as a set of unknown fields the way TextFormat tries an unknown length-delimited
 * field (CodedInputStream, not the parser of messages): tags and lengths of up to 10 bytes
 * keeping the low 32 bits, groups nested at most `groupLimit` deep. Gives undefined where
 * that fails, and TextFormat then prints the field as a string. Inside a group (`group` is its
 * field number) reading stops after the matching end-group tag.
 */
function readUnknownFields(
  bytes: Uint8Array,
  start: number,
  end: number,
  groupLimit: number,
  group?: number,
): { fields: Unknown[]; next: number } | undefined {
  const fields: Unknown[] = [];
  const varint = (at: number) => {
    try {
      return readVarint(bytes, at, end, '');
    } catch {
      return undefined;
    }
  };
  for (let pos = start; ; ) {
    if (pos >= end) return group === undefined ? { fields, next: pos } : undefined;
    const tagRead = varint(pos);
    if (!tagRead) return undefined;
    const tag = Number(BigInt.asUintN(32, tagRead.value));
    const field = tag >>> 3;
    const wireType = tag & 7;
    pos = tagRead.next;
    // A zero tag is not an end of input, and an end-group tag only ends its own group.
    if (tag === 0 || field === 0) return undefined;
    if (wireType === WireType.endGroup) return field === group ? { fields, next: pos } : undefined;
    if (wireType === WireType.varint) {
      const value = varint(pos);
      if (!value) return undefined;
      fields.push({ field, text: String(value.value) });
      pos = value.next;
    } else if (wireType === WireType.fixed64 || wireType === WireType.fixed32) {
      const size = wireType === WireType.fixed64 ? 8 : 4;
      if (pos + size > end) return undefined;
      fields.push({ field, text: hex(littleEndian(bytes, pos, size), size) });
      pos += size;
    } else if (wireType === WireType.lengthDelimited) {
      const length = varint(pos);
      const size = length && Number(BigInt.asUintN(32, length.value));
      if (!length || size === undefined || size > 0x7fffffff || length.next + size > end) return undefined;
      fields.push({ field, payload: bytes.subarray(length.next, length.next + size) });
      pos = length.next + size;
    } else if (wireType === WireType.startGroup && groupLimit >= 1) {
      const inner = readUnknownFields(bytes, pos, end, groupLimit - 1, field);
      if (!inner) return undefined;
      fields.push({ field, group: inner.fields });
      pos = inner.next;
    } else {
      return undefined;
    }
  }
}

function printMessage(message: ParsedMessage, type: protobuf.Type, indent: string, lines: string[]): void {
  for (const id of [...message.known.keys()].sort((a, b) => a - b)) {
    const field = protoc321Field(type, id)!;
    for (const value of message.known.get(id)!) {
      if (typeof value === 'string') {
        lines.push(`${indent}${field.name}: ${value}\n`);
      } else {
        lines.push(`${indent}${field.name} {\n`);
        printMessage(value, field.resolvedType as protobuf.Type, `${indent}  `, lines);
        lines.push(`${indent}}\n`);
      }
    }
  }
  printUnknownFields(message.unknown, UNKNOWN_RECURSION_BUDGET, indent, lines);
}

function printUnknownFields(fields: readonly Unknown[], budget: number, indent: string, lines: string[]): void {
  for (const unknown of fields) {
    let nested = 'group' in unknown ? unknown.group : undefined;
    if ('payload' in unknown && unknown.payload.length > 0 && budget > 0) {
      nested = readUnknownFields(unknown.payload, 0, unknown.payload.length, budget)?.fields;
    }
    if (nested) {
      lines.push(`${indent}${unknown.field} {\n`);
      printUnknownFields(nested, budget - 1, `${indent}  `, lines);
      lines.push(`${indent}}\n`);
    } else if ('payload' in unknown) {
      lines.push(`${indent}${unknown.field}: "${cEscape(unknown.payload)}"\n`);
    } else if ('text' in unknown) {
      lines.push(`${indent}${unknown.field}: ${unknown.text}\n`);
    }
  }
}

const C_ESCAPES: Readonly<Record<number, string>> = { 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x22: '\\"', 0x27: "\\'", 0x5c: '\\\\' };

/** protobuf's CEscape: the usual C escapes, and every other byte outside printable ASCII (UTF-8 included) as 3-digit octal. */
function cEscape(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) {
    out += C_ESCAPES[byte] ?? (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `\\${byte.toString(8).padStart(3, '0')}`);
  }
  return out;
}

/** protobuf's SimpleDtoa: printf's %.15g, or %.17g when that does not read back as the same double. */
function simpleDtoa(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const brief = printfG(value, 15);
  return Number(brief) === value ? brief : printfG(value, 17);
}

/** C's printf("%.{precision}g"), rounding the exact binary value half to even as glibc does (toPrecision rounds ties up). */
function printfG(value: number, precision: number): string {
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  if (value === 0) return `${sign}0`;
  const bits = new DataView(Float64Array.of(Math.abs(value)).buffer).getBigUint64(0, true);
  const biased = Number(bits >> 52n);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const power = (biased === 0 ? 1 : biased) - 1075;
  // |value| = digits × 10^-scale, exactly.
  const digits = (power >= 0 ? mantissa << BigInt(power) : mantissa * 5n ** BigInt(-power)).toString();
  const scale = Math.max(0, -power);
  let exponent = digits.length - 1 - scale;
  let kept = digits.slice(0, precision);
  const rest = digits.slice(precision);
  if (rest !== '' && (rest[0] > '5' || (rest[0] === '5' && (/[1-9]/.test(rest.slice(1)) || Number(kept.at(-1)) % 2 === 1)))) {
    kept = (BigInt(kept) + 1n).toString();
    if (kept.length > precision) {
      kept = kept.slice(0, precision);
      exponent += 1;
    }
  }
  const significant = kept.replace(/0+$/, '');
  if (exponent < -4 || exponent >= precision) {
    const mantissaText = significant.length > 1 ? `${significant[0]}.${significant.slice(1)}` : significant;
    return `${sign}${mantissaText}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${significant}`;
  const whole = significant.padEnd(exponent + 1, '0');
  return `${sign}${whole.slice(0, exponent + 1)}${whole.length > exponent + 1 ? `.${whole.slice(exponent + 1)}` : ''}`;
}
