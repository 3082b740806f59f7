// plugin.proto and the descriptor.proto it imports, loaded with protobufjs. The codec takes
// its field numbers and types from here, so plugin.proto stays the one place they are
// written down; protobufjs also decodes the parts the spec leaves opaque
// (FileDescriptorProto, GeneratedCodeInfo) for readable dumps.
import { createRequire } from 'node:module';
import protobuf from 'protobufjs';
import { HarnessError } from '../core/errors.js';
import { projectPath } from '../../lib/project-files.js';

export const PLUGIN_PROTO_PATH = projectPath('harness/protocol/plugin.proto');

const DESCRIPTOR_IMPORT = 'google/protobuf/descriptor.proto';

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

// The schema is immutable once loaded and parsing it costs a few milliseconds, so one
// lazily built copy per process is shared; nothing is read at import time.
let loaded: ProtocolSchema | undefined;

export function protocolSchema(): ProtocolSchema {
  loaded ??= loadProtocolSchema();
  return loaded;
}

function loadProtocolSchema(): ProtocolSchema {
  // protobufjs ships descriptor.proto but does not resolve the import to it on its own
  // (only a few well-known types are bundled), and no system include path can be assumed.
  const descriptorPath = createRequire(import.meta.url).resolve(`protobufjs/${DESCRIPTOR_IMPORT}`);
  const root = new protobuf.Root();
  const defaultResolve = root.resolvePath.bind(root);
  root.resolvePath = (origin, target) => (target === DESCRIPTOR_IMPORT ? descriptorPath : defaultResolve(origin, target));
  try {
    // keepCase: the field names of the spec (file_to_generate), not camelCase.
    root.loadSync(PLUGIN_PROTO_PATH, { keepCase: true });
    root.resolveAll();
  } catch (error) {
    throw new HarnessError('CONFIG', `cannot load ${PLUGIN_PROTO_PATH}: ${(error as Error).message}`);
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
