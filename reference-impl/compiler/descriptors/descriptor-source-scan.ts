// A structural skim of a .proto file that protobufjs has already accepted (or is about to
// judge): the header (syntax, imports with public/weak and positions), where each
// declaration is (for protoc-style error positions), the order of nested message types
// including map entries (protobufjs keeps fields and nested types in separate lists, protoc
// interleaves map entries with nested messages in declaration order), and default values as
// written. It never throws: on anything unexpected it skips a statement and goes on, since
// protobufjs's parser is the judge of syntax.
import type { SourcePosition } from './descriptor-errors.js';
import { createTokenCursor, type ScannedLiteral } from './descriptor-source-cursor.js';
import { tokenizeProto, type SourceToken } from './descriptor-source-tokens.js';
import { toJsonName } from './json-name-fill.js';

export type { ScannedLiteral } from './descriptor-source-cursor.js';

export interface ScannedField {
  typeAt?: SourcePosition;
  extendeeAt?: SourcePosition;
  /** The field number as written. */
  number?: string;
  numberAt?: SourcePosition;
  defaultValue?: ScannedLiteral;
}

export interface ScannedOption {
  nameAt: SourcePosition;
  valueAt?: SourcePosition;
  /** What the value was written as: protoc checks it (a bool option wants an identifier, a string option a quoted string). */
  valueKind?: 'string' | 'ident' | 'number' | 'aggregate';
}

export interface ScannedEnumValue {
  name: string;
  number: string;
  at: SourcePosition;
  numberAt?: SourcePosition;
}

export interface SourceScan {
  syntax?: { value: string; at: SourcePosition };
  package?: string;
  /** Where an `edition = "…";` statement starts: protoc 3.21 has no editions. */
  editionAt?: SourcePosition;
  imports: { name: string; kind?: 'public' | 'weak'; at: SourcePosition }[];
  /** Scope ('' for the file, "Outer.Inner" below it, without the package) → nested message names in declaration order. */
  nestedTypes: Map<string, string[]>;
  /** "Scope.name" of messages, enums, services, fields, extensions, oneofs, methods → where the name is; enum values as "Enum.VALUE". */
  names: Map<string, SourcePosition>;
  /** Enum path → its values in order, numbers as written. */
  enumValues: Map<string, ScannedEnumValue[]>;
  /** Fields, map fields, groups (lower-cased) and extensions by "Scope.name". */
  fields: Map<string, ScannedField>;
  /** Message path → where each of its extension ranges starts, in order. */
  extensionRanges: Map<string, SourcePosition[]>;
  /** "Message#extensions#i", "Message#reserved#i" (from 0) of ranges `to max`: a message set's end differently. */
  rangesToMax: Set<string>;
  /** "element#name as written" → where an option of that element is; the element is named like in `names`, '' for the file. */
  options: Map<string, ScannedOption>;
  /** `hasBody`: written with `{ … }` rather than `;` (protoc then gives it options, if only empty ones). */
  methods: Map<string, { inputAt?: SourcePosition; outputAt?: SourcePosition; hasBody?: boolean }>;
}

const SKIPPED_STATEMENTS = new Set(['option', 'reserved', 'extensions', 'package', 'edition']);
const LABELS = new Set(['optional', 'required', 'repeated']);

export function scanProtoSource(source: string): SourceScan {
  const scan: SourceScan = {
    imports: [],
    nestedTypes: new Map(),
    names: new Map(),
    enumValues: new Map(),
    fields: new Map(),
    options: new Map(),
    methods: new Map(),
    extensionRanges: new Map(),
    rangesToMax: new Set(),
  };
  const c = createTokenCursor(tokenizeProto(source));
  const rangeCounts = new Map<string, number>();
  const join = (scope: string, name: string): string => (scope ? `${scope}.${name}` : name);
  const addNested = (scope: string, name: string): void => {
    const list = scan.nestedTypes.get(scope) ?? [];
    list.push(name);
    scan.nestedTypes.set(scope, list);
  };

  /** One `name = value` of an option: records it under `element` and skips to `end` (`,` `]` or `;`). */
  const readOption = (element: string, end: Set<string>): ScannedLiteral | undefined => {
    const nameAt = c.peek()?.at;
    let name = '';
    while (!c.done() && c.text() !== '=' && !end.has(c.text()!)) name += c.take()!.text;
    if (!c.accept('=') || !nameAt) return undefined;
    const valueToken = c.text() === '-' ? c.peek(1) : c.peek();
    const valueKind = c.text() === '{' ? 'aggregate' : valueToken?.kind === 'symbol' ? undefined : valueToken?.kind;
    scan.options.set(`${element}#${name}`, { nameAt, valueAt: c.peek()?.at, valueKind });
    const literal = name === 'default' ? c.readLiteral() : undefined;
    c.skipTo(end);
    return literal;
  };
  /** `[a = 1, (b).c = { … }]` after a field or enum value: returns the `default` literal if any. */
  const readFieldOptions = (element: string): ScannedLiteral | undefined => {
    let found: ScannedLiteral | undefined;
    if (!c.accept('[')) return undefined;
    while (!c.done() && !c.accept(']')) {
      found = readOption(element, new Set([',', ']'])) ?? found;
      c.accept(',');
    }
    return found;
  };
  /** `option name = value;` inside `element`. */
  const readOptionStatement = (element: string): void => {
    c.take();
    readOption(element, new Set([';']));
    c.accept(';');
  };
  /** `= N [options]` after the name of the field `name` in `scope`. */
  const recordField = (scope: string, name: SourceToken, field: ScannedField): void => {
    const key = join(scope, name.text);
    c.accept('=');
    const number = c.take();
    scan.names.set(key, name.at);
    scan.fields.set(key, { ...field, number: number?.text, numberAt: number?.at, defaultValue: readFieldOptions(key) });
  };

  const parseField = (scope: string, extendeeAt?: SourcePosition): void => {
    if (LABELS.has(c.text() ?? '')) c.take();
    if (c.accept('group')) {
      const name = c.take();
      if (!name) return;
      addNested(scope, name.text);
      scan.names.set(join(scope, name.text), name.at);
      recordField(scope, { ...name, text: name.text.toLowerCase() }, { extendeeAt });
      c.skipTo(new Set(['{', ';']));
      if (c.accept('{')) parseBody(join(scope, name.text), 'message');
      return;
    }
    if (c.text() === 'map' && c.text(1) === '<') {
      c.take();
      c.take();
      c.readTypeName();
      c.accept(',');
      const value = c.readTypeName();
      c.accept('>');
      const name = c.take();
      if (!name) return;
      addNested(scope, mapEntryName(name.text));
      recordField(scope, name, { typeAt: value.at });
      c.accept(';');
      return;
    }
    const type = c.readTypeName();
    const name = c.take();
    if (!name || c.text() !== '=') return c.skipStatement();
    recordField(scope, name, { typeAt: type.at, extendeeAt });
    if (!c.accept(';')) c.skipStatement();
  };

  const parseEnum = (scope: string): void => {
    const name = c.take();
    if (!name || !c.accept('{')) return c.skipStatement();
    const path = join(scope, name.text);
    scan.names.set(path, name.at);
    const values: ScannedEnumValue[] = [];
    scan.enumValues.set(path, values);
    while (!c.done() && !c.accept('}')) {
      if (c.text() === 'option') readOptionStatement(path);
      else if (c.peek()?.kind === 'ident' && c.text(1) === '=' && !SKIPPED_STATEMENTS.has(c.text()!)) {
        const value = c.take()!;
        scan.names.set(`${path}.${value.text}`, value.at);
        c.take();
        const numberAt = c.peek()?.at;
        const number = (c.accept('-') ? '-' : '') + (c.take()?.text ?? '');
        values.push({ name: value.text, number, at: value.at, numberAt });
        readFieldOptions(`${path}.${value.text}`);
        if (!c.accept(';')) c.skipStatement();
      } else c.skipStatement();
    }
  };

  const parseService = (scope: string): void => {
    const name = c.take();
    if (!name || !c.accept('{')) return c.skipStatement();
    const path = join(scope, name.text);
    scan.names.set(path, name.at);
    const streamAndType = (): { at?: SourcePosition } => {
      c.accept('(');
      if (c.text() === 'stream' && c.peek(1)?.kind === 'ident') c.take();
      const type = c.readTypeName();
      c.accept(')');
      return type;
    };
    while (!c.done() && !c.accept('}')) {
      if (c.text() === 'option') readOptionStatement(path);
      else if (!c.accept('rpc')) {
        if (!c.accept(';')) c.skipStatement();
      } else {
        const method = c.take();
        const input = streamAndType();
        c.accept('returns');
        const output = streamAndType();
        const key = `${path}.${method?.text}`;
        if (method) {
          scan.names.set(key, method.at);
          scan.methods.set(key, { inputAt: input.at, outputAt: output.at });
        }
        if (!c.accept('{')) c.skipStatement();
        else {
          const scanned = scan.methods.get(key);
          if (scanned) scanned.hasBody = true;
          while (!c.done() && !c.accept('}')) {
            if (c.text() === 'option') readOptionStatement(key);
            else c.skipStatement();
          }
          c.accept(';');
        }
      }
    }
  };

  /** `extensions 1 to 5, 10 [opts];` or `reserved 1, 3 to max;`: where each range starts, which end at `max`. */
  const parseRanges = (scope: string, kind: 'extensions' | 'reserved'): void => {
    c.take();
    if (c.peek()?.kind === 'string') return c.skipStatement();
    const starts = scan.extensionRanges.get(scope) ?? [];
    if (kind === 'extensions') scan.extensionRanges.set(scope, starts);
    const key = `${scope}#${kind}`;
    let index = rangeCounts.get(key) ?? 0;
    do {
      if (c.peek() && kind === 'extensions') starts.push(c.peek()!.at);
      while (!c.done() && ![',', ';', '['].includes(c.text()!)) if (c.take()!.text === 'max') scan.rangesToMax.add(`${key}#${index}`);
      index++;
    } while (c.accept(','));
    rangeCounts.set(key, index);
    c.skipStatement();
  };

  /** The header statements only the file has. */
  const parseFileStatement = (t: string): boolean => {
    if (t === 'syntax' && c.text(1) === '=') {
      const at = c.peek(2)?.at;
      c.take();
      c.take();
      const value = c.readLiteral();
      if (value?.bytes && at) scan.syntax = { value: new TextDecoder().decode(value.bytes), at };
    } else if (t === 'import') {
      const at = c.take()!.at;
      const kind = c.text() === 'public' || c.text() === 'weak' ? (c.take()!.text as 'public' | 'weak') : undefined;
      const name = c.readLiteral();
      if (name?.bytes) scan.imports.push({ name: new TextDecoder().decode(name.bytes), kind, at });
    } else if (t === 'package') {
      c.take();
      scan.package ??= c.readTypeName().name;
    } else if (t === 'edition' && c.text(1) === '=') scan.editionAt ??= c.peek()!.at;
    else return false;
    c.skipStatement();
    return true;
  };

  /** Statements of the file, a message, a oneof or an extend block, up to the closing brace. */
  const parseBody = (scope: string, kind: 'file' | 'message' | 'oneof' | 'extend', extendeeAt?: SourcePosition, element = scope): void => {
    const opensBlock = (): boolean => c.peek(1)?.kind === 'ident' && c.text(2) === '{';
    while (!c.done()) {
      const t = c.text()!;
      if (t === '}' && kind !== 'file') {
        c.take();
        return;
      }
      if (t === ';') c.take();
      else if (kind === 'file' && parseFileStatement(t)) continue;
      else if (t === 'message' && opensBlock()) {
        c.take();
        const name = c.take()!;
        c.take();
        addNested(scope, name.text);
        scan.names.set(join(scope, name.text), name.at);
        parseBody(join(scope, name.text), 'message');
      } else if (t === 'enum' && opensBlock()) {
        c.take();
        parseEnum(scope);
      } else if (t === 'service' && kind === 'file') {
        c.take();
        parseService(scope);
      } else if (t === 'extend' && kind !== 'extend' && kind !== 'oneof') {
        c.take();
        const extendee = c.readTypeName();
        if (c.accept('{')) parseBody(scope, 'extend', extendee.at);
        else c.skipStatement();
      } else if (t === 'oneof' && opensBlock()) {
        c.take();
        const name = c.take()!;
        c.take();
        scan.names.set(join(scope, name.text), name.at);
        parseBody(scope, 'oneof', undefined, join(scope, name.text));
      } else if (t === 'option') readOptionStatement(element);
      else if ((t === 'extensions' || t === 'reserved') && kind === 'message') parseRanges(scope, t);
      else if (SKIPPED_STATEMENTS.has(t) || kind === 'file') c.skipStatement();
      else parseField(scope, kind === 'extend' ? extendeeAt : undefined);
    }
  };

  parseBody('', 'file');
  return scan;
}

/**
 * protoc's name for the entry message of a map field: CamelCase of the field name (its
 * first letter upper-cased too, which a leading '_' gives ToJsonName) + "Entry".
 */
export function mapEntryName(fieldName: string): string {
  return `${toJsonName(`_${fieldName}`)}Entry`;
}
