// The descriptor messages a request or response carries (FileDescriptorProto in
// proto_file, GeneratedCodeInfo in a File) are kept as the bytes that arrived: the spec
// leaves their structure out, newer compilers add fields protobufjs's descriptor.proto may
// not know, and only the bytes round-trip exactly. They are still decoded once on arrival,
// because protoc parses them fully and rejects a request or response whose descriptors
// are malformed; we must too.
import type protobuf from 'protobufjs';
import { protocolSchema } from './protocol-schema.js';
import { MalformedMessageError, walkFields } from './wire-format.js';

/** A FileDescriptorProto, as bytes plus what checks need most. */
export interface ProtoFile {
  /** The FileDescriptorProto exactly as received or built; encoding writes these bytes. */
  readonly bytes: Uint8Array;
  /** FileDescriptorProto.name; '' when absent. */
  readonly name: string;
  /** FileDescriptorProto.dependency: the imports, in declaration order. */
  readonly dependency: string[];
  /** The whole descriptor as plain JSON data, built on first use (see readable-form.ts). */
  descriptor(): FileDescriptorObject;
}

/**
 * protobufjs's toObject of a FileDescriptorProto: snake_case field names, enums by name,
 * 64-bit integers as decimal strings, bytes as base64, absent fields left out.
 */
export interface FileDescriptorObject {
  name?: string;
  package?: string;
  dependency?: string[];
  syntax?: string;
  [field: string]: unknown;
}

export const DESCRIPTOR_TO_OBJECT: protobuf.IConversionOptions = { enums: String, longs: String, bytes: String, json: true };

/** Reads one FileDescriptorProto (copying the bytes); `where` names it in errors (MalformedMessageError). */
export function readProtoFile(bytes: Uint8Array, where = 'FileDescriptorProto'): ProtoFile {
  const copy = new Uint8Array(bytes);
  return readProtoFileAt(copy, 0, copy.length, where);
}

/** Reads the FileDescriptorProto at buffer[start, end), so errors give offsets in the whole buffer. */
export function readProtoFileAt(buffer: Uint8Array, start: number, end: number, where: string): ProtoFile {
  const { fileDescriptorProto } = protocolSchema();
  const decoded = decodeDescriptor(fileDescriptorProto, buffer, start, end, where) as protobuf.Message & {
    name?: string;
    dependency?: string[];
  };
  let plain: FileDescriptorObject | undefined;
  return {
    bytes: buffer.subarray(start, end),
    name: decoded.name ?? '',
    dependency: [...(decoded.dependency ?? [])],
    descriptor: () => (plain ??= fileDescriptorProto.toObject(decoded, DESCRIPTOR_TO_OBJECT) as FileDescriptorObject),
  };
}

/** Checks that buffer[start, end) is a GeneratedCodeInfo protoc would parse, and returns those bytes. */
export function readGeneratedCodeInfoAt(buffer: Uint8Array, start: number, end: number, where: string): Uint8Array {
  decodeDescriptor(protocolSchema().generatedCodeInfo, buffer, start, end, where);
  return buffer.subarray(start, end);
}

/** A GeneratedCodeInfo's bytes as plain JSON data, with the conventions of FileDescriptorObject. */
export function generatedCodeInfoObject(bytes: Uint8Array): Record<string, unknown> {
  const { generatedCodeInfo } = protocolSchema();
  return generatedCodeInfo.toObject(decodeDescriptor(generatedCodeInfo, bytes, 0, bytes.length, 'GeneratedCodeInfo'), DESCRIPTOR_TO_OBJECT);
}

function decodeDescriptor(type: protobuf.Type, buffer: Uint8Array, start: number, end: number, where: string): protobuf.Message {
  // Our walker first: its errors carry exact offsets for the top level. protobufjs then
  // checks the nested messages, where it can only name the descriptor's start.
  walkFields(buffer, start, end, where);
  try {
    return type.decode(buffer.subarray(start, end));
  } catch (error) {
    throw new MalformedMessageError(where, start, `not a valid ${type.name}: ${(error as Error).message}`);
  }
}
