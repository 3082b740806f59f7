// --descriptor_set_in: FileDescriptorSet files as the source of the input files and their
// imports, with protoc 3.21's texts (PopulateSingleSimpleDescriptorDatabase,
// VerifyInputFilesInDescriptors):
// - a file that cannot be opened: "<file>: No such file or directory" (protoc prints
//   strerror(ENOENT) whatever the cause); one that does not parse: "<file>: Unable to parse.";
// - the first occurrence of a file name wins, across sets and within one;
// - an input not in any set: "Could not find file in descriptor database: <name>: No such
//   file or directory".
// Each FileDescriptorProto is kept as the bytes the set holds (plus json_name, see
// json-name-fill.ts); protobufjs decodes a copy only to learn name, imports and whether
// the file has proto3 optional fields.
// Decision: descriptors are trusted beyond that. protoc builds them into a pool and would
// also report unresolvable type names and the like; touchstone reports only missing
// imports ('<file>: Import "<dep>" was not found or had errors.'), the check that keeps
// proto_file complete.
import { fillJsonNames } from './json-name-fill.js';
import type { PluginMessages } from '../common/plugin-messages.js';
import { parseWireFields } from '../common/wire-reader.js';

/** The shape proto-parser.ts's ParsedFile has, so both sources feed the same request. */
export interface SourceFile {
  name: string;
  dependency: string[];
  bytes: Uint8Array;
  proto3Optional: boolean;
}

interface DecodedField {
  proto3_optional?: boolean;
}
interface DecodedMessage {
  field?: DecodedField[];
  nested_type?: DecodedMessage[];
}
interface DecodedFile {
  name?: string;
  dependency?: string[];
  syntax?: string;
  message_type?: DecodedMessage[];
}

/** descriptor.cc ContainsProto3Optional: proto3 syntax and a synthetic-oneof field in some message. */
function containsProto3Optional(file: DecodedFile): boolean {
  const inMessage = (message: DecodedMessage): boolean =>
    (message.field ?? []).some((field) => field.proto3_optional === true) || (message.nested_type ?? []).some(inMessage);
  return file.syntax === 'proto3' && (file.message_type ?? []).some(inMessage);
}

export type DescriptorSetLoad = { ok: true; files: Map<string, SourceFile> } | { ok: false; message: string };

export function loadDescriptorSets(paths: string[], read: (path: string) => Uint8Array, messages: PluginMessages): DescriptorSetLoad {
  const files = new Map<string, SourceFile>();
  for (const path of paths) {
    let content: Uint8Array;
    try {
      content = read(path);
    } catch (error) {
      // open() succeeds on a directory in C; reading it is what fails there.
      if ((error as NodeJS.ErrnoException).code === 'EISDIR') return { ok: false, message: `${path}: Unable to parse.\n` };
      return { ok: false, message: `${path}: No such file or directory\n` };
    }
    let entries: SourceFile[];
    try {
      entries = parseWireFields(content)
        .filter((field) => field.number === 1 && field.wireType === 2)
        .map((field) => {
          const decoded = messages.fileDescriptorProto.toObject(messages.fileDescriptorProto.decode(field.bytes)) as DecodedFile;
          const name = decoded.name ?? '';
          return {
            name,
            dependency: decoded.dependency ?? [],
            bytes: fillJsonNames(field.bytes),
            proto3Optional: containsProto3Optional(decoded),
          };
        });
    } catch {
      return { ok: false, message: `${path}: Unable to parse.\n` };
    }
    for (const entry of entries) if (!files.has(entry.name)) files.set(entry.name, entry);
  }
  return { ok: true, files };
}

export function findMissingInput(inputs: string[], files: ReadonlyMap<string, SourceFile>): string | undefined {
  const missing = inputs.find((input) => !files.has(input));
  return missing === undefined ? undefined : `Could not find file in descriptor database: ${missing}: No such file or directory\n`;
}

/** The import errors protoc's pool would report first, building `input`; empty when complete. */
export function importErrors(input: string, files: ReadonlyMap<string, SourceFile>): string {
  const state = new Map<string, boolean>();
  let errors = '';
  const build = (name: string): boolean => {
    const known = state.get(name);
    if (known !== undefined) return known;
    // Provisionally fine: a cycle is not followed twice.
    state.set(name, true);
    let ok = true;
    for (const dependency of files.get(name)!.dependency) {
      if (!files.has(dependency) || !build(dependency)) {
        errors += `${name}: Import "${dependency}" was not found or had errors.\n`;
        ok = false;
      }
    }
    state.set(name, ok);
    return ok;
  };
  build(input);
  return errors;
}
