// Encodes and decodes the plugin messages with protobufjs, from the project's own
// harness/protocol/plugin.proto (lib/plugin-proto.ts: read as data, reference-impl imports no
// harness code). Its descriptor.proto is the copy protobufjs ships, newer than the spec's, so
// it knows proto3_optional, editions, etc. Unknown fields (source_file_descriptors = 17 from
// newer compilers and buf) are skipped by protobufjs's decoder, which is the tolerance the
// protocol needs.
import protobuf from 'protobufjs';
import { pluginProtoRoot } from '../../lib/plugin-proto.js';
import type { CodeGeneratorRequest, CodeGeneratorResponse } from './descriptor-types.js';

export interface PluginCodec {
  /** Throws when the bytes are not a CodeGeneratorRequest (garbage, truncated). */
  decodeRequest(bytes: Uint8Array): CodeGeneratorRequest;
  encodeResponse(response: CodeGeneratorResponse): Uint8Array;
  /** The two directions a compiler uses; the plugin's tests play the compiler with them. */
  encodeRequest(request: CodeGeneratorRequest): Uint8Array;
  decodeResponse(bytes: Uint8Array): CodeGeneratorResponse;
  /** The top-level fields of an encoded request in wire order, each with whether spec 3 lists it. */
  requestFields(bytes: Uint8Array): { number: number; known: boolean }[];
}

// Plain objects out: enum names, numbers for 64-bit integers (supported_features is a small
// bit set; no 64-bit field of the request matters to the plugin), absent fields left absent
// so presence stays visible (oneof_index 0, proto3_optional).
const TO_OBJECT: protobuf.IConversionOptions = { longs: Number, enums: String, defaults: false, arrays: true };

export function createPluginCodec(): PluginCodec {
  const root = pluginProtoRoot();
  const request = root.lookupType('google.protobuf.compiler.CodeGeneratorRequest');
  const response = root.lookupType('google.protobuf.compiler.CodeGeneratorResponse');

  return {
    decodeRequest: (bytes) => request.toObject(request.decode(bytes), TO_OBJECT) as CodeGeneratorRequest,
    encodeResponse: (value) => response.encode(response.fromObject(value)).finish(),
    encodeRequest: (value) => request.encode(request.fromObject(value)).finish(),
    decodeResponse: (bytes) => response.toObject(response.decode(bytes), TO_OBJECT) as CodeGeneratorResponse,
    requestFields(bytes) {
      const reader = protobuf.Reader.create(bytes);
      const fields: { number: number; known: boolean }[] = [];
      while (reader.pos < reader.len) {
        const tag = reader.uint32();
        fields.push({ number: tag >>> 3, known: request.fieldsById[tag >>> 3] !== undefined });
        reader.skipType(tag & 7);
      }
      return fields;
    },
  };
}
