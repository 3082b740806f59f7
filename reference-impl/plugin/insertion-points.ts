// The @@protoc_insertion_point annotations the outputs carry, so a later generator in the same
// compiler run can add to them (spec 3, "Insertion points"). Names, the same in both outputs:
//   imports                      after the file's imports
//   message_scope:<full name>    last line inside each message's section / interface body
//   eof                          last line of the file
// The annotation is written with "protoc" as the compiler name because that is what protoc and
// buf look for.

export const INSERTION_POINT_IMPORTS = 'imports';
export const INSERTION_POINT_EOF = 'eof';

export function messageScopePoint(fullName: string): string {
  return `message_scope:${fullName}`;
}

export function insertionAnnotation(name: string): string {
  return `@@protoc_insertion_point(${name})`;
}

/**
 * Schema text copied into an output (comments, default values) must not contain a working
 * annotation: a compiler inserts at the *first* occurrence, so a comment quoting one would
 * capture insertions meant for the plugin's own points. `replacement` spells "@@" in a way the
 * output format shows the same (or visibly close) but a compiler does not match.
 */
export function defuseAnnotations(text: string, replacement: string): string {
  return text.split('@@protoc_insertion_point').join(`${replacement}protoc_insertion_point`);
}
