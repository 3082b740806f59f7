// Options of extension ranges (`extensions 10 to 19, 30 [(note) = "x"];`), which protobufjs
// does not keep: taken from the source walk, where protoc's parser gave every range of the
// statement the same options (and its locations, path …, 5, range, 3, 999, index).
import type { FileObject, MessageObject, RangeObject } from './descriptor-object.js';
import type { PendingOptions } from './descriptor-draft.js';
import type { OptionUse } from './source-info-walk.js';

/** One pending entry per extension range with options, its statements in source order. */
export function extensionRangeOptions(file: FileObject, written: OptionUse[]): PendingOptions[] {
  const byRange = new Map<RangeObject, { relativeTo: string; statements: OptionUse[] }>();
  for (const use of written) {
    if (use.target.type !== 'ExtensionRangeOptions') continue;
    // The path ends with extension_range 5, the range, options 3, uninterpreted_option 999, the index.
    const path = use.location.path;
    const message = messageAt(file, path.slice(0, -5));
    const range = message?.extension_range[path[path.length - 4]];
    if (!range) continue;
    const entry = byRange.get(range) ?? { relativeTo: use.target.scope, statements: [] };
    entry.statements.push(use);
    byRange.set(range, entry);
  }
  return [...byRange].map(([owner, { relativeTo, statements }]) => ({
    owner,
    optionsType: 'ExtensionRangeOptions',
    relativeTo,
    custom: [],
    statements,
  }));
}

/** The message at a location path: message_type 4 in the file, nested_type 3 below. */
function messageAt(file: FileObject, path: number[]): MessageObject | undefined {
  let message: MessageObject | undefined;
  for (let i = 0; i + 1 < path.length; i += 2) {
    const list = i === 0 ? (path[0] === 4 ? file.message_type : undefined) : path[i] === 3 ? message?.nested_type : undefined;
    message = list?.[path[i + 1]];
    if (!message) return undefined;
  }
  return message;
}
