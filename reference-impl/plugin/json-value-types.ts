// The TypeScript type of a field's value in the proto3 JSON mapping, as a conforming JSON
// printer writes it: 64-bit integers and bytes (base64) are strings, enums are value names,
// and the well-known types have their special JSON forms (a Timestamp is an RFC 3339 string,
// a wrapper is its bare value, a Struct any object ...). float/double are `number`: the
// strings "NaN", "Infinity" and "-Infinity" a printer may also write are left out to keep the
// declarations readable. Global type names are never used bare (no Record<>, Array<>): a
// schema may declare a message with that name in the same file.
import type { FieldDescriptor } from './descriptor-types.js';
import type { TypeSymbol } from './symbol-table.js';

const WELL_KNOWN: Readonly<Record<string, string>> = {
  'google.protobuf.Any': '{ "@type": string; [key: string]: unknown }',
  'google.protobuf.Timestamp': 'string',
  'google.protobuf.Duration': 'string',
  'google.protobuf.FieldMask': 'string',
  'google.protobuf.Struct': '{ [key: string]: unknown }',
  'google.protobuf.Value': 'unknown',
  'google.protobuf.ListValue': 'unknown[]',
  'google.protobuf.NullValue': 'null',
  'google.protobuf.Empty': '{ [key: string]: never }',
  'google.protobuf.DoubleValue': 'number',
  'google.protobuf.FloatValue': 'number',
  'google.protobuf.Int32Value': 'number',
  'google.protobuf.UInt32Value': 'number',
  'google.protobuf.Int64Value': 'string',
  'google.protobuf.UInt64Value': 'string',
  'google.protobuf.BoolValue': 'boolean',
  'google.protobuf.StringValue': 'string',
  'google.protobuf.BytesValue': 'string',
};

const SCALARS: Readonly<Record<string, string>> = {
  TYPE_DOUBLE: 'number',
  TYPE_FLOAT: 'number',
  TYPE_INT32: 'number',
  TYPE_UINT32: 'number',
  TYPE_SINT32: 'number',
  TYPE_FIXED32: 'number',
  TYPE_SFIXED32: 'number',
  TYPE_INT64: 'string',
  TYPE_UINT64: 'string',
  TYPE_SINT64: 'string',
  TYPE_FIXED64: 'string',
  TYPE_SFIXED64: 'string',
  TYPE_BOOL: 'boolean',
  TYPE_STRING: 'string',
  TYPE_BYTES: 'string',
};

/**
 * `reference` names a message or enum declared in the request (already resolved by the
 * caller, which knows how to import it); well-known types never reach it.
 */
export function jsonValueType(field: FieldDescriptor, symbol: TypeSymbol | undefined, reference: (symbol: TypeSymbol) => string): string {
  if (typeof field.type === 'string' && Object.hasOwn(SCALARS, field.type)) return SCALARS[field.type]!;
  if (!symbol) return 'unknown';
  const wellKnown = Object.hasOwn(WELL_KNOWN, symbol.fullName) ? WELL_KNOWN[symbol.fullName] : undefined;
  return wellKnown ?? reference(symbol);
}

/**
 * `T[]`, with T in parentheses unless it is a plain name (a union would bind wrongly). Not
 * `Array<T>`: the generated file may declare a message named Array.
 */
export function arrayOf(type: string): string {
  return /^[A-Za-z0-9_$.]+(\[\])*$/.test(type) ? `${type}[]` : `(${type})[]`;
}
