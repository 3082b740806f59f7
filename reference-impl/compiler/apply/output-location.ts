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
// The byte work (search, indentation, splicing) is in insertion-splice.ts. Built-in faults
// and variations (faults.ts) of committing a stream are switched here. Spec 3 leaves open
// what two Files of one name mean (the variation compiler.duplicate-last-wins lets the
// second replace the first) and what a compiler does when an insertion's file does not
// exist, beyond never creating it (compiler.insertion-missing-skipped warns, skips the
// insertion and lets the run succeed).
import { NO_FAULTS } from '../../fault-list.js';
import type { CompilerSwitches } from '../faults.js';
import { updateInsertionMetadata } from './insertion-metadata.js';
import { createInsertionSplicer } from './insertion-splice.js';
import type { Annotation } from '../response/generated-code-info.js';

export interface OutputStream {
  append(chunk: Uint8Array): void;
  /** Commits the content; deferred errors are reported here. */
  close(): void;
}

export interface OutputLocation {
  /** The location string with a trailing '/', as protoc keys its output contexts. */
  readonly key: string;
  readonly files: ReadonlyMap<string, Uint8Array>;
  /**
   * Names in `files` that hold protoc's empty stand-in for an insertion's missing file, not
   * output: only a failed run has them, and even a failed run that keeps its partial output
   * (the variation compiler.partial-output-kept) must not create them.
   */
  readonly standIns: ReadonlySet<string>;
  readonly hadError: boolean;
  open(name: string): OutputStream;
  openForInsert(name: string, insertionPoint: Uint8Array, annotations: Annotation[] | undefined): OutputStream;
}

const EMPTY = new Uint8Array(0);
const META_SUFFIX = '.pb.meta';

/** How a stream hands its content over when it closes. */
interface StreamCommit {
  commitFile(name: string, data: Uint8Array): void;
  commitInsertion(name: string, point: Uint8Array, data: Uint8Array, annotations: Annotation[]): void;
}

/**
 * One open file or insertion. A class rather than closures made per stream: tsx compiles
 * with esbuild's keepNames, which wraps every named closure in an Object.defineProperty
 * call, measurable on responses of thousands of Files.
 */
class BufferedStream implements OutputStream {
  /** Nearly every File is one chunk, so an array is made only for a second one. */
  private first: Uint8Array | undefined;
  private chunks: Uint8Array[] | undefined;
  constructor(
    private readonly commit: StreamCommit,
    private readonly name: string,
    /** undefined for a plain file. */
    private readonly point: Uint8Array | undefined,
    private readonly annotations: Annotation[],
  ) {}

  append(chunk: Uint8Array): void {
    if (this.first === undefined) this.first = chunk;
    else (this.chunks ??= [this.first]).push(chunk);
  }

  close(): void {
    const data = this.chunks ? Buffer.concat(this.chunks) : (this.first ?? EMPTY);
    if (this.point === undefined) this.commit.commitFile(this.name, data);
    else this.commit.commitInsertion(this.name, this.point, data, this.annotations);
  }
}

export function createOutputLocation(
  key: string,
  report: (text: string | Uint8Array) => void,
  switches: CompilerSwitches = NO_FAULTS,
): OutputLocation {
  const files = new Map<string, Uint8Array>();
  const standIns = new Set<string>();
  const splicer = createInsertionSplicer(switches);
  let hadError = false;
  const fail = (text: string | Uint8Array) => {
    report(text);
    hadError = true;
  };
  // Whether any name in `files` may end in .pb.meta. Until one does, an insertion without
  // annotations skips the metadata step, which would only build "<name>.pb.meta" and find
  // nothing: on a response of 10,000 insertions that lookup alone was measurable.
  let mayHoldMeta = false;
  const noteName = (name: string) => {
    if (name.endsWith(META_SUFFIX)) mayHoldMeta = true;
  };

  function commitFile(name: string, data: Uint8Array): void {
    if (files.has(name) && !switches.has('compiler.duplicate-last-wins')) return fail(`${name}: Tried to write the same file twice.\n`);
    noteName(name);
    files.set(name, data);
  }

  function commitInsertion(name: string, point: Uint8Array, data: Uint8Array, annotations: Annotation[]): void {
    noteName(name);
    const stored = files.get(name);
    if (stored === undefined && switches.has('compiler.insertion-creates-file')) {
      files.set(name, data);
      return;
    }
    if (stored === undefined && switches.has('compiler.insertion-missing-skipped')) {
      report(`${name}: warning: Tried to insert into file that doesn't exist; the insertion is skipped.\n`);
      return;
    }
    if (stored === undefined) {
      files.set(name, EMPTY);
      standIns.add(name);
      return fail(`${name}: Tried to insert into file that doesn't exist.\n`);
    }
    const inserted = splicer.insert(name, stored, point, data);
    if (!inserted) return fail(Buffer.concat([Buffer.from(`${name}: insertion point "`), point, Buffer.from('" not found.\n')]));
    files.set(name, inserted.bytes);
    if (!mayHoldMeta && annotations.length === 0) return;
    mayHoldMeta = true; // annotations create <name>.pb.meta
    updateInsertionMetadata(
      files,
      { filename: name, content: data, offset: inserted.offset, length: inserted.length, indent: inserted.indent, annotations },
      report,
    );
  }

  const commit: StreamCommit = { commitFile, commitInsertion };
  return {
    key,
    files,
    standIns,
    get hadError() {
      return hadError;
    },
    open: (name) => new BufferedStream(commit, name, undefined, []),
    openForInsert: (name, point, annotations) => new BufferedStream(commit, name, point, annotations ?? []),
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

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Byte order of UTF-8 names, the order in which protoc's std::map hands files out. UTF-8
 * byte order is code point order, and so is JavaScript's default sort (UTF-16 code units)
 * as long as no name holds a character beyond U+FFFF, whose surrogates sort below
 * U+E000-U+FFFF: such names are compared as bytes, each encoded once. (Encoding both
 * names in every comparison took 7 ms for 1,000 names, the sort itself under 1 ms.)
 */
export function sortedNames(names: Iterable<string>): string[] {
  const list = [...names];
  if (!list.some((name) => SURROGATE.test(name))) return list.sort();
  const keyed = list.map((name) => ({ name, bytes: Buffer.from(name, 'utf8') }));
  return keyed.sort((a, b) => Buffer.compare(a.bytes, b.bytes)).map((entry) => entry.name);
}
