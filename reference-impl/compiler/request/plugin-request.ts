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
// Built-in faults and variations (faults.ts) that change the request are switched here.
// Variations (other readings spec 3 allows): compiler.proto-file-by-depth, another
// topological order (files by import depth, then by name: Kahn's algorithm);
// compiler.source-file-descriptors, field 17 after proto_file as protoc 24+ writes it (spec
// 3 lists fields 1, 2, 3 as "the other fields"); compiler.empty-parameter-sent, parameter
// "" when none was given (the field is optional, and an empty one carries none either).
import protobuf from 'protobufjs';
import { NO_FAULTS } from '../../fault-list.js';
import type { CompilerSwitches } from '../faults.js';
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
const SOURCE_FILE_DESCRIPTORS_TAG = (17 << 3) | 2;

/** protoc's GetTransitiveDependencies, applied to each file to generate in turn. */
export function transitiveProtoFiles(
  fileToGenerate: string[],
  files: ReadonlyMap<string, RequestFile>,
  switches: CompilerSwitches = NO_FAULTS,
): RequestFile[] {
  const importsLast = switches.has('compiler.imports-last');
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
  return switches.has('compiler.proto-file-by-depth') ? byImportDepth(ordered) : ordered;
}

/**
 * The variation compiler.proto-file-by-depth: the same files, those importing nothing
 * first, then each file once every file it imports is listed (depth = 1 + the deepest
 * import), ties by name. Also topological, unlike protoc's depth-first order.
 */
function byImportDepth(files: RequestFile[]): RequestFile[] {
  const byName = new Map(files.map((file) => [file.name, file]));
  const depths = new Map<string, number>();
  const depth = (name: string): number => {
    const known = depths.get(name);
    if (known !== undefined) return known;
    depths.set(name, 0); // a cycle (refused before this) cannot recurse forever
    const imports = byName.get(name)?.dependency.filter((dependency) => byName.has(dependency)) ?? [];
    const found = imports.length === 0 ? 0 : 1 + Math.max(...imports.map(depth));
    depths.set(name, found);
    return found;
  };
  return [...files].sort((a, b) => depth(a.name) - depth(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function encodePluginRequest(
  messages: PluginMessages,
  parts: PluginRequestParts,
  switches: CompilerSwitches = NO_FAULTS,
): Uint8Array {
  const head: Record<string, unknown> = { file_to_generate: parts.fileToGenerate };
  if (!switches.has('compiler.no-version')) head.compiler_version = { ...parts.compilerVersion };
  const sendParameter = parts.parameter !== '' || switches.has('compiler.empty-parameter-sent');
  if (sendParameter && !switches.has('compiler.parameter-dropped')) head.parameter = parts.parameter;
  const protoFiles = switches.has('compiler.relative-type-names')
    ? parts.protoFiles.map((file) => unqualified(messages, file.bytes))
    : parts.protoFiles.map((file) => file.bytes);
  // protoc 24+'s source_file_descriptors: the files to generate again, after proto_file.
  const sourceDescriptors = switches.has('compiler.source-file-descriptors')
    ? parts.fileToGenerate.flatMap((name) => parts.protoFiles.filter((file) => file.name === name).slice(0, 1))
    : [];
  const writeProtoFiles = (writer: protobuf.Writer) => {
    for (const bytes of protoFiles) writer.uint32(PROTO_FILE_TAG).bytes(bytes);
    for (const file of sourceDescriptors) writer.uint32(SOURCE_FILE_DESCRIPTORS_TAG).bytes(file.bytes);
    return writer;
  };
  // protobufjs writes known fields in field-number order (1, 2, 3); proto_file follows.
  if (switches.has('compiler.proto-file-first')) return messages.request.encode(head, writeProtoFiles(protobuf.Writer.create())).finish();
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
