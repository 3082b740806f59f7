// The plugin protocol's messages, from the data file the project wrote from spec 3
// (harness/protocol/plugin.proto, through lib/plugin-proto.ts). reference-impl reads that file
// but imports no harness code, so it stays an independent stand-in for a real compiler. Its
// import of google/protobuf/descriptor.proto resolves to protobufjs' shipped copy.
import type protobuf from 'protobufjs';
import { pluginProtoRoot } from '../../../lib/plugin-proto.js';

export interface PluginMessages {
  /** plugin.proto and the descriptor.proto it imports (the descriptor codec's types too). */
  root: protobuf.Root;
  request: protobuf.Type;
  response: protobuf.Type;
  responseFile: protobuf.Type;
  fileDescriptorProto: protobuf.Type;
  fileDescriptorSet: protobuf.Type;
}

export function loadPluginMessages(): PluginMessages {
  const root = pluginProtoRoot();
  return {
    root,
    request: root.lookupType('google.protobuf.compiler.CodeGeneratorRequest'),
    response: root.lookupType('google.protobuf.compiler.CodeGeneratorResponse'),
    responseFile: root.lookupType('google.protobuf.compiler.CodeGeneratorResponse.File'),
    fileDescriptorProto: root.lookupType('google.protobuf.FileDescriptorProto'),
    fileDescriptorSet: root.lookupType('google.protobuf.FileDescriptorSet'),
  };
}
