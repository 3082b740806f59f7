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
// Built-in faults (faults.ts) that change the request are switched here.
import protobuf from 'protobufjs';
import { NO_FAULTS } from '../../fault-list.js';
import type { CompilerFaults } from '../faults.js';
import type { PluginMessages } from '../common/plugin-messages.js';

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
export function transitiveProtoFiles(
  fileToGenerate: string[],
  files: ReadonlyMap<string, RequestFile>,
  faults: CompilerFaults = NO_FAULTS,
): RequestFile[] {
  const importsLast = faults.has('compiler.imports-last');
  const seen = new Set<string>();
  const ordered: RequestFile[] = [];
  const visit = (name: string) => {
    // Marked before the dependencies are walked, as protoc does, so a cycle cannot loop.
    if (seen.has(name)) return;
    seen.add(name);
    const file = files.get(name);
    if (!file) throw new Error(`internal: no descriptor for ${name}, which the sources should have resolved`);
    if (importsLast) ordered.push(file);
    for (const dependency of file.dependency) visit(dependency);
    if (!importsLast) ordered.push(file);
  };
  for (const name of fileToGenerate) visit(name);
  return ordered;
}

export function encodePluginRequest(messages: PluginMessages, parts: PluginRequestParts, faults: CompilerFaults = NO_FAULTS): Uint8Array {
  const head: Record<string, unknown> = { file_to_generate: parts.fileToGenerate };
  if (!faults.has('compiler.no-version')) head.compiler_version = { ...parts.compilerVersion };
  if (parts.parameter !== '' && !faults.has('compiler.parameter-dropped')) head.parameter = parts.parameter;
  const protoFiles = faults.has('compiler.relative-type-names')
    ? parts.protoFiles.map((file) => unqualified(messages, file.bytes))
    : parts.protoFiles.map((file) => file.bytes);
  const writeProtoFiles = (writer: protobuf.Writer) => {
    for (const bytes of protoFiles) writer.uint32(PROTO_FILE_TAG).bytes(bytes);
    return writer;
  };
  // protobufjs writes known fields in field-number order (1, 2, 3); proto_file follows.
  if (faults.has('compiler.proto-file-first')) return messages.request.encode(head, writeProtoFiles(protobuf.Writer.create())).finish();
  return writeProtoFiles(messages.request.encode(head)).finish();
}

interface TypeReferences {
  type_name?: string;
  extendee?: string;
  input_type?: string;
  output_type?: string;
}
interface DescriptorTree {
  message_type?: DescriptorTree[];
  nested_type?: DescriptorTree[];
  field?: TypeReferences[];
  extension?: TypeReferences[];
  service?: { method?: TypeReferences[] }[];
}

/**
 * The fault compiler.relative-type-names: the file's type references without their leading
 * dot. Re-encoded through protobufjs, so options it does not know are lost too (a faulty
 * request either way).
 */
function unqualified(messages: PluginMessages, bytes: Uint8Array): Uint8Array {
  const file = messages.fileDescriptorProto.decode(bytes) as DescriptorTree;
  const strip = (reference: TypeReferences) => {
    for (const key of ['type_name', 'extendee', 'input_type', 'output_type'] as const) {
      if (reference[key]?.startsWith('.')) reference[key] = reference[key].slice(1);
    }
  };
  const walk = (tree: DescriptorTree) => {
    for (const reference of [...(tree.field ?? []), ...(tree.extension ?? []), ...(tree.service ?? []).flatMap((s) => s.method ?? [])])
      strip(reference);
    for (const nested of [...(tree.message_type ?? []), ...(tree.nested_type ?? [])]) walk(nested);
  };
  walk(file);
  return messages.fileDescriptorProto.encode(file).finish();
}
