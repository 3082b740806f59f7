// .proto files → FileDescriptorProtos, the way protoc builds them for a CodeGeneratorRequest:
// command-line files resolved against -I like protoc, imports depth first in declaration
// order, each file parsed by protobufjs, turned into protoc's descriptor shape, resolved
// against what it imports, given protoc's source_code_info (source-code-info.ts), and encoded.
//
// Known differences from protoc 3.21 (each also noted where it is decided):
// - google/protobuf/*.proto not found on the import paths come from protobufjs's stripped
//   copies; descriptor.proto and compiler/plugin.proto are newer than 3.21's. They have no
//   source_code_info (protoc's has the positions and comments of its own copies' text).
// - source_code_info of files that are not valid UTF-8 (source-code-info.ts says how).
// - Error texts and positions are protoc's for the cases descriptor-syntax-error.ts and
//   the tests list; protoc reports every error of a file and goes on with the next, we
//   stop at protobufjs's first syntax error and at the first file with errors (plus its
//   importers' "Import … was not found or had errors." lines). Some of protoc's checks are
//   not made (overlapping ranges, options set twice, bad escapes in strings).
// - Custom options: Any values and message set items inside aggregate values are refused
//   (see descriptor-custom-options.ts).
// - Groups inside oneofs are refused: protobufjs cannot represent them. Options on a group
//   (`optional group G = 1 [deprecated = true] {`) are a syntax error: its parser takes none.
// - Warnings (unused imports, missing syntax statement) are not reported: there is no
//   channel for them in this API.
import protobuf from 'protobufjs';
import { createDescriptorCodec, type DescriptorCodec } from './descriptor-codec.js';
import { applyCustomOptions } from './descriptor-custom-options.js';
import { extensionRangeOptions } from './descriptor-range-options.js';
import { ProtoParseError, errorLine } from './descriptor-errors.js';
import type { ReflectedFile } from './descriptor-draft.js';
import { draftFromReflection } from './descriptor-from-reflection.js';
import { resolveDraft } from './descriptor-resolve.js';
import { scanProtoSource } from './descriptor-source-scan.js';
import { sourceCodeInfo, walkSource } from './source-code-info.js';
import { createSourceTree, type OpenedFile } from './descriptor-source-tree.js';
import { describeParseError } from './descriptor-syntax-error.js';
import { createSymbolTable, type SymbolTable } from './descriptor-symbols.js';
import { wellKnownFileOptions } from './descriptor-well-known.js';

export { ProtoParseError } from './descriptor-errors.js';

export interface ParsedFile {
  /** As imported/named relative to its import path, '/' separators, e.g. "demo/foo.proto". */
  name: string;
  /** Import names in declaration order. */
  dependency: string[];
  /** An encoded google.protobuf.FileDescriptorProto. */
  bytes: Uint8Array;
  /** True when the file itself has a proto3 `optional` field. */
  proto3Optional: boolean;
}

/** Errors of one file plus its importers' "Import … was not found or had errors." lines. */
class FileFailure extends Error {
  /** Set while the importer's "Import … was not found" line must not be added (a self-import). */
  skipImporterLine = false;

  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
  }
}

/**
 * Parses `files` (as given on the command line) and everything they import, searching
 * `importPaths` in order like protoc -I. Returns every file once, keyed by name, in
 * protoc's order for CodeGeneratorRequest.proto_file: each file after all it imports.
 */
export function parseProtoFiles(files: string[], importPaths: string[]): Map<string, ParsedFile> {
  const tree = createSourceTree(importPaths);
  const inputs = files.map((f) => tree.inputName(f));
  const codec = createDescriptorCodec();
  const symbols = createSymbolTable();
  const done = new Map<string, ParsedFile>();
  const inProgress: ReflectedFile[] = [];

  const visit = (name: string): void => {
    if (done.has(name)) return;
    const opened = tree.open(name);
    if ('error' in opened) throw new FileFailure([`${name}: ${opened.error}`]);
    const reflected = reflect(opened);
    inProgress.push(reflected);
    for (const imported of reflected.imports) {
      try {
        const cycle = inProgress.findIndex((f) => f.name === imported.name);
        if (cycle >= 0) {
          const path = [...inProgress.slice(cycle).map((f) => f.name), imported.name];
          const start = inProgress[cycle];
          const at = start.imports.find((i) => i.name === path[1])?.at;
          const failure = new FileFailure([errorLine(start.name, at, `File recursively imports itself: ${path.join(' -> ')}`)]);
          // protoc names no import as failed when a file imports itself directly.
          failure.skipImporterLine = imported.name === name;
          throw failure;
        }
        visit(imported.name);
      } catch (e) {
        if (e instanceof FileFailure) {
          if (!e.skipImporterLine) e.lines.push(errorLine(name, imported.at, `Import "${imported.name}" was not found or had errors.`));
          e.skipImporterLine = false;
        }
        throw e;
      }
    }
    inProgress.pop();

    done.set(name, build(reflected, codec, symbols));
  };

  try {
    for (const input of inputs) visit(input);
  } catch (e) {
    if (e instanceof FileFailure) throw new ProtoParseError(e.lines);
    throw e;
  }
  return done;
}

/** Builds, resolves and encodes one parsed file whose imports are all built. */
function build(reflected: ReflectedFile, codec: DescriptorCodec, symbols: SymbolTable): ParsedFile {
  const name = reflected.name;
  try {
    const draft = draftFromReflection(reflected, codec.root);
    const errors = [...draft.errors];
    const pkg = draft.file.package ? `${draft.file.package}.` : '';
    for (const t of symbols.addFile(draft.file)) {
      const key = t.declaredAs.startsWith(pkg) ? t.declaredAs.slice(pkg.length) : t.declaredAs;
      errors.push(errorLine(name, draft.scan?.names.get(key), t.text));
    }
    if (errors.length === 0) errors.push(...resolveDraft(draft, symbols));
    // The statements as protoc's parser reads them: custom options' values and the source locations come from there.
    const walked = reflected.source === undefined ? undefined : walkSource(reflected.source, draft.file.package ?? '');
    // protoc interprets options last, only in files without other errors.
    if (errors.length === 0) {
      const pending = [...draft.pendingOptions, ...extensionRangeOptions(draft.file, walked?.options ?? [])];
      errors.push(...draft.optionErrors, ...applyCustomOptions(name, pending, symbols, walked?.options));
    }
    if (errors.length > 0) throw new FileFailure(errors);
    if (walked) draft.file.source_code_info = sourceCodeInfo(walked, draft.file, { descriptorRoot: codec.root, symbols });
    return {
      name,
      dependency: draft.file.dependency,
      bytes: codec.encodeFile(draft.file),
      proto3Optional: hasProto3Optional(draft.file.message_type),
    };
  } catch (e) {
    if (e instanceof FileFailure) throw e;
    // A bug of ours or protobufjs's on this input: still say which file, never a bare stack.
    throw new FileFailure([
      `${name}: touchstone could not build the descriptor of this file: ${e instanceof Error ? e.message : String(e)}`,
    ]);
  }
}

/** Parses one opened file with protobufjs (or loads protobufjs's JSON for a well-known file). */
function reflect(opened: OpenedFile): ReflectedFile {
  const fallbackFileOptions = wellKnownFileOptions(opened.name);
  if ('json' in opened) {
    // protobufjs ships these as JSON only; all are proto3 files of package google.protobuf without imports.
    const root = protobuf.Root.fromJSON(opened.json);
    return { name: opened.name, root, package: 'google.protobuf', proto3: true, imports: [], fallbackFileOptions };
  }
  const scan = scanProtoSource(opened.source);
  if (scan.editionAt && !scan.syntax) {
    // protoc 3.21 predates editions: the statement is not one it knows.
    throw new FileFailure([errorLine(opened.name, scan.editionAt, 'Expected top-level statement (e.g. "message").')]);
  }
  if (scan.syntax && scan.syntax.value !== 'proto2' && scan.syntax.value !== 'proto3') {
    throw new FileFailure([
      errorLine(
        opened.name,
        scan.syntax.at,
        `Unrecognized syntax identifier "${scan.syntax.value}".  This parser only recognizes "proto2" and "proto3".`,
      ),
    ]);
  }
  const seen = new Set<string>();
  for (const i of scan.imports) {
    if (seen.has(i.name)) throw new FileFailure([errorLine(opened.name, i.at, `Import "${i.name}" was listed twice.`)]);
    seen.add(i.name);
  }
  const root = new protobuf.Root();
  let parsed: protobuf.IParserResult;
  try {
    parsed = protobuf.parse(opened.source, root, { keepCase: true });
  } catch (e) {
    throw new FileFailure(describeParseError(opened.name, e, opened.source, scan));
  }
  return {
    name: opened.name,
    root,
    package: parsed.package,
    // No syntax statement means proto2, as in protoc (which also warns).
    proto3: scan.syntax?.value === 'proto3',
    imports: scan.imports,
    scan,
    // protobufjs's stripped copies of well-known files are not the text protoc reads: positions in them would mislead.
    source: opened.origin === 'disk' ? opened.source : undefined,
    fallbackFileOptions,
    lenientOptionValues: opened.origin === 'well-known',
  };
}

function hasProto3Optional(messages: { field: { proto3_optional?: boolean }[]; nested_type: unknown[] }[]): boolean {
  return messages.some((m) => m.field.some((f) => f.proto3_optional === true) || hasProto3Optional(m.nested_type as typeof messages));
}
