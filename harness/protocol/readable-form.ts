// A readable JSON form of a request or response, for reports and recorded plugin sessions.
// It is for people and diffs, not for rebuilding the bytes (keep the bytes for that):
// - field names as in the spec, in the spec's order; absent fields and empty lists left out;
// - content (and any bytes field) as { text } when valid UTF-8, else { base64 };
// - proto_file entries and generated_code_info decoded with protobufjs (enums by name,
//   64-bit integers as decimal strings), supported_features as a decimal string;
// - unknown fields as { field, wireType, base64 } in wire order, base64 holding the value
//   without its tag (and without the length prefix of a length-delimited field).
// The same message always gives the same JSON, key order included.
import { HarnessError } from '../core/errors.js';
import {
  decodeRequest,
  decodeResponse,
  pluginMessageShapes,
  type CodeGeneratorRequestInput,
  type CodeGeneratorResponseInput,
} from './plugin-codec.js';
import { strictUtf8Text } from '../core/strict-utf8.js';
import { unknownFieldPayload, type UnknownField } from './unknown-field.js';
import type { MessageShape, WireObject } from './wire-message.js';

export type ReadableBytes = { text: string } | { base64: string };

export interface ReadableUnknownField {
  field: number;
  wireType: number;
  base64: string;
}

export type ReadableMessage = { [field: string]: unknown };

export function readableRequest(request: CodeGeneratorRequestInput): ReadableMessage {
  return readableMessage(request as WireObject, pluginMessageShapes().request);
}

export function readableResponse(response: CodeGeneratorResponseInput): ReadableMessage {
  return readableMessage(response as WireObject, pluginMessageShapes().response);
}

/** What bytes that do not decode are shown as: why, and the bytes themselves. */
export interface UndecodableBytes {
  undecodable: string;
  base64: string;
}

/** Request bytes in readable form, or why they do not decode (a plugin may be fed garbage on purpose). */
export function readableRequestBytes(bytes: Uint8Array): ReadableMessage | UndecodableBytes {
  return readableOrRaw(bytes, (b) => readableRequest(decodeRequest(b)));
}

/** Response bytes (a plugin's stdout) in readable form, or why they do not decode. */
export function readableResponseBytes(bytes: Uint8Array): ReadableMessage | UndecodableBytes {
  return readableOrRaw(bytes, (b) => readableResponse(decodeResponse(b)));
}

function readableOrRaw(bytes: Uint8Array, read: (b: Uint8Array) => ReadableMessage): ReadableMessage | UndecodableBytes {
  try {
    return read(bytes);
  } catch (error) {
    // Any failure to read is a fact about the bytes to show, never a reason to lose them.
    if (!(error instanceof Error)) throw error;
    return { undecodable: error.message, base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
  }
}

/** Bytes as text when they are valid UTF-8, else base64. */
export function readableBytes(bytes: Uint8Array | string): ReadableBytes {
  if (typeof bytes === 'string') return { text: bytes };
  const text = strictUtf8Text(bytes);
  return text === undefined ? { base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') } : { text };
}

export function readableUnknownField(field: UnknownField): ReadableUnknownField {
  const payload = unknownFieldPayload(field);
  return {
    field: field.field,
    wireType: field.wireType,
    base64: Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('base64'),
  };
}

function readableMessage(message: WireObject, shape: MessageShape): ReadableMessage {
  const out: ReadableMessage = {};
  for (const field of shape.fields) {
    const value = message[field.name];
    if (value === undefined) continue;
    if (field.repeated) {
      if (!Array.isArray(value)) throw new HarnessError('CONFIG', `${shape.name}.${field.name} must be an array`);
      if (value.length > 0) out[field.name] = value.map((item) => readableValue(field, item));
    } else {
      out[field.name] = readableValue(field, value);
    }
  }
  const unknown = message.unknown_fields ?? [];
  if (unknown.length > 0) out.unknown_fields = unknown.map(readableUnknownField);
  return out;
}

function readableValue(field: MessageShape['fields'][number], value: unknown): unknown {
  switch (field.kind) {
    case 'string':
    case 'int32':
      return value;
    case 'uint64':
      return String(value);
    case 'bytes':
      return readableBytes(value as Uint8Array | string);
    case 'message':
      return readableMessage(value as WireObject, field.message);
    case 'embedded':
      return field.codec.readable(value);
  }
}
