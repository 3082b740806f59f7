// FileDescriptorProto.source_code_info as protoc 3.21 produces it: its parser's locations
// (source-info-declarations.ts) from the file's text, with the options' paths then rewritten
// the way its OptionInterpreter rewrites them (source-info-options.ts). protoc sends this
// for every file of a CodeGeneratorRequest, and writes it with --include_source_info.
//
// Not mirrored, each too exotic to be worth it:
// - Files that are not valid UTF-8: columns and comments are taken from the text as decoded,
//   where protoc counts and copies the raw bytes.
// - A file protoc's parser would read differently from ours (which only sees files that
//   protobufjs and our checks accepted, so protoc accepts them too, bar the few checks
//   proto-parser.ts lists as not made) gets no source_code_info rather than a wrong one;
//   if it has custom options it fails to build, since their values come from this reading.
import type { FileObject } from './descriptor-object.js';
import { SourceInfoMismatch } from './source-info-cursor.js';
import { walkFile, type WalkedFile } from './source-info-declarations.js';
import { interpretOptionLocations, type OptionScope } from './source-info-options.js';
import { tokenizeForSourceInfo } from './source-info-tokens.js';

export type { WalkedFile } from './source-info-declarations.js';

/** The file read as protoc's parser reads it (its locations and option statements); undefined when it cannot be. */
export function walkSource(source: string, pkg: string): WalkedFile | undefined {
  try {
    return walkFile(tokenizeForSourceInfo(source), pkg);
  } catch (e) {
    if (e instanceof SourceInfoMismatch) return undefined;
    throw e;
  }
}

/** The file's source code info, for `file` resolved and its options checked (so every option name resolves). */
export function sourceCodeInfo(walked: WalkedFile, file: FileObject, scope: Omit<OptionScope, 'fileName'>): FileObject['source_code_info'] {
  return { location: interpretOptionLocations(walked.locations, walked.options, { ...scope, fileName: file.name }) };
}
