// Custom options, as protoc 3.21's OptionInterpreter writes them: each `(ext) = value` or
// `(ext).a.b = value` statement becomes one encoded extension field of the options message
// (FieldOptions …), in declaration order, after the known fields. The statements and their
// values are read from the source the way protoc's parser reads them (the source-info walk),
// not from protobufjs, which merges `(ext).a = 1; (ext).b = 2;` into one value and reads
// numbers as doubles. Values are checked and encoded in custom-option-scalar.ts and, for
// aggregates, custom-option-aggregate.ts.
//
// Not mirrored: Any values and message set items inside aggregate values ("[type.googleapis.com/…]",
// "[pkg.Item.ext]" in a message set) are refused; an enum value from a sibling enum is
// reported without protoc's "This appears to be a value from a sibling type." hint.
import { encodeAggregate } from './custom-option-aggregate.js';
import { encodeOptionLiteral, OptionValueError, type Encoded, type OptionTypes } from './custom-option-scalar.js';
import { WIRE_END_GROUP, WIRE_LENGTH_DELIMITED, WIRE_START_GROUP, lengthDelimited, tag } from './custom-option-wire.js';
import { errorLine, type SourcePosition } from './descriptor-errors.js';
import type { FieldObject, MessageObject, OptionsObject } from './descriptor-object.js';
import type { PendingOptions } from './descriptor-draft.js';
import type { SymbolTable } from './descriptor-symbols.js';
import { parseWireFields } from '../common/wire-reader.js';
import type { OptionUse } from './source-info-walk.js';

class OptionNameError extends Error {}

const PACKABLE = /^TYPE_(U?INT|S?FIXED|SINT)(32|64)$|^TYPE_(FLOAT|DOUBLE|BOOL|ENUM)$/;

/**
 * Encodes the custom options of one file into their owners' options.$unknowns; returns
 * protoc-style error lines. `written` is every option statement of the file in source order;
 * undefined when the source could not be read as protoc reads it.
 */
export function applyCustomOptions(
  fileName: string,
  pending: PendingOptions[],
  symbols: SymbolTable,
  written: OptionUse[] | undefined,
): string[] {
  if (pending.length > 0 && !written) return [`${fileName}: touchstone could not read this file's options the way protoc does.`];
  const types: OptionTypes = {
    message: (typeName) => symbols.resolved(typeName)?.message,
    enumType: (typeName) => symbols.resolved(typeName)?.enumType,
    extension(name, relativeTo) {
      const found = symbols.lookup(name, relativeTo, fileName, false).found?.entry;
      return found?.kind === 'extension' ? found.field : undefined;
    },
    packed(typeName, field) {
      if (!PACKABLE.test(field.type ?? '')) return false;
      const proto3 = symbols.file(symbols.resolved(typeName)?.file ?? '')?.syntax === 'proto3';
      return proto3 ? field.options?.packed !== false : field.options?.packed === true;
    },
  };
  const errors: string[] = [];
  for (const { owner, optionsType, relativeTo, statements: given } of pending) {
    const statements =
      given ?? (written ?? []).filter((u) => u.target.type === optionsType && u.target.scope === relativeTo && u.name[0]?.extension);
    const set: Uint8Array[] = [];
    for (const statement of statements) {
      let at: SourcePosition = statement.nameAt;
      try {
        const chain = resolveName(statement, optionsType, relativeTo, fileName, symbols);
        const leaf = chain[chain.length - 1];
        if (leaf.field.label !== 'LABEL_REPEATED' && isSet(chain.slice(0, -1), leaf.field, concat(set))) {
          throw new OptionNameError(`Option "${chain[chain.length - 1].display}" was already set.`);
        }
        at = statement.valueAt;
        let bytes = encodeLeaf(leaf.field, leaf.names, statement, types);
        for (const { field } of chain.slice(0, -1).reverse()) bytes = wrap(field, bytes);
        set.push(Uint8Array.from(bytes));
      } catch (e) {
        if (!(e instanceof OptionNameError || e instanceof OptionValueError)) throw e;
        errors.push(errorLine(fileName, at, e.message));
        break; // protoc stops at an element's first bad option
      }
    }
    if (set.length > 0) {
      const target: OptionsObject = (owner.options ??= {});
      (target.$unknowns ??= []).push(...set);
    }
  }
  return errors;
}

interface ChainLink {
  field: FieldObject;
  /** The name protoc uses for the option so far: "(ext).a". */
  display: string;
  names: { full: string; name: string };
}

/** InterpretSingleOption's walk down the name parts, with its errors. */
function resolveName(statement: OptionUse, optionsType: string, scope: string, fileName: string, symbols: SymbolTable): ChainLink[] {
  const chain: ChainLink[] = [];
  let message: { name: string; fullName: string; fields?: MessageObject } = {
    name: optionsType,
    fullName: `.google.protobuf.${optionsType}`,
  };
  let display = '';
  for (const [index, part] of statement.name.entries()) {
    display += `${display ? '.' : ''}${part.extension ? `(${part.name})` : part.name}`;
    const unknown = `Option "${display}" unknown. Ensure that your proto definition file imports the proto which defines the option.`;
    let link: ChainLink;
    if (part.extension) {
      const found = symbols.lookup(part.name, scope, fileName, false).found;
      if (found?.entry.kind !== 'extension' || !found.entry.field) throw new OptionNameError(unknown);
      if (found.entry.field.extendee !== message.fullName)
        throw new OptionNameError(`Option field "${display}" is not a field or extension of message "${message.name}".`);
      link = { field: found.entry.field, display, names: { full: found.fullName, name: found.entry.field.name } };
    } else {
      // The only non-extension first parts are descriptor.proto's own options, which are not custom.
      const field = message.fields?.field.find((f) => f.name === part.name);
      if (!field) throw new OptionNameError(unknown);
      link = { field, display, names: { full: `${message.fullName.slice(1)}.${field.name}`, name: field.name } };
    }
    chain.push(link);
    if (index === statement.name.length - 1) break;
    const { field } = link;
    if (field.type !== 'TYPE_MESSAGE' && field.type !== 'TYPE_GROUP')
      throw new OptionNameError(`Option "${display}" is an atomic type, not a message.`);
    if (field.label === 'LABEL_REPEATED')
      throw new OptionNameError(
        `Option field "${display}" is a repeated message. Repeated message options must be initialized using an aggregate value.`,
      );
    message = {
      name: field.type_name?.split('.').pop() ?? '',
      fullName: field.type_name ?? '',
      fields: symbols.resolved(field.type_name ?? '')?.message,
    };
  }
  return chain;
}

/** ExamineIfOptionIsSet: whether the innermost field is already in the element's options, through the intermediate messages. */
function isSet(intermediates: ChainLink[], leaf: FieldObject, bytes: Uint8Array): boolean {
  const fields = parseWireFields(bytes);
  if (intermediates.length === 0) return fields.some((f) => f.number === leaf.number);
  const [{ field }, ...rest] = intermediates;
  const wire = field.type === 'TYPE_GROUP' ? WIRE_START_GROUP : WIRE_LENGTH_DELIMITED;
  return fields.some((f) => f.number === field.number && f.wireType === wire && isSet(rest, leaf, f.bytes));
}

function encodeLeaf(field: FieldObject, names: { full: string; name: string }, statement: OptionUse, types: OptionTypes): number[] {
  const isMessage = field.type === 'TYPE_MESSAGE' || field.type === 'TYPE_GROUP';
  let encoded: Encoded;
  if (!isMessage) encoded = encodeOptionLiteral(field, statement.value, names, types);
  else if (statement.value.kind !== 'aggregate') {
    throw new OptionValueError(
      `Option "${names.full}" is a message. To set the entire message, use syntax like "${names.name} = { <proto text format> }". To set fields within it, use syntax like "${names.name}.foo = value".`,
    );
  } else {
    let body: number[];
    try {
      body = encodeAggregate(field.type_name ?? '', statement.value.tokens ?? [], types);
    } catch (e) {
      if (!(e instanceof OptionValueError)) throw e;
      throw new OptionValueError(`Error while parsing option value for "${names.name}": ${e.message}`);
    }
    return wrap(field, body);
  }
  return [...tag(field.number, encoded.wireType), ...encoded.payload];
}

/** One field holding `inner` (a message's fields): length-delimited, or a group. */
function wrap(field: FieldObject, inner: number[]): number[] {
  if (field.type === 'TYPE_GROUP') return [...tag(field.number, WIRE_START_GROUP), ...inner, ...tag(field.number, WIRE_END_GROUP)];
  return [...tag(field.number, WIRE_LENGTH_DELIMITED), ...lengthDelimited(inner)];
}

function concat(parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((p) => [...p]));
}
