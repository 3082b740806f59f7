// The harness's codec for CodeGeneratorRequest and CodeGeneratorResponse (spec document 3).
//
// - Exact round trip: encoding a decoded message nobody changed gives the input bytes back,
//   whatever their field order, duplicates or unknown fields (see wire-message.ts).
// - Unknown fields are kept at every level we decode (request, Version, response, File)
//   in `unknown_fields`; a caller may add some (unknownLengthDelimited) to probe a plugin.
// - proto_file entries stay bytes (ProtoFile), File.content and generated_code_info too:
//   a compiler writes whatever bytes a plugin sent, invalid UTF-8 included.
// - An empty buffer decodes to an empty message. protoc treats a plugin's empty stdout as
//   a valid empty response, and empty is the encoding of a message with nothing set.
// - Malformed input throws MalformedMessageError with the byte offset. A known field with
//   the wrong wire type is kept as unknown, as protoc does, unless rejectWireTypeMismatch.
import type protobuf from 'protobufjs';
import { HarnessError } from '../core/errors.js';
import { generatedCodeInfoObject, readGeneratedCodeInfoAt, readProtoFileAt, type ProtoFile } from './proto-file.js';
import { protocolSchema } from './protocol-schema.js';
import { strictUtf8Text } from '../core/strict-utf8.js';
import { WireType } from './wire-format.js';
import {
  decodeMessage,
  encodeMessage,
  type DecodeOptions,
  type EmbeddedCodec,
  type FieldShape,
  type MessageShape,
  type UnknownField,
  type WireObject,
} from './wire-message.js';

// The rest of the API a runner needs, so it can import from this one file.
export type { DecodeOptions, UnknownField };
export { readProtoFile, type FileDescriptorObject, type ProtoFile } from './proto-file.js';
export { MalformedMessageError } from './wire-format.js';
export { unknownFieldPayload, unknownLengthDelimited, unknownVarint } from './unknown-field.js';

export interface VersionInput {
  major?: number;
  minor?: number;
  patch?: number;
  suffix?: string;
  unknown_fields?: UnknownField[];
}
export interface Version extends VersionInput {
  unknown_fields: UnknownField[];
}

export interface CodeGeneratorRequestInput {
  /** The schema files named on the command line, in command-line order. */
  file_to_generate?: string[];
  parameter?: string;
  /** Every file to generate and its imports, each after the files it imports. */
  proto_file?: ProtoFile[];
  compiler_version?: VersionInput;
  unknown_fields?: UnknownField[];
}
export interface CodeGeneratorRequest extends CodeGeneratorRequestInput {
  file_to_generate: string[];
  proto_file: ProtoFile[];
  compiler_version?: Version;
  unknown_fields: UnknownField[];
}

export interface ResponseFileInput {
  name?: string;
  insertion_point?: string;
  /** A string is written as UTF-8; decoding always gives bytes. */
  content?: Uint8Array | string;
  /** An encoded GeneratedCodeInfo. */
  generated_code_info?: Uint8Array;
  unknown_fields?: UnknownField[];
}
export interface ResponseFile extends ResponseFileInput {
  content?: Uint8Array;
  unknown_fields: UnknownField[];
}

export interface CodeGeneratorResponseInput {
  error?: string;
  /** Bitwise OR of Feature values; uint64 on the wire, so a bigint. */
  supported_features?: bigint;
  file?: ResponseFileInput[];
  unknown_fields?: UnknownField[];
}
export interface CodeGeneratorResponse extends CodeGeneratorResponseInput {
  file: ResponseFile[];
  unknown_fields: UnknownField[];
}

/** CodeGeneratorResponse.Feature, as bits of supported_features. */
export const Feature = { NONE: 0n, PROTO3_OPTIONAL: 1n } as const;

/** Decodes what a compiler writes to a plugin's stdin. */
export function decodeRequest(bytes: Uint8Array, options: DecodeOptions = {}): CodeGeneratorRequest {
  const { request } = pluginMessageShapes();
  return decodeRoot(bytes, request, options) as unknown as CodeGeneratorRequest;
}

export function encodeRequest(request: CodeGeneratorRequestInput): Uint8Array {
  return encodeMessage(request as WireObject, pluginMessageShapes().request, 'CodeGeneratorRequest');
}

/** Decodes what a plugin writes to stdout; empty output is an empty (successful) response. */
export function decodeResponse(bytes: Uint8Array, options: DecodeOptions = {}): CodeGeneratorResponse {
  const { response } = pluginMessageShapes();
  return decodeRoot(bytes, response, options) as unknown as CodeGeneratorResponse;
}

export function encodeResponse(response: CodeGeneratorResponseInput): Uint8Array {
  return encodeMessage(response as WireObject, pluginMessageShapes().response, 'CodeGeneratorResponse');
}

/** A File's content as text: '' when absent, undefined when it is not valid UTF-8. */
export function contentText(file: Pick<ResponseFileInput, 'content'>): string | undefined {
  if (file.content === undefined) return '';
  return typeof file.content === 'string' ? file.content : strictUtf8Text(file.content);
}

function decodeRoot(bytes: Uint8Array, shape: MessageShape, options: DecodeOptions): WireObject {
  if (!(bytes instanceof Uint8Array)) throw new HarnessError('CONFIG', `${shape.name} must be decoded from bytes (Uint8Array or Buffer)`);
  // One private copy: decoded values are views into it, so a caller reusing its buffer
  // cannot change a decoded message, and every value is a plain Uint8Array.
  const copy = new Uint8Array(bytes);
  return decodeMessage(copy, 0, copy.length, shape, shape.name, options);
}

export interface PluginMessageShapes {
  request: MessageShape;
  version: MessageShape;
  response: MessageShape;
  file: MessageShape;
}

// Derived from plugin.proto once per process (like the schema itself), so field numbers
// and types are written down in one place only.
let shapes: PluginMessageShapes | undefined;

/** The field layout of the four plugin messages, as the codec and readable-form use it. */
export function pluginMessageShapes(): PluginMessageShapes {
  shapes ??= buildShapes();
  return shapes;
}

const protoFileCodec: EmbeddedCodec = {
  read: (buffer, start, end, where) => readProtoFileAt(buffer, start, end, where),
  bytes: (value) => {
    const bytes = (value as Partial<ProtoFile> | null)?.bytes;
    if (!(bytes instanceof Uint8Array)) throw new HarnessError('CONFIG', 'a proto_file entry must be a ProtoFile (see readProtoFile)');
    return bytes;
  },
  readable: (value) => (value as ProtoFile).descriptor(),
};

const generatedCodeInfoCodec: EmbeddedCodec = {
  read: (buffer, start, end, where) => readGeneratedCodeInfoAt(buffer, start, end, where),
  bytes: (value) => {
    if (!(value instanceof Uint8Array))
      throw new HarnessError('CONFIG', 'generated_code_info must be an encoded GeneratedCodeInfo (Uint8Array)');
    return value;
  },
  readable: (value) => generatedCodeInfoObject(value as Uint8Array),
};

function buildShapes(): PluginMessageShapes {
  const schema = protocolSchema();
  const embedded = new Map<protobuf.Type, EmbeddedCodec>([
    [schema.fileDescriptorProto, protoFileCodec],
    [schema.generatedCodeInfo, generatedCodeInfoCodec],
  ]);
  const built = new Map<protobuf.Type, MessageShape>();
  const shapeOf = (type: protobuf.Type): MessageShape => {
    const existing = built.get(type);
    if (existing) return existing;
    const shape: MessageShape = { name: type.name, fields: [], byNumber: new Map() };
    built.set(type, shape);
    for (const field of type.fieldsArray) {
      const base = { number: field.id, name: field.name, repeated: field.repeated };
      const resolved = field.resolve().resolvedType;
      let fieldShape: FieldShape;
      if (resolved && embedded.has(resolved as protobuf.Type)) {
        fieldShape = { ...base, wireType: WireType.lengthDelimited, kind: 'embedded', codec: embedded.get(resolved as protobuf.Type)! };
      } else if (resolved && [schema.version, schema.responseFile].includes(resolved as protobuf.Type)) {
        fieldShape = { ...base, wireType: WireType.lengthDelimited, kind: 'message', message: shapeOf(resolved as protobuf.Type) };
      } else if (type === schema.responseFile && field.name === 'content') {
        // A string in the spec, but a compiler writes the bytes as sent: read it as bytes.
        fieldShape = { ...base, wireType: WireType.lengthDelimited, kind: 'bytes' };
      } else if (!resolved && (field.type === 'string' || field.type === 'bytes')) {
        fieldShape = { ...base, wireType: WireType.lengthDelimited, kind: field.type };
      } else if (!resolved && !field.repeated && (field.type === 'int32' || field.type === 'uint64')) {
        fieldShape = { ...base, wireType: WireType.varint, kind: field.type };
      } else {
        throw new HarnessError(
          'CONFIG',
          `plugin.proto: ${type.name}.${field.name} (${field.type}) is a kind of field the codec does not handle`,
        );
      }
      shape.fields.push(fieldShape);
      shape.byNumber.set(field.id, fieldShape);
    }
    return shape;
  };
  return {
    request: shapeOf(schema.request),
    version: shapeOf(schema.version),
    response: shapeOf(schema.response),
    file: shapeOf(schema.responseFile),
  };
}
