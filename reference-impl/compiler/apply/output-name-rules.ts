// Where touchstone protoc is deliberately stricter than protoc 3.21, which checks no output
// name at all (observed with 3.21.12: "/abs" lands inside the output directory, "../x"
// escapes it, "a\b" creates a/ and a file with a backslash in its name). Spec 3 says of
// File.name: "path relative to the output directory; no `.` or `..` components; not
// absolute; `/` is the separator", and of insertion_point: "requires name". Those rules
// bind the plugin; what a compiler does with a name that breaks them is not said, and this
// is the reference's choice (compiler.apply.unsafe-names-refused, MAY; the variations
// compiler.names-written-as-given and compiler.unsafe-names-skipped take others): a
// reference must not write what the spec forbids, so each of these fails the plugin's
// run (fatal, like protoc's own "First file chunk..." error: nothing is written anywhere):
// - an absolute name (leading '/');
// - a "." or ".." component (component = text between '/'; "foo..bar" is fine, unlike
//   newer protoc's substring check, because the spec speaks of components);
// - a backslash anywhere: '/' is the only separator, and protoc itself treats '\' as one
//   when it creates directories, so such a name would mean different things on different
//   systems;
// - an insertion_point without a name.
// Two more refusals keep the name usable as a path at all: a NUL character (the C string
// protoc passes to open() would silently stop there) and invalid UTF-8 (a proto2 string
// is text; protoc would log an error and write the raw bytes).
// Left as protoc has them, because the spec does not forbid them: empty components
// ("a//b" is written as a/b), and a trailing '/' (fails when written, "Is a directory").
import { cEscape } from '../common/c-escape.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

export type NameCheck = { ok: true; name: string } | { ok: false; problem: string };

function quoted(bytes: Uint8Array): string {
  return `"${cEscape(bytes)}"`;
}

/** Anything the checks below could refuse: NUL, backslash, a leading '/', a "." or ".." component. */
const MAY_BE_REFUSED = /[\0\\]|^\/|(?:^|\/)\.\.?(?:\/|$)/;

// Module-level rather than a closure per call, and the quoted name is built only for a
// refusal: this runs for every File of a response, and on one of 11,000 Files escaping
// each name up front (plus esbuild's keepNames wrapper on the closure) cost about a fifth
// of applying the response.
function refuse(why: string): NameCheck {
  return { ok: false, problem: `${why} (touchstone refuses what the plugin protocol forbids; protoc 3.21 would not)` };
}

/**
 * The File's name as text, or why touchstone refuses the File. `name` and `insertionPoint`
 * are the raw field bytes; only Files that open a stream (either one non-empty) come here.
 */
export function checkOutputName(name: Uint8Array, insertionPoint: Uint8Array): NameCheck {
  if (name.length === 0)
    return refuse(
      `File with insertion_point ${quoted(insertionPoint)} has no name: an insertion needs the name of the file to insert into`,
    );
  let text: string;
  try {
    text = UTF8.decode(name);
  } catch {
    return refuse(`File name ${quoted(name)} is not valid UTF-8`);
  }
  // One regular expression for the common case, a name with none of the problems below
  // (checked once per File of a response, so it matters on responses of thousands).
  if (!MAY_BE_REFUSED.test(text)) return { ok: true, name: text };
  if (text.includes('\0')) return refuse(`File name ${quoted(name)} contains a NUL character`);
  if (text.startsWith('/')) return refuse(`File name ${quoted(name)} is absolute: names are relative to the output directory`);
  if (text.includes('\\')) return refuse(`File name ${quoted(name)} contains a backslash: "/" is the only separator`);
  const components = text.split('/');
  if (components.includes('..')) return refuse(`File name ${quoted(name)} has a ".." component`);
  if (components.includes('.')) return refuse(`File name ${quoted(name)} has a "." component`);
  return { ok: true, name: text };
}
