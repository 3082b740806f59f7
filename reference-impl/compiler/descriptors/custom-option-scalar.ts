// One option value as protoc 3.21's OptionInterpreter::SetOptionValue takes it: by what the
// parser saw (an identifier, an integer with or without '-', a float, strings, an
// aggregate), checked against the option field's type with protoc's error texts, and
// encoded the way protoc encodes it (64-bit values exactly, strings as the bytes their
// escapes denote).
import type { EnumObject, FieldObject, MessageObject } from './descriptor-object.js';
import { unescapeLiteral } from './descriptor-source-tokens.js';
import type { InfoToken } from './source-info-tokens.js';
import type { OptionLiteral } from './source-info-walk.js';
import {
  WIRE_FIXED32,
  WIRE_FIXED64,
  WIRE_LENGTH_DELIMITED,
  WIRE_VARINT,
  fixed32,
  fixed64,
  float32,
  float64,
  lengthDelimited,
  varint,
  zigzag,
} from './custom-option-wire.js';

/** The types option values are checked against, by resolved name (".pkg.Type"). */
export interface OptionTypes {
  message(typeName: string): MessageObject | undefined;
  enumType(typeName: string): EnumObject | undefined;
  /** An extension named in an aggregate (`[pkg.ext]: …`), looked up from the message `relativeTo` (a full name). */
  extension(name: string, relativeTo: string): FieldObject | undefined;
  /** Whether a repeated field of `typeName` is written packed (proto3 files pack by default). */
  packed(typeName: string, field: FieldObject): boolean;
}

/** A field's value without its tag. */
export interface Encoded {
  wireType: number;
  payload: number[];
}

/** What protoc's error texts call a field: its full name and its name. */
export interface FieldNames {
  full: string;
  name: string;
}

export class OptionValueError extends Error {}

const INT32_MAX = 2n ** 31n - 1n;
const INT64_MAX = 2n ** 63n - 1n;
const UINT32_MAX = 2n ** 32n - 1n;

/** protoc's Tokenizer::ParseInteger: 0x… hex, 0… octal, else decimal. */
export function parseProtoInteger(text: string): bigint {
  if (/^0[xX]/.test(text)) return BigInt(text);
  if (/^0[0-7]+$/.test(text)) return BigInt(`0o${text.slice(1)}`);
  return BigInt(text);
}

/** Adjacent string literals as the bytes they denote, joined. */
export function stringBytes(strings: InfoToken[]): number[] {
  return strings.flatMap((t) => [...unescapeLiteral(t.text.slice(1, -1))]);
}

const SIGNED_32 = new Set(['TYPE_INT32', 'TYPE_SINT32', 'TYPE_SFIXED32']);
const SIGNED_64 = new Set(['TYPE_INT64', 'TYPE_SINT64', 'TYPE_SFIXED64']);

/** Encodes an integer already known to fit the field's type. */
export function encodeInteger(type: string, value: bigint): Encoded {
  switch (type) {
    case 'TYPE_SINT32':
    case 'TYPE_SINT64':
      return { wireType: WIRE_VARINT, payload: varint(zigzag(value)) };
    case 'TYPE_SFIXED32':
    case 'TYPE_FIXED32':
      return { wireType: WIRE_FIXED32, payload: fixed32(value) };
    case 'TYPE_SFIXED64':
    case 'TYPE_FIXED64':
      return { wireType: WIRE_FIXED64, payload: fixed64(value) };
    default:
      return { wireType: WIRE_VARINT, payload: varint(value) };
  }
}

export function encodeFloating(type: string, value: number): Encoded {
  return type === 'TYPE_FLOAT' ? { wireType: WIRE_FIXED32, payload: float32(value) } : { wireType: WIRE_FIXED64, payload: float64(value) };
}

/** SetOptionValue for every type but messages and groups (those take an aggregate, custom-option-aggregate.ts). */
export function encodeOptionLiteral(field: FieldObject, literal: OptionLiteral, names: FieldNames, types: OptionTypes): Encoded {
  const type = field.type ?? '';
  const fail = (text: string): never => {
    throw new OptionValueError(text);
  };
  const integer = literal.kind === 'integer' ? parseProtoInteger(literal.text) * (literal.negative ? -1n : 1n) : undefined;
  if (SIGNED_32.has(type) || SIGNED_64.has(type)) {
    const bits = SIGNED_32.has(type) ? 'int32' : 'int64';
    if (integer === undefined) fail(`Value must be integer for ${bits} option "${names.full}".`);
    const max = bits === 'int32' ? INT32_MAX : INT64_MAX;
    if (integer! > max || (bits === 'int32' && integer! < -INT32_MAX - 1n)) fail(`Value out of range for ${bits} option "${names.full}".`);
    return encodeInteger(type, integer!);
  }
  if (type === 'TYPE_UINT32' || type === 'TYPE_FIXED32' || type === 'TYPE_UINT64' || type === 'TYPE_FIXED64') {
    const bits = type === 'TYPE_UINT32' || type === 'TYPE_FIXED32' ? 'uint32' : 'uint64';
    if (integer === undefined || literal.negative) fail(`Value must be non-negative integer for ${bits} option "${names.full}".`);
    // protoc names the field by its short name in this one message.
    if (bits === 'uint32' && integer! > UINT32_MAX) fail(`Value out of range for uint32 option "${names.name}".`);
    return encodeInteger(type, integer!);
  }
  if (type === 'TYPE_FLOAT' || type === 'TYPE_DOUBLE') {
    let value: number | undefined;
    if (literal.kind === 'float') value = (literal.negative ? -1 : 1) * Number(literal.text);
    else if (integer !== undefined) value = Number(integer);
    if (value === undefined) fail(`Value must be number for ${type === 'TYPE_FLOAT' ? 'float' : 'double'} option "${names.full}".`);
    return encodeFloating(type, value!);
  }
  if (type === 'TYPE_BOOL') {
    if (literal.kind !== 'identifier') fail(`Value must be identifier for boolean option "${names.full}".`);
    if (literal.text !== 'true' && literal.text !== 'false') fail(`Value must be "true" or "false" for boolean option "${names.full}".`);
    return { wireType: WIRE_VARINT, payload: varint(literal.text === 'true' ? 1n : 0n) };
  }
  if (type === 'TYPE_ENUM') {
    if (literal.kind !== 'identifier') fail(`Value must be identifier for enum-valued option "${names.full}".`);
    const enumType = types.enumType(field.type_name ?? '');
    const value = enumType?.value.find((v) => v.name === literal.text);
    if (!value) fail(`Enum type "${(field.type_name ?? '').slice(1)}" has no value named "${literal.text}" for option "${names.full}".`);
    return { wireType: WIRE_VARINT, payload: varint(BigInt(value!.number)) };
  }
  if (type === 'TYPE_STRING' || type === 'TYPE_BYTES') {
    if (literal.kind !== 'string') fail(`Value must be quoted string for string option "${names.full}".`);
    return { wireType: WIRE_LENGTH_DELIMITED, payload: lengthDelimited(stringBytes(literal.strings ?? [])) };
  }
  return fail(`Option "${names.full}" has a type touchstone cannot set (${type}).`);
}
