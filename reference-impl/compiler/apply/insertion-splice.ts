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
// TypedArray builtins (set, copyWithin, indexOf, subarray on plain Uint8Arrays) rather
// than Buffer#copy, whose JavaScript argument handling cost more than the memcpy for
// lines of ~30 bytes. (Measured and rejected: a JavaScript loop over the content's bytes
// instead of indexOf, slower because the compiler runs once per process and the loop
// spends most of its life unoptimised; carving the buffers from shared 1 MiB slabs
// instead of one allocation per file, no faster.)
//
// The output map keeps getting a fresh view of exactly the file's bytes, so readers never
// see the spare room. A buffer is written again only when the file's entry IS the view
// this splicer handed out last for that name: an entry replaced by anyone else (e.g. a
// .pb.meta rewritten by insertion-metadata.ts) starts a new buffer, so a view someone
// else may hold is never written through. Views go only into output-location's map.

import { NO_FAULTS } from '../../fault-list.js';
import type { CompilerFaults } from '../faults.js';

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

/** A file's buffer with room to grow; `plain` and `search` cover the same memory, all of it. */
class GrowingFile {
  readonly plain: Uint8Array;
  readonly search: Buffer;
  /** The view of the file's bytes handed out last. */
  view: Uint8Array;

  /**
   * A zero-filled buffer (so its room past the end can never hold a marker) holding
   * `bytes`, with half as much again as `needed` (at least 4 KiB) in all: a file that keeps
   * receiving insertions is reallocated a logarithmic number of times, and one receiving
   * a single insertion wastes at most that much.
   */
  constructor(bytes: Uint8Array, needed: number) {
    this.search = Buffer.alloc(needed + Math.max(needed >> 1, 4096));
    this.plain = new Uint8Array(this.search.buffer, this.search.byteOffset, this.search.length);
    this.plain.set(bytes, 0);
    this.view = this.plain.subarray(0, bytes.length);
  }
}

/** A plain Uint8Array over the bytes, unless they are one already. */
function asPlain(bytes: Uint8Array): Uint8Array {
  return Buffer.isBuffer(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) : bytes;
}

/** Two built-in faults (faults.ts) change where content goes and how it is indented. */
export function createInsertionSplicer(faults: CompilerFaults = NO_FAULTS): InsertionSplicer {
  const belowLine = faults.has('compiler.insertion-below-line');
  const unindented = faults.has('compiler.insertion-unindented');
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
    insert(name, target, point, data) {
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
      const found = file.search.indexOf(marker);
      if (found < 0 || found + marker.length > length) return undefined;
      let offset: number;
      if (found > 3 && file.plain[found - 3] === 0x2f && file.plain[found - 2] === 0x2a)
        offset = found - 3; // "/*"
      else if (belowLine)
        offset = file.search.indexOf(NEWLINE, found) + 1 || length; // start of the next line
      else offset = file.search.lastIndexOf(NEWLINE, found) + 1; // start of the line; 0 on the first line
      let indent = 0;
      while (!unindented && offset + indent < length && (file.plain[offset + indent] === 0x20 || file.plain[offset + indent] === 0x09))
        indent++;

      const content = asPlain(data);
      // protoc ends the content with a newline when it lacks one: written here, after the
      // copy, rather than by concatenating a copy of the content first.
      const addNewline = content.length > 0 && content[content.length - 1] !== NEWLINE;
      let inserted = content.length + (addNewline ? 1 + indent : 0);
      if (indent > 0) for (let at = content.indexOf(NEWLINE); at >= 0; at = content.indexOf(NEWLINE, at + 1)) inserted += indent;
      const newLength = length + inserted;
      if (newLength > file.plain.length) {
        file = new GrowingFile(file.view, newLength);
        growing.set(name, file);
      }
      const { plain } = file;
      // Move the tail, indentation included, out of the way.
      plain.copyWithin(offset + inserted, offset, length);
      if (indent === 0) plain.set(content, offset);
      else {
        // The indentation is read where the tail now starts.
        const indentation = plain.subarray(offset + inserted, offset + inserted + indent);
        let at = offset;
        for (let start = 0; start < content.length; ) {
          // A line ends after its newline, the last one possibly at the end of content.
          const end = content.indexOf(NEWLINE, start) + 1 || content.length;
          plain.set(indentation, at);
          plain.set(content.subarray(start, end), at + indent);
          at += indent + end - start;
          start = end;
        }
      }
      if (addNewline) plain[offset + inserted - 1] = NEWLINE;
      file.view = plain.subarray(0, newLength);
      return { bytes: file.view, offset, length: inserted, indent };
    },
  };
}
