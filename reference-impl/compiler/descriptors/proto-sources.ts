// Where the descriptors come from, in the order of protoc 3.21's Run():
// 1. --descriptor_set_in files are read first (their errors come first);
// 2. without any -I, the inputs must all be in those sets;
// 3. with -I (or by default "."), inputs are turned into import-relative names, and .proto
//    sources are parsed by proto-parser.ts; an input found under no import directory but
//    in a set comes from the set (protoc's fallback database).
// Not supported (documented): a .proto parsed from disk importing a file that only a
// descriptor set holds; the parser resolves imports on disk only.
import { findMissingInput, importErrors, loadDescriptorSets, type SourceFile } from './input-descriptor-set.js';
import type { PluginMessages } from '../common/plugin-messages.js';
import { parseProtoFiles, ProtoParseError } from './proto-parser.js';
import { makeInputsRelative, virtualFileExists, type PathProbe } from './proto-path-mapping.js';

export interface ProtoSources {
  /** The inputs in command-line order (a file named twice is here twice). */
  inputs: SourceFile[];
  /** Every file by name: inputs and everything they import. */
  files: Map<string, SourceFile>;
}

export type SourcesResult = { ok: true; sources: ProtoSources } | { ok: false; message: string };

export interface SourceAccess {
  probe: PathProbe;
  readFile(path: string): Uint8Array;
  /** An import directory as the parser must receive it (resolved against the compiler's cwd). */
  resolveDirectory(path: string): string;
}

function parseFromDisk(names: string[], importPaths: string[]): { ok: true; files: SourceFile[] } | { ok: false; message: string } {
  try {
    return { ok: true, files: [...parseProtoFiles(names, importPaths).values()] };
  } catch (error) {
    if (!(error instanceof ProtoParseError)) throw error;
    return { ok: false, message: error.message.endsWith('\n') ? error.message : `${error.message}\n` };
  }
}

export async function loadProtoSources(
  protoPaths: string[],
  descriptorSetIn: string[],
  inputs: string[],
  access: SourceAccess,
  messages: PluginMessages,
): Promise<SourcesResult> {
  const files = new Map<string, SourceFile>();
  if (descriptorSetIn.length > 0) {
    const sets = loadDescriptorSets(descriptorSetIn, access.readFile, messages);
    if (!sets.ok) return sets;
    for (const [name, file] of sets.files) files.set(name, file);
  }

  let names = inputs;
  if (protoPaths.length === 0) {
    const missing = findMissingInput(inputs, files);
    if (missing) return { ok: false, message: missing };
  } else {
    const relative = makeInputsRelative(inputs, protoPaths, access.probe, (name) => files.has(name));
    if (!relative.ok) return relative;
    names = relative.names;
    const fromDisk = [...new Set(names.filter((name) => !files.has(name) || virtualFileExists(name, protoPaths, access.probe)))];
    if (fromDisk.length > 0) {
      const parsed = parseFromDisk(fromDisk, protoPaths.map(access.resolveDirectory));
      if (!parsed.ok) return parsed;
      for (const file of parsed.files) files.set(file.name, file);
    }
  }
  const unresolved = names.find((name) => !files.has(name));
  if (unresolved !== undefined) throw new Error(`internal: the parser returned no descriptor for input ${unresolved}`);
  // protoc's ParseInputFiles stops at the first input that fails to build.
  for (const name of names) {
    const errors = importErrors(name, files);
    if (errors) return { ok: false, message: errors };
  }
  return { ok: true, sources: { inputs: names.map((name) => files.get(name)!), files } };
}
