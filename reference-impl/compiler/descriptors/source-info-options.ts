// protoc's parser records every option as uninterpreted (path …, 999, index, with locations
// for its name parts and value below); once the descriptor is built, protoc 3.21's
// OptionInterpreter (descriptor.cc, InterpretSingleOption and UpdateSourceCodeInfo) gives
// each such location the path of the option field it set instead, e.g. [8, 11] for
// `option java_package`, [4, 0, 2, 1, 8, 50001, 2] for `[(my.ext).sub = …]`, plus an index
// for a repeated option, and drops the locations below it. This does the same from the
// resolved file: builtin option fields from descriptor.proto, custom ones from the symbol table.
import type protobuf from 'protobufjs';
import type { FieldObject, MessageObject, SourceLocationObject } from './descriptor-object.js';
import type { SymbolTable } from './descriptor-symbols.js';
import type { OptionNamePart, OptionUse } from './source-info-walk.js';

interface OptionField {
  number: number;
  repeated: boolean;
  /** The message to look the next name part up in, when the field is a message (or group). */
  fields?: FieldFinder;
}

type FieldFinder = (part: OptionNamePart) => OptionField | undefined;

export interface OptionScope {
  /** The loaded descriptor.proto, whose options messages hold the builtin option fields. */
  descriptorRoot: protobuf.Root;
  symbols: SymbolTable;
  fileName: string;
}

/** The locations with options' paths rewritten as protoc's OptionInterpreter leaves them. */
export function interpretOptionLocations(locations: SourceLocationObject[], uses: OptionUse[], scope: OptionScope): SourceLocationObject[] {
  const interpreted = new Map<string, number[]>();
  const repeatedCounts = new Map<string, number>();
  for (const use of uses) {
    const destination = optionPath(use, scope);
    // Unresolvable only where protoc would have failed the file: left as the parser recorded it.
    if (!destination) continue;
    if (destination.repeated) {
      const key = destination.path.join(',');
      const index = repeatedCounts.get(key) ?? 0;
      repeatedCounts.set(key, index + 1);
      destination.path.push(index);
    }
    interpreted.set(use.location.path.join(','), destination.path);
  }
  if (interpreted.size === 0) return locations;

  const out: SourceLocationObject[] = [];
  // The path of the last location replaced: the locations right after it that are below it go.
  let replaced: number[] = [];
  const below = (path: number[]): boolean =>
    replaced.length > 0 && path.length >= replaced.length && replaced.every((p, i) => path[i] === p);
  for (const location of locations) {
    if (below(location.path)) continue;
    replaced = [];
    const destination = interpreted.get(location.path.join(','));
    if (!destination) {
      out.push(location);
      continue;
    }
    replaced = location.path;
    out.push({ ...location, path: [...destination] });
  }
  return out;
}

/** The option's element path, its options field, then one field number per name part. */
function optionPath(use: OptionUse, scope: OptionScope): { path: number[]; repeated: boolean } | undefined {
  const path = use.location.path.slice(0, -2);
  const optionsType = scope.descriptorRoot.lookupType(`google.protobuf.${use.target.type}`);
  let fields: FieldFinder | undefined = builtinFields(optionsType, use.target.scope, scope);
  let field: OptionField | undefined;
  for (const part of use.name) {
    field = fields?.(part);
    if (!field) return undefined;
    path.push(field.number);
    fields = field.fields;
  }
  return field && { path, repeated: field.repeated };
}

function builtinFields(type: protobuf.Type, nameScope: string, scope: OptionScope): FieldFinder {
  return (part) => {
    if (part.extension) return extensionField(part.name, nameScope, scope);
    const field = type.fields[part.name];
    if (!field) return undefined;
    const resolved = field.resolve().resolvedType;
    const isMessage = resolved !== null && 'fields' in resolved;
    return {
      number: field.id,
      repeated: field.repeated,
      fields: isMessage ? builtinFields(resolved as protobuf.Type, nameScope, scope) : undefined,
    };
  };
}

/** An extension used in an option name is looked up like protoc does, from the element's scope. */
function extensionField(name: string, nameScope: string, scope: OptionScope): OptionField | undefined {
  const found = scope.symbols.lookup(name, nameScope, scope.fileName, false).found;
  if (found?.entry.kind !== 'extension' || !found.entry.field) return undefined;
  return describe(found.entry.field, nameScope, scope);
}

function describe(field: FieldObject, nameScope: string, scope: OptionScope): OptionField {
  const isMessage = field.type === 'TYPE_MESSAGE' || field.type === 'TYPE_GROUP';
  const message = isMessage ? scope.symbols.resolved(field.type_name ?? '')?.message : undefined;
  return {
    number: field.number,
    repeated: field.label === 'LABEL_REPEATED',
    fields: message ? customFields(message, nameScope, scope) : undefined,
  };
}

function customFields(message: MessageObject, nameScope: string, scope: OptionScope): FieldFinder {
  return (part) => {
    if (part.extension) return extensionField(part.name, nameScope, scope);
    const field = message.field.find((f) => f.name === part.name);
    return field && describe(field, nameScope, scope);
  };
}
