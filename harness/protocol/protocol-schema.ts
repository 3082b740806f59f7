// plugin.proto and the descriptor.proto it imports, as protobufjs types (lib/plugin-proto.ts). The codec takes
// its field numbers and types from here, so plugin.proto stays the one place they are
// written down; protobufjs also decodes the parts the spec leaves opaque
// (FileDescriptorProto, GeneratedCodeInfo) for readable dumps.
import type protobuf from 'protobufjs';
import { HarnessError } from '../core/errors.js';
import { PLUGIN_PROTO_JSON_PATH, pluginProtoRoot } from '../../lib/plugin-proto.js';

export interface ProtocolSchema {
  root: protobuf.Root;
  version: protobuf.Type;
  request: protobuf.Type;
  response: protobuf.Type;
  responseFile: protobuf.Type;
  fileDescriptorProto: protobuf.Type;
  fileDescriptorSet: protobuf.Type;
  generatedCodeInfo: protobuf.Type;
}

// The schema is immutable once loaded, so one lazily built copy per process is shared;
// nothing is read at import time.
let loaded: ProtocolSchema | undefined;

export function protocolSchema(): ProtocolSchema {
  loaded ??= loadProtocolSchema();
  return loaded;
}

function loadProtocolSchema(): ProtocolSchema {
  let root: protobuf.Root;
  try {
    root = pluginProtoRoot();
  } catch (error) {
    throw new HarnessError('CONFIG', `cannot load ${PLUGIN_PROTO_JSON_PATH}: ${(error as Error).message}`);
  }
  const type = (name: string) => root.lookupType(name);
  return {
    root,
    version: type('google.protobuf.compiler.Version'),
    request: type('google.protobuf.compiler.CodeGeneratorRequest'),
    response: type('google.protobuf.compiler.CodeGeneratorResponse'),
    responseFile: type('google.protobuf.compiler.CodeGeneratorResponse.File'),
    fileDescriptorProto: type('google.protobuf.FileDescriptorProto'),
    fileDescriptorSet: type('google.protobuf.FileDescriptorSet'),
    generatedCodeInfo: type('google.protobuf.GeneratedCodeInfo'),
  };
}
