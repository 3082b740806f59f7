// The plugin protocol's messages, loaded with protobufjs from the data file the project
// wrote from spec 3 (harness/protocol/plugin.proto). reference-impl reads that file but
// imports no harness code, so it stays an independent stand-in for a real compiler.
// Its import of google/protobuf/descriptor.proto resolves to protobufjs' shipped copy.
import { createRequire } from 'node:module';
import path from 'node:path';
import protobuf from 'protobufjs';
import { projectPath } from '../../../lib/project-files.js';

export const PLUGIN_PROTO = projectPath('harness/protocol/plugin.proto');
const DESCRIPTOR_IMPORT = 'google/protobuf/descriptor.proto';

export function protobufjsDescriptorProto(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('protobufjs/package.json')), DESCRIPTOR_IMPORT);
}

export interface PluginMessages {
  request: protobuf.Type;
  response: protobuf.Type;
  responseFile: protobuf.Type;
  fileDescriptorProto: protobuf.Type;
  fileDescriptorSet: protobuf.Type;
}

/** Loads plugin.proto afresh (a few milliseconds); callers keep the result for a run. */
export function loadPluginMessages(): PluginMessages {
  const root = new protobuf.Root();
  const descriptor = protobufjsDescriptorProto();
  const defaultResolve = root.resolvePath;
  root.resolvePath = (origin, target) => (target === DESCRIPTOR_IMPORT ? descriptor : defaultResolve(origin, target));
  // keepCase: the names stay those of the .proto (file_to_generate, proto_file, ...).
  root.loadSync(PLUGIN_PROTO, { keepCase: true });
  root.resolveAll();
  return {
    request: root.lookupType('google.protobuf.compiler.CodeGeneratorRequest'),
    response: root.lookupType('google.protobuf.compiler.CodeGeneratorResponse'),
    responseFile: root.lookupType('google.protobuf.compiler.CodeGeneratorResponse.File'),
    fileDescriptorProto: root.lookupType('google.protobuf.FileDescriptorProto'),
    fileDescriptorSet: root.lookupType('google.protobuf.FileDescriptorSet'),
  };
}
