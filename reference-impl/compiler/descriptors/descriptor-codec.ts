// Encodes (and, for tests and tools, decodes) FileDescriptorProtos with the descriptor.proto
// protobufjs ships (as plugin.proto imports it), loaded with keepCase so the plain objects use descriptor.proto's names.
// Custom options travel as already-encoded extension fields in an options object's
// $unknowns, which protobufjs writes after the known fields, where protoc writes them too.
import protobuf from 'protobufjs';
import { loadPluginMessages } from '../common/plugin-messages.js';
import type { FileObject } from './descriptor-object.js';
import { isPlainObject } from './descriptor-options.js';

export interface DescriptorCodec {
  /** The loaded descriptor.proto: the options messages' fields are looked up here. */
  root: protobuf.Root;
  encodeFile(file: FileObject): Uint8Array;
  /** A plain object with enum names, 64-bit numbers as strings, custom options as $unknowns (byte arrays). */
  decodeFile(bytes: Uint8Array): Record<string, unknown>;
  /** The files of an encoded FileDescriptorSet (protoc --descriptor_set_out), decoded like decodeFile. */
  decodeFileSet(bytes: Uint8Array): Record<string, unknown>[];
}

export function createDescriptorCodec(): DescriptorCodec {
  // plugin.proto's root holds descriptor.proto as it imports it: parsed once for both.
  const { root } = loadPluginMessages();
  const fileType = root.lookupType('google.protobuf.FileDescriptorProto');
  const setType = root.lookupType('google.protobuf.FileDescriptorSet');
  const toObject = (message: protobuf.Message): Record<string, unknown> => {
    const object = fileType.toObject(message, { enums: String, longs: String, bytes: Array, defaults: false, arrays: false });
    copyUnknowns(message, object);
    return object;
  };
  return {
    root,
    encodeFile(file) {
      const message = fileType.fromObject(file);
      attachUnknowns(file, message);
      return fileType.encode(message).finish();
    },
    decodeFile: (bytes) => toObject(fileType.decode(keepingUnknowns(bytes))),
    decodeFileSet: (bytes) => (setType.decode(keepingUnknowns(bytes)) as unknown as { file: protobuf.Message[] }).file.map(toObject),
  };
}

/** protobufjs readers drop unknown fields unless told otherwise; custom options are unknown fields here. */
function keepingUnknowns(bytes: Uint8Array): protobuf.Reader {
  const reader = protobuf.Reader.create(bytes);
  reader.discardUnknown = false;
  return reader;
}

/** fromObject drops $unknowns: put them back on the matching message instances. */
function attachUnknowns(plain: unknown, message: unknown): void {
  if (Array.isArray(plain)) plain.forEach((p, i) => attachUnknowns(p, (message as unknown[] | undefined)?.[i]));
  else if (isPlainObject(plain) && message) {
    if (Array.isArray(plain.$unknowns) && plain.$unknowns.length > 0)
      (message as { $unknowns?: Uint8Array[] }).$unknowns = plain.$unknowns as Uint8Array[];
    for (const [key, value] of Object.entries(plain)) {
      if (key !== '$unknowns' && typeof value === 'object' && value !== null)
        attachUnknowns(value, (message as Record<string, unknown>)[key]);
    }
  }
}

/** toObject drops $unknowns: copy them over as plain number arrays so deep comparisons see them. */
function copyUnknowns(message: unknown, object: unknown): void {
  if (Array.isArray(message)) message.forEach((m, i) => copyUnknowns(m, (object as unknown[] | undefined)?.[i]));
  else if (message instanceof protobuf.Message && isPlainObject(object)) {
    const unknowns = (message as { $unknowns?: Uint8Array[] }).$unknowns;
    if (unknowns?.length) object.$unknowns = unknowns.map((u) => Array.from(u));
    for (const [key, value] of Object.entries(message)) if (typeof value === 'object' && value !== null) copyUnknowns(value, object[key]);
  }
}
