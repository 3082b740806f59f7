// The CodeGeneratorRequest, built the way protoc 3.21 builds it (GeneratePluginOutput):
// - file_to_generate: the input files in command-line order, as names relative to the
//   import path (a file named twice is listed twice, as protoc does);
// - parameter: only when non-empty;
// - compiler_version: always, suffix included even when empty;
// - proto_file: every file to generate and everything it imports, depth-first post-order
//   (dependencies first, in import order, each file once), one walk shared by all inputs;
// - wire order 1, 2, 3, 15: proto_file comes last, as protoc writes it.
// proto_file entries are the encoded FileDescriptorProtos exactly as the source produced
// them, written as raw length-delimited bytes: re-encoding through protobufjs would drop
// what it does not know (custom options are extensions it has never seen).
import type { PluginMessages } from './plugin-messages.js';

export interface RequestFile {
  name: string;
  dependency: string[];
  /** Encoded FileDescriptorProto. */
  bytes: Uint8Array;
}

export interface CompilerVersion {
  major: number;
  minor: number;
  patch: number;
  suffix: string;
}

export interface PluginRequestParts {
  fileToGenerate: string[];
  parameter: string;
  protoFiles: RequestFile[];
  compilerVersion: CompilerVersion;
}

const PROTO_FILE_TAG = (15 << 3) | 2;

/** protoc's GetTransitiveDependencies, applied to each file to generate in turn. */
export function transitiveProtoFiles(fileToGenerate: string[], files: ReadonlyMap<string, RequestFile>): RequestFile[] {
  const seen = new Set<string>();
  const ordered: RequestFile[] = [];
  const visit = (name: string) => {
    // Marked before the dependencies are walked, as protoc does, so a cycle cannot loop.
    if (seen.has(name)) return;
    seen.add(name);
    const file = files.get(name);
    if (!file) throw new Error(`internal: no descriptor for ${name}, which the sources should have resolved`);
    for (const dependency of file.dependency) visit(dependency);
    ordered.push(file);
  };
  for (const name of fileToGenerate) visit(name);
  return ordered;
}

export function encodePluginRequest(messages: PluginMessages, parts: PluginRequestParts): Uint8Array {
  const head: Record<string, unknown> = { file_to_generate: parts.fileToGenerate, compiler_version: { ...parts.compilerVersion } };
  if (parts.parameter !== '') head.parameter = parts.parameter;
  // protobufjs writes known fields in field-number order (1, 2, 3); proto_file follows.
  const writer = messages.request.encode(head);
  for (const file of parts.protoFiles) writer.uint32(PROTO_FILE_TAG).bytes(file.bytes);
  return writer.finish();
}
