// Comments from source_code_info, so both outputs carry the schema author's documentation:
// the comment above an element, or failing that the one after it on its line (`int32 x = 1; // why`). A location is addressed by a path of field numbers and indexes into the
// descriptor, e.g. [4, 0, 2, 1] = message_type[0].field[1]; the constants below are those
// field numbers from descriptor.proto.
import type { FileDescriptor } from './descriptor-types.js';

export const PATH = {
  fileMessage: 4,
  fileEnum: 5,
  fileService: 6,
  fileExtension: 7,
  messageField: 2,
  messageNested: 3,
  messageEnum: 4,
  messageExtension: 6,
  enumValue: 2,
  serviceMethod: 2,
} as const;

export interface SourceComments {
  /** The element's comment without comment markers; undefined when there is none. */
  comment(path: readonly number[]): string | undefined;
}

export function createSourceComments(file: FileDescriptor): SourceComments {
  const byPath = new Map<string, string>();
  for (const location of file.source_code_info?.location ?? []) {
    const text = tidy(location.leading_comments ?? '') || tidy(location.trailing_comments ?? '');
    const key = (location.path ?? []).join(',');
    // The first location for a path is the element's own; later ones (a few elements get
    // several) never carry a different comment.
    if (text !== '' && !byPath.has(key)) byPath.set(key, text);
  }
  return { comment: (path) => byPath.get(path.join(',')) };
}

// protoc keeps everything after `//` (so usually a leading space on each line) and the final
// newline; `/* */` comments keep their inner layout. Drop one leading space per line and the
// blank edges.
function tidy(comment: string): string {
  return comment
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => (line.startsWith(' ') ? line.slice(1) : line).trimEnd())
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}
