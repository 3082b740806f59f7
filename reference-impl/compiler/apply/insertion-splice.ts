// The byte work of one insertion, with protoc 3.21's rules (output-location.ts describes
// them and reports the errors): find the first marker in the target, step back to the `/*`
// of an inline marker or to the start of its line, and put the content in there with the
// spaces and tabs found at that position copied before each of its lines.
//
// Why targets live in buffers with spare room: protoc rebuilds the whole target string per
// insertion, and so did this code (Buffer.concat of three parts after building the
// indented content). Generators that insert a lot (`npm run bench:plugin`: 1,000 files and
// 10,000 insertions in one response) then allocate a new buffer per insertion, and the
// allocations and the garbage collector cost more than the copying. Here a target is
// copied into a buffer of its own with room to grow (geometrically, as std::string does)
// at its first insertion; every insertion then moves the tail in place (one memmove) and
// writes the content into the gap. The copies and the newline searches go through
// TypedArray builtins and Buffer methods called on plain Uint8Arrays (a Buffer per file
// goes through Node's JavaScript FastBuffer constructor). Indented content is built as one
// Latin-1 string with replaceAll and written with one call, where copying it line by line
// took a subarray and two copies per line. Line copies and a Buffer per file made applying
// that response (60,000 inserted lines) about 10 % slower, median of 15 runs. (Measured
// and rejected: a JavaScript loop over the content's bytes instead of indexOf, slower
// because the compiler runs once per process and the loop spends most of its life
// unoptimised; carving the buffers from shared 1 MiB slabs instead of one allocation per
// file, no faster, twice; less room per file, no faster.)
//
// The output map keeps getting a fresh view of exactly the file's bytes, so readers never
// see the spare room. A buffer is written again only when the file's entry IS the view
// this splicer handed out last for that name: an entry replaced by anyone else (e.g. a
// .pb.meta rewritten by insertion-metadata.ts) starts a new buffer, so a view someone
// else may hold is never written through. Views go only into output-location's map.

import { NO_FAULTS } from '../../fault-list.js';
import type { CompilerSwitches } from '../faults.js';

const NEWLINE = 0x0a;
const MARKER_START = Buffer.from('@@protoc_insertion_point(');
const MARKER_END = 0x29; // ')'

export interface Inserted {
  /** The target's new bytes. */
  bytes: Uint8Array;
  /** Where the content went in. */
  offset: number;
  /** Bytes inserted: the content plus one indent per line. */
  length: number;
  /** Length of the indentation copied before each line. */
  indent: number;
}

export interface InsertionSplicer {
  /**
   * `target` (the current bytes of file `name`) with `content` inserted at insertion point
   * `point`, plus a final newline when content is not empty and lacks one (protoc adds it);
   * undefined when the marker is not there.
   */
  insert(name: string, target: Uint8Array, point: Uint8Array, content: Uint8Array): Inserted | undefined;
}

/** Buffer methods called on plain Uint8Arrays: each takes any byte view as `this`. */
const bytesIndexOf = Buffer.prototype.indexOf as (this: Uint8Array, value: Uint8Array) => number;
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice(this: Uint8Array, start: number, end: number): string }).latin1Slice;
const latin1Write = (Buffer.prototype as unknown as { latin1Write(this: Uint8Array, text: string, offset: number, length: number): number })
  .latin1Write;

/** A file's bytes with room to grow. */
class GrowingFile {
  readonly bytes: Uint8Array;
  /** The view of the file's bytes handed out last. */
  view: Uint8Array;

  /**
   * A zero-filled buffer (so its room past the end can never hold a marker) holding
   * `content`, with half as much again as `needed` (at least 4 KiB) in all: a file that
   * keeps receiving insertions is reallocated a logarithmic number of times, and one
   * receiving a single insertion wastes at most that much.
   */
  constructor(content: Uint8Array, needed: number) {
    this.bytes = new Uint8Array(needed + Math.max(needed >> 1, 4096));
    this.bytes.set(content, 0);
    this.view = this.bytes.subarray(0, content.length);
  }
}

/** Two built-in faults (faults.ts) change where content goes and how it is indented. */
export function createInsertionSplicer(switches: CompilerSwitches = NO_FAULTS): InsertionSplicer {
  const belowLine = switches.has('compiler.insertion-below-line');
  const unindented = switches.has('compiler.insertion-unindented');
  const growing = new Map<string, GrowingFile>();
  // The marker is assembled in one reused array: a Buffer per insertion (Node builds each
  // through its JavaScript FastBuffer constructor) showed in profiles.
  let markerScratch = new Uint8Array(256);
  markerScratch.set(MARKER_START, 0);
  const markerFor = (point: Uint8Array): Uint8Array => {
    const length = MARKER_START.length + point.length + 1;
    if (length > markerScratch.length) {
      markerScratch = new Uint8Array(2 * length);
      markerScratch.set(MARKER_START, 0);
    }
    markerScratch.set(point, MARKER_START.length);
    markerScratch[length - 1] = MARKER_END;
    return markerScratch.subarray(0, length);
  };

  return {
    insert(name, target, point, content) {
      const length = target.length;
      let file = growing.get(name);
      // A file's first insertion (or its first after someone else replaced its entry)
      // copies it into a buffer of its own; later ones work in place.
      if (file === undefined || file.view !== target) {
        file = new GrowingFile(target, length);
        growing.set(name, file);
      }
      // The whole buffer is searched. Its room past the file's end is zeros, which cannot
      // end a marker, so no match reaches past the end; the bound is checked anyway. (Were
      // it reached, there would be no match inside the file: any would start before it.)
      const marker = markerFor(point);
      const found = bytesIndexOf.call(file.bytes, marker);
      if (found < 0 || found + marker.length > length) return undefined;
      const { bytes } = file;
      let offset: number;
      if (found > 3 && bytes[found - 3] === 0x2f && bytes[found - 2] === 0x2a)
        offset = found - 3; // "/*"
      else if (belowLine)
        offset = bytes.indexOf(NEWLINE, found) + 1 || length; // start of the next line
      else offset = bytes.lastIndexOf(NEWLINE, found) + 1; // start of the line; 0 on the first line
      let indent = 0;
      while (!unindented && offset + indent < length && (bytes[offset + indent] === 0x20 || bytes[offset + indent] === 0x09)) indent++;

      // protoc ends the content with a newline when it lacks one: written here, after the
      // copy, rather than by concatenating a copy of the content first.
      const addNewline = content.length > 0 && content[content.length - 1] !== NEWLINE;
      // Indented content is built as a Latin-1 string (one character per byte, so any
      // bytes survive the round trip) with one replaceAll, and written with one call.
      let indented: string | undefined;
      let inserted = content.length + (addNewline ? 1 : 0);
      if (indent > 0 && content.length > 0) {
        const indentation = latin1Slice.call(bytes, offset, offset + indent);
        indented = indentation + latin1Slice.call(content, 0, content.length).replaceAll('\n', `\n${indentation}`);
        // Content ending in a newline leaves one indentation after it, not inserted.
        inserted = addNewline ? indented.length + 1 : indented.length - indent;
      }
      const newLength = length + inserted;
      if (newLength > file.bytes.length) {
        file = new GrowingFile(file.view, newLength);
        growing.set(name, file);
      }
      const plain = file.bytes;
      // Move the tail, indentation included, out of the way, and fill the gap.
      plain.copyWithin(offset + inserted, offset, length);
      if (indented === undefined) plain.set(content, offset);
      else latin1Write.call(plain, indented, offset, inserted - (addNewline ? 1 : 0));
      if (addNewline) plain[offset + inserted - 1] = NEWLINE;
      file.view = plain.subarray(0, newLength);
      return { bytes: file.view, offset, length: inserted, indent };
    },
  };
}
