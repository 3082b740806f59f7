// One output location (`--X_out=...:DIR`) staged in memory, with protoc 3.21's semantics
// (GeneratorContextImpl and MemoryOutputStream in command_line_interface.cc). Every plugin
// that writes to the same location string shares one of these, which is how a later plugin
// inserts into an earlier one's file. A stream commits when it is closed:
// - a plain file: a name already present is "Tried to write the same file twice." and the
//   first content stays;
// - an insertion: a newline is added to content that lacks one; the target must exist,
//   else "Tried to insert into file that doesn't exist." and an EMPTY entry is created for
//   it (so a later insertion reports "not found" and a later write "twice");
//   the FIRST `@@protoc_insertion_point(NAME)` in the target's current content is the
//   point; content goes in at the start of that line (so insertions keep their order), or
//   at the `/*` of an inline `/* @@protoc_insertion_point(NAME) */` (exactly one character
//   between `/*` and `@@`); the spaces and tabs starting at that position are copied
//   before every inserted line, empty lines included.
// These errors are deferred: printed at once, they mark the location, generation goes on,
// and the run fails before anything is written. The marker keeps the compiler name
// "protoc": plugins in the wild emit protoc's marker, and touchstone must accept them.
import { updateInsertionMetadata } from './insertion-metadata.js';
import type { Annotation } from './generated-code-info.js';

export interface OutputStream {
  append(chunk: Uint8Array): void;
  /** Commits the content; deferred errors are reported here. */
  close(): void;
}

export interface OutputLocation {
  /** The location string with a trailing '/', as protoc keys its output contexts. */
  readonly key: string;
  readonly files: ReadonlyMap<string, Uint8Array>;
  readonly hadError: boolean;
  open(name: string): OutputStream;
  openForInsert(name: string, insertionPoint: Uint8Array, annotations: Annotation[] | undefined): OutputStream;
}

const NEWLINE = 0x0a;
const EMPTY = new Uint8Array(0);

/** The line prefix protoc copies: the run of spaces and tabs at `pos`. */
function indentAt(target: Uint8Array, pos: number): Uint8Array {
  let end = pos;
  while (end < target.length && (target[end] === 0x20 || target[end] === 0x09)) end++;
  return target.subarray(pos, end);
}

function withIndent(content: Uint8Array, indent: Uint8Array): Uint8Array {
  if (indent.length === 0) return content;
  const parts: Uint8Array[] = [];
  for (let start = 0; start < content.length; ) {
    // content ends with a newline, so every line has one.
    const end = content.indexOf(NEWLINE, start) + 1;
    parts.push(indent, content.subarray(start, end));
    start = end;
  }
  return Buffer.concat(parts);
}

export function createOutputLocation(key: string, report: (text: string | Uint8Array) => void): OutputLocation {
  const files = new Map<string, Uint8Array>();
  let hadError = false;
  const fail = (text: string | Uint8Array) => {
    report(text);
    hadError = true;
  };

  function commitFile(name: string, data: Uint8Array): void {
    if (files.has(name)) return fail(`${name}: Tried to write the same file twice.\n`);
    files.set(name, data);
  }

  function commitInsertion(name: string, point: Uint8Array, data: Uint8Array, annotations: Annotation[]): void {
    if (data.length > 0 && data[data.length - 1] !== NEWLINE) data = Buffer.concat([data, Buffer.of(NEWLINE)]);
    const target = files.get(name);
    if (target === undefined) {
      files.set(name, EMPTY);
      return fail(`${name}: Tried to insert into file that doesn't exist.\n`);
    }
    const marker = Buffer.concat([Buffer.from('@@protoc_insertion_point('), point, Buffer.from(')')]);
    const found = Buffer.from(target.buffer, target.byteOffset, target.length).indexOf(marker);
    if (found < 0) return fail(Buffer.concat([Buffer.from(`${name}: insertion point "`), point, Buffer.from('" not found.\n')]));
    let pos: number;
    if (found > 3 && target[found - 3] === 0x2f && target[found - 2] === 0x2a) pos = found - 3; // "/*"
    else pos = target.lastIndexOf(NEWLINE, found) + 1; // start of the line; 0 on the first line
    const indent = indentAt(target, pos);
    const inserted = withIndent(data, indent);
    files.set(name, Buffer.concat([target.subarray(0, pos), inserted, target.subarray(pos)]));
    updateInsertionMetadata(files, { filename: name, content: data, offset: pos, length: inserted.length, indent: indent.length, annotations }, report);
  }

  function stream(commit: (data: Uint8Array) => void): OutputStream {
    const chunks: Uint8Array[] = [];
    return {
      append: (chunk) => void chunks.push(chunk),
      close: () => commit(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)),
    };
  }

  return {
    key,
    files,
    get hadError() {
      return hadError;
    },
    open: (name) => stream((data) => commitFile(name, data)),
    openForInsert: (name, point, annotations) => stream((data) => commitInsertion(name, point, data, annotations ?? [])),
  };
}

/** Locations protoc writes as an archive instead of a directory. */
export function isArchiveLocation(location: string): boolean {
  return /\.(zip|jar|srcjar)$/.test(location);
}

/** protoc's AddTrailingSlash (archives excepted): the key two directives must share to see each other's files. */
export function locationKey(location: string): string {
  return location === '' || location.endsWith('/') || isArchiveLocation(location) ? location : `${location}/`;
}

/** Byte order of UTF-8 names, the order in which protoc's std::map hands files out. */
export function sortedNames(names: Iterable<string>): string[] {
  return [...names].sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
}
