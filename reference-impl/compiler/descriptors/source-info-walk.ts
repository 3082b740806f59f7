// What the two halves of the source-info parser share (source-info-declarations.ts for files,
// messages, enums and services; source-info-fields.ts for fields and what hangs off them):
// the cursor, the options met so far, and the running counts that become the indexes of
// locations' paths. protoc's index for an element is how many of its kind the descriptor
// held when the element was reached, and map entries and groups are nested types there
// too, so the counts follow protoc's additions rather than the source's kinds of statement.
import type { SourcePosition } from './descriptor-errors.js';
import type { Recorder, SourceInfoCursor } from './source-info-cursor.js';
import type { InfoToken } from './source-info-tokens.js';

/** A running count of one repeated field of a descriptor (nested_type, field …). */
export interface Count {
  n: number;
}

export const take = (count: Count): number => count.n++;

/** An options message being filled: its uninterpreted_option entries are indexed by `count`. */
export interface OptionsTarget {
  /** The options message of descriptor.proto: "FieldOptions" … */
  type: string;
  /** Where protoc resolves the options' extension names from (the element's full name; "pkg.dummy" for the file). */
  scope: string;
  count: Count;
}

export interface OptionNamePart {
  name: string;
  extension: boolean;
}

/** An option's value as written: what protoc's parser keeps in an UninterpretedOption. */
export interface OptionLiteral {
  kind: 'identifier' | 'integer' | 'float' | 'string' | 'aggregate';
  /** Written after a '-'. */
  negative: boolean;
  /** The (first) token's text. */
  text: string;
  /** A string and the ones adjacent to it, which protoc joins. */
  strings?: InfoToken[];
  /** The tokens between an aggregate's braces. */
  tokens?: InfoToken[];
}

/** One `name = value` of an options message, as protoc's parser recorded it (path …, 999, index). */
export interface OptionUse {
  location: { path: number[] };
  target: OptionsTarget;
  name: OptionNamePart[];
  value: OptionLiteral;
  /** 1-based, for errors: where the name and the value start. */
  nameAt: SourcePosition;
  valueAt: SourcePosition;
}

export interface MessageScope {
  fullName: string;
  field: Count;
  nested: Count;
  enumType: Count;
  extensionRange: Count;
  extension: Count;
  oneof: Count;
  reservedRange: Count;
  reservedName: Count;
  options: OptionsTarget;
}

export interface Walk {
  c: SourceInfoCursor;
  /** Every option met, in the order protoc's parser met them. */
  options: OptionUse[];
  /** A message's `{ … }`; fields need it for groups. */
  messageBlock(message: MessageScope, recorder: Recorder): void;
}

export const count = (): Count => ({ n: 0 });

export function messageScope(fullName: string): MessageScope {
  return {
    fullName,
    field: count(),
    nested: count(),
    enumType: count(),
    extensionRange: count(),
    extension: count(),
    oneof: count(),
    reservedRange: count(),
    reservedName: count(),
    options: { type: 'MessageOptions', scope: fullName, count: count() },
  };
}

export const join = (scope: string, name: string): string => (scope ? `${scope}.${name}` : name);

/** protoc's table of scalar type names (ParseType); `group` is one of them. */
export const SCALAR_TYPES = new Set([
  'double',
  'float',
  'int64',
  'uint64',
  'int32',
  'fixed64',
  'fixed32',
  'bool',
  'string',
  'group',
  'bytes',
  'uint32',
  'sfixed32',
  'sfixed64',
  'sint32',
  'sint64',
]);

/** ParseUserDefinedType: `.a.b.C`, `a.B`, `C` (a scalar's name is an error there, so it is one token). */
export function userDefinedType(c: SourceInfoCursor): void {
  if (SCALAR_TYPES.has(c.current().text)) {
    c.next();
    return;
  }
  c.tryConsume('.');
  c.consumeType('identifier');
  while (c.tryConsume('.')) c.consumeType('identifier');
}
