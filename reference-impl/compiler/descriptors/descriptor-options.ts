// Options as protobufjs's parser leaves them on a reflection object, split into the options
// message fields descriptor.proto defines (FieldOptions.packed, FileOptions.java_package …),
// checked like protoc checks them, and custom options ("(my.ext).sub = …"), which are
// extensions and are encoded after name resolution (descriptor-custom-options.ts).
//
// Not mirrored: the options messages come from the descriptor.proto protobufjs ships, which
// is newer than protoc 3.21's, so options added since (retention, targets, features …) are
// accepted here where protoc 3.21 would report them unknown.
import type protobuf from 'protobufjs';
import type { SourcePosition } from './descriptor-errors.js';
import type { OptionsObject } from './descriptor-object.js';
import type { ScannedOption } from './descriptor-source-scan.js';

/** Where protobufjs keeps what was declared: parsedOptions (ordered, nested) when parsed from text, else options. */
export interface OptionHolder {
  options?: Record<string, unknown> | null;
  parsedOptions?: Record<string, unknown>[] | null;
}

export interface CustomOption {
  /** The extension's name as written, without the parentheses ("my.ext"). */
  extension: string;
  /** Sub-field names after the extension: `(my.ext).a.b = 1` gives ["a", "b"]. */
  path: string[];
  value: unknown;
  /** Where the option's name is written, for error messages. */
  at?: SourcePosition;
}

export interface SplitOptions {
  options?: OptionsObject;
  custom: CustomOption[];
  errors: { at?: SourcePosition; text: string }[];
}

/** How an option was written, by its name as written ("java_package", "(my.ext).a"); undefined when unknown. */
export type WrittenOption = (name: string) => ScannedOption | undefined;

/** Names protobufjs's parser files under options that are not options: field syntax and its own markers. */
const NOT_OPTIONS = new Set(['default', 'json_name', 'proto3_optional']);

export function splitOptions(holders: OptionHolder[], optionsType: protobuf.Type, written: WrittenOption = () => undefined): SplitOptions {
  const options: OptionsObject = {};
  const custom: CustomOption[] = [];
  const errors: { at?: SourcePosition; text: string }[] = [];
  for (const [name, value] of holders.flatMap(declaredOptions)) {
    if (NOT_OPTIONS.has(name)) continue;
    const source = written(name);
    if (name.startsWith('(')) {
      const close = name.indexOf(')');
      const path = name
        .slice(close + 1)
        .split('.')
        .filter((p) => p !== '');
      custom.push({ extension: name.slice(1, close), path, value, at: source?.nameAt });
      continue;
    }
    const field = optionsType.fields[name];
    if (!field) {
      errors.push({
        at: source?.nameAt,
        text: `Option "${name}" unknown. Ensure that your proto definition file imports the proto which defines the option.`,
      });
      continue;
    }
    const problem = checkValue(field, value, source?.valueKind);
    if (problem) errors.push({ at: source?.valueAt, text: problem });
    else if (field.repeated) options[name] = [...((options[name] as unknown[]) ?? []), ...(Array.isArray(value) ? value : [value])];
    else options[name] = isPlainObject(value) && isPlainObject(options[name]) ? { ...options[name], ...value } : value;
  }
  return { options: Object.keys(options).length > 0 ? options : undefined, custom, errors };
}

/** [name, value] pairs in declaration order; the flat form's "(ext).a.b" keys are folded back into objects. */
function declaredOptions(holder: OptionHolder): [string, unknown][] {
  if (holder.parsedOptions) return holder.parsedOptions.flatMap((entry) => Object.entries(entry));
  const folded = new Map<string, unknown>();
  for (const [key, value] of Object.entries(holder.options ?? {})) {
    const m = /^(\([^)]*\)|[^.]+)\.?(.*)$/.exec(key);
    if (!m?.[2]) {
      folded.set(key, value);
      continue;
    }
    const target = (isPlainObject(folded.get(m[1])) ? folded.get(m[1]) : {}) as Record<string, unknown>;
    let node = target;
    const parts = m[2].split('.');
    for (const part of parts.slice(0, -1)) node = (node[part] = isPlainObject(node[part]) ? node[part] : {}) as Record<string, unknown>;
    node[parts[parts.length - 1]] = value;
    folded.set(m[1], target);
  }
  return [...folded];
}

/**
 * protoc's OptionInterpreter value checks, with its texts, for the scalar option fields.
 * `kind` is how the value was written (protobufjs reads `foo` and `"foo"` alike).
 */
function checkValue(field: protobuf.Field, value: unknown, kind: string | undefined): string | undefined {
  const full = `${field.parent!.fullName.slice(1)}.${field.name}`;
  const values = Array.isArray(value) ? value : [value];
  for (const v of values) {
    const enumType = field.resolve().resolvedType;
    if (enumType && 'values' in enumType) {
      if (typeof v !== 'string' || (kind !== undefined && kind !== 'ident'))
        return `Value must be identifier for enum-valued option "${full}".`;
      if (!(v in (enumType as protobuf.Enum).values))
        return `Enum type "${enumType.fullName.slice(1)}" has no value named "${v}" for option "${full}".`;
    } else if (field.type === 'bool') {
      if (kind !== undefined && kind !== 'ident') return `Value must be identifier for boolean option "${full}".`;
      if (typeof v !== 'boolean') return `Value must be "true" or "false" for boolean option "${full}".`;
    } else if (field.type === 'string' && (typeof v !== 'string' || (kind !== undefined && kind !== 'string'))) {
      return `Value must be quoted string for string option "${full}".`;
    } else if (/int|fixed/.test(field.type) && typeof v !== 'number') return `Value must be integer for ${field.type} option "${full}".`;
  }
  return undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}
