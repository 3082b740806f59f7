// An aggregate option value (`(ext) = { a: 1 b { c: "x" } }`) as protoc 3.21 sets it: the
// text format parsed into a message of the option's type (TextFormat::Parser), then
// serialized, which writes fields in field-number order whatever order the text gave them
// in, repeated ones in text order, packed where the field is. The tokens are those protoc's
// parser kept between the braces.
import type { FieldObject, MessageObject } from './descriptor-object.js';
import {
  OptionValueError,
  encodeFloating,
  encodeInteger,
  parseProtoInteger,
  stringBytes,
  type Encoded,
  type OptionTypes,
} from './custom-option-scalar.js';
import {
  WIRE_END_GROUP,
  WIRE_LENGTH_DELIMITED,
  WIRE_START_GROUP,
  WIRE_VARINT,
  lengthDelimited,
  tag,
  varint,
} from './custom-option-wire.js';
import type { InfoToken } from './source-info-tokens.js';

const SIGNED = new Set(['TYPE_INT32', 'TYPE_SINT32', 'TYPE_SFIXED32', 'TYPE_INT64', 'TYPE_SINT64', 'TYPE_SFIXED64']);
const UNSIGNED = new Set(['TYPE_UINT32', 'TYPE_FIXED32', 'TYPE_UINT64', 'TYPE_FIXED64']);
const BITS_32 = new Set(['TYPE_INT32', 'TYPE_SINT32', 'TYPE_SFIXED32', 'TYPE_UINT32', 'TYPE_FIXED32']);

/** The serialized message `tokens` describe, for a message of type `typeName` (".pkg.Rule"). */
export function encodeAggregate(typeName: string, tokens: InfoToken[], types: OptionTypes): number[] {
  let i = 0;
  const fail = (text: string): never => {
    throw new OptionValueError(text);
  };
  const text = (): string => tokens[i]?.text ?? '';
  const tryConsume = (t: string): boolean => (tokens[i]?.text === t && tokens[i].type !== 'string' ? (i++, true) : false);
  const consume = (t: string): void => {
    if (!tryConsume(t)) fail(`Expected "${t}", found "${text()}".`);
  };

  const integer = (field: FieldObject): bigint => {
    const negative = tryConsume('-');
    if (negative && UNSIGNED.has(field.type ?? '')) fail('Expected integer, got: -');
    const token = tokens[i];
    if (token?.type !== 'integer') fail(`Expected integer, got: ${text()}`);
    i++;
    const value = parseProtoInteger(token.text) * (negative ? -1n : 1n);
    const bits = BITS_32.has(field.type ?? '') ? 32n : 64n;
    const [min, max] = SIGNED.has(field.type ?? '') ? [-(2n ** (bits - 1n)), 2n ** (bits - 1n) - 1n] : [0n, 2n ** bits - 1n];
    if (value < min || value > max) fail(`Integer out of range (${token.text})`);
    return value;
  };

  const scalar = (field: FieldObject): Encoded => {
    const type = field.type ?? '';
    if (SIGNED.has(type) || UNSIGNED.has(type)) return encodeInteger(type, integer(field));
    if (type === 'TYPE_FLOAT' || type === 'TYPE_DOUBLE') {
      const sign = tryConsume('-') ? -1 : 1;
      const token = tokens[i++];
      const word = token?.type === 'identifier' ? token.text.toLowerCase() : undefined;
      if (token?.type === 'integer') return encodeFloating(type, sign * Number(parseProtoInteger(token.text)));
      if (token?.type === 'float') return encodeFloating(type, sign * Number(token.text));
      if (word === 'inf' || word === 'infinity') return encodeFloating(type, sign * Infinity);
      if (word === 'nan') return encodeFloating(type, Number.NaN);
      return fail(`Expected double, got: ${token?.text ?? ''}`);
    }
    if (type === 'TYPE_BOOL') {
      const token = tokens[i++];
      const truth = { true: 1n, True: 1n, t: 1n, '1': 1n, false: 0n, False: 0n, f: 0n, '0': 0n }[token?.text ?? ''];
      if (truth === undefined || token.type === 'string')
        fail(`Invalid value for boolean field "${field.name}". Value: "${token?.text ?? ''}".`);
      return { wireType: WIRE_VARINT, payload: varint(truth!) };
    }
    if (type === 'TYPE_ENUM') {
      const values = types.enumType(field.type_name ?? '')?.value ?? [];
      const negative = tryConsume('-');
      const token = tokens[i++];
      const found =
        token?.type === 'identifier' && !negative
          ? values.find((v) => v.name === token.text)
          : token?.type === 'integer'
            ? values.find((v) => BigInt(v.number) === parseProtoInteger(token.text) * (negative ? -1n : 1n))
            : undefined;
      if (!found) fail(`Unknown enumeration value of "${negative ? '-' : ''}${token?.text ?? ''}" for field "${field.name}".`);
      return { wireType: WIRE_VARINT, payload: varint(BigInt(found!.number)) };
    }
    if (type === 'TYPE_STRING' || type === 'TYPE_BYTES') {
      const strings: InfoToken[] = [];
      while (tokens[i]?.type === 'string') strings.push(tokens[i++]);
      if (strings.length === 0) fail(`Expected string, got: ${text()}`);
      return { wireType: WIRE_LENGTH_DELIMITED, payload: lengthDelimited(stringBytes(strings)) };
    }
    return fail(`Field "${field.name}" has a type touchstone cannot set (${type}).`);
  };

  /** After `[`: an extension of the message, named relative to it, up to `]`. */
  const extension = (typeName: string, type: MessageObject): FieldObject => {
    let name = '';
    while (i < tokens.length && text() !== ']') name += tokens[i++].text;
    consume(']');
    // Any's expanded form and message sets have wire formats of their own.
    if (name.includes('/') || type.options?.message_set_wire_format === true)
      fail(`"[${name}]" (an Any value or a message set item) inside an aggregate option value is not supported by touchstone.`);
    const field = types.extension(name, typeName.slice(1));
    if (field?.extendee !== typeName) fail(`Extension "${name}" is not defined or is not an extension of "${typeName.slice(1)}".`);
    return field!;
  };

  const message = (typeName: string, end: string | undefined): number[] => {
    const type = types.message(typeName) ?? fail(`"${typeName.slice(1)}" is not a message type.`);
    const values = new Map<FieldObject, Encoded[]>();
    while (end === undefined ? i < tokens.length : !tryConsume(end)) {
      if (i >= tokens.length) fail(`Expected "${end}".`);
      const nameToken = tokens[i++];
      let field: FieldObject;
      if (nameToken.text === '[' && nameToken.type === 'symbol') field = extension(typeName, type);
      else if (nameToken.type !== 'identifier') return fail(`Expected identifier, got: ${nameToken.text}`);
      else field = findField(type, nameToken.text) ?? fail(`Message type "${typeName.slice(1)}" has no field named "${nameToken.text}".`);
      const repeated = field.label === 'LABEL_REPEATED';
      if (!repeated && values.has(field)) fail(`Non-repeated field "${field.name}" is specified multiple times.`);
      const list = values.get(field) ?? [];
      values.set(field, list);
      const isMessage = field.type === 'TYPE_MESSAGE' || field.type === 'TYPE_GROUP';
      const one = (): Encoded => {
        if (!isMessage) return scalar(field);
        const close = tryConsume('<') ? '>' : (consume('{'), '}');
        const body = message(field.type_name ?? '', close);
        return field.type === 'TYPE_GROUP'
          ? { wireType: WIRE_START_GROUP, payload: [...body, ...tag(field.number, WIRE_END_GROUP)] }
          : { wireType: WIRE_LENGTH_DELIMITED, payload: lengthDelimited(body) };
      };
      if (!isMessage) consume(':');
      else tryConsume(':');
      if (repeated && tryConsume('[')) {
        if (!tryConsume(']')) {
          do list.push(one());
          while (tryConsume(','));
          consume(']');
        }
      } else list.push(one());
      if (!tryConsume(';')) tryConsume(',');
    }
    return serialize(typeName, values, types);
  };

  return message(typeName, undefined);
}

/** TextFormat's field lookup: by name, or a group by its type's name. */
function findField(message: MessageObject, name: string): FieldObject | undefined {
  const field =
    message.field.find((f) => f.name === name) ?? message.field.find((f) => f.name === name.toLowerCase() && f.type === 'TYPE_GROUP');
  if (field?.type === 'TYPE_GROUP' && field.type_name?.split('.').pop() !== name) return undefined;
  return field;
}

function serialize(typeName: string, values: Map<FieldObject, Encoded[]>, types: OptionTypes): number[] {
  const out: number[] = [];
  for (const field of [...values.keys()].sort((a, b) => a.number - b.number)) {
    const list = values.get(field)!;
    const packable = list.every((v) => v.wireType !== WIRE_LENGTH_DELIMITED && v.wireType !== WIRE_START_GROUP);
    if (list.length > 0 && packable && field.label === 'LABEL_REPEATED' && types.packed(typeName, field)) {
      out.push(...tag(field.number, WIRE_LENGTH_DELIMITED), ...lengthDelimited(list.flatMap((v) => v.payload)));
    } else for (const v of list) out.push(...tag(field.number, v.wireType), ...v.payload);
  }
  return out;
}
