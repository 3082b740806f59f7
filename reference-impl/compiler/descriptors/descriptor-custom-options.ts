// Custom options, as protoc's OptionInterpreter writes them: each `(ext) = value` or
// `(ext).a.b = value` statement becomes one encoded extension field of the options message
// (FieldOptions …), in declaration order, after the known fields.
//
// Not mirrored: protobufjs's parser merges `(ext).a = 1; (ext).b = 2;` on one element into
// one value, so we write one field where protoc writes two (readers merge both the same
// way); 64-bit values beyond 2^53 lose precision (protobufjs reads option values as
// doubles); extension names inside aggregate values ("[pkg.ext]: …") are not supported.
import protobuf from 'protobufjs';
import { errorLine } from './descriptor-errors.js';
import type { FieldObject, MessageObject, OptionsObject } from './descriptor-object.js';
import type { PendingOptions } from './descriptor-from-reflection.js';
import { isPlainObject } from './descriptor-options.js';
import type { SymbolTable } from './descriptor-symbols.js';

const WIRE: Record<string, number> = {
  TYPE_DOUBLE: 1,
  TYPE_FIXED64: 1,
  TYPE_SFIXED64: 1,
  TYPE_FLOAT: 5,
  TYPE_FIXED32: 5,
  TYPE_SFIXED32: 5,
  TYPE_STRING: 2,
  TYPE_BYTES: 2,
  TYPE_MESSAGE: 2,
  TYPE_GROUP: 3,
};

class OptionError extends Error {}

/** Encodes the pending custom options of one file into their owners' options.$unknowns; returns protoc-style error lines. */
export function applyCustomOptions(fileName: string, pending: PendingOptions[], symbols: SymbolTable): string[] {
  const errors: string[] = [];
  const messageOf = (typeName: string): MessageObject => {
    const message = symbols.lookup(typeName, '', fileName, false).found?.entry.message;
    if (!message) throw new OptionError(`"${typeName}" is not a message type.`);
    return message;
  };

  const writeValue = (w: protobuf.Writer, field: FieldObject, value: unknown, display: string): void => {
    const type = field.type ?? '';
    if (Array.isArray(value)) {
      for (const v of value) writeValue(w, field, v, display);
      return;
    }
    if (type === 'TYPE_GROUP') {
      w.uint32((field.number << 3) | 3);
      writeMessage(w, messageOf(field.type_name!), value, display);
      w.uint32((field.number << 3) | 4);
      return;
    }
    w.uint32((field.number << 3) | (WIRE[type] ?? 0));
    if (type === 'TYPE_MESSAGE') {
      w.fork();
      writeMessage(w, messageOf(field.type_name!), value, display);
      w.ldelim();
    } else if (type === 'TYPE_ENUM') {
      const enumType = symbols.lookup(field.type_name!, '', fileName, false).found?.entry.enumType;
      const number = typeof value === 'number' ? value : enumType?.value.find((v) => v.name === value)?.number;
      if (number === undefined)
        throw new OptionError(`Enum type "${field.type_name!.slice(1)}" has no value named "${String(value)}" for option "${display}".`);
      w.int32(number);
    } else writeScalar(w, type, value, display);
  };

  const writeMessage = (w: protobuf.Writer, message: MessageObject, value: unknown, display: string): void => {
    if (!isPlainObject(value))
      throw new OptionError(
        `Option "${display}" is a message. To set the entire message, use syntax like "${display} = { <proto text format> }". To set fields within it, use syntax like "${display}.foo = value".`,
      );
    for (const [name, v] of Object.entries(value)) {
      const field = message.field.find((f) => f.name === name || (f.type === 'TYPE_GROUP' && f.type_name?.endsWith(`.${name}`)));
      if (!field)
        throw new OptionError(
          `Error while parsing option value for "${display}": Message type "${message.name}" has no field named "${name}".`,
        );
      writeValue(w, field, v, display);
    }
  };

  for (const { owner, optionsType, relativeTo, custom } of pending) {
    for (const option of custom) {
      const display = `(${option.extension})${option.path.map((p) => `.${p}`).join('')}`;
      try {
        const lookup = symbols.lookup(option.extension, relativeTo, fileName, false);
        const extension = lookup.found?.entry.kind === 'extension' ? lookup.found.entry.field : undefined;
        if (!extension)
          throw new OptionError(
            `Option "(${option.extension})" unknown. Ensure that your proto definition file imports the proto which defines the option.`,
          );
        if (extension.extendee !== `.google.protobuf.${optionsType}`) {
          throw new OptionError(`Option field "(${option.extension})" is not a field or extension of message "${optionsType}".`);
        }
        // Innermost first: `(ext).a.b = v` is ext { a { b: v } }.
        let fields: FieldObject[] = [extension];
        for (const part of option.path) {
          const parent = fields[fields.length - 1];
          if (parent.type !== 'TYPE_MESSAGE' && parent.type !== 'TYPE_GROUP')
            throw new OptionError(`Option "${display}" is an atomic type, not a message.`);
          const next = messageOf(parent.type_name!).field.find((f) => f.name === part);
          if (!next)
            throw new OptionError(
              `Option field "${display}" is not a field or extension of message "${parent.type_name!.split('.').pop()}".`,
            );
          fields = [...fields, next];
        }
        let value = option.value;
        for (let i = fields.length - 1; i > 0; i--) value = { [fields[i].name]: value };
        const w = protobuf.Writer.create();
        writeValue(w, extension, value, display);
        const target: OptionsObject = (owner.options ??= {});
        (target.$unknowns ??= []).push(w.finish());
      } catch (e) {
        if (!(e instanceof OptionError)) throw e;
        errors.push(errorLine(fileName, option.at, e.message));
        break; // protoc stops at an element's first bad option
      }
    }
  }
  return errors;
}

function writeScalar(w: protobuf.Writer, type: string, value: unknown, display: string): void {
  const numeric = typeof value === 'number' || typeof value === 'boolean';
  const n = typeof value === 'boolean' ? Number(value) : (value as number);
  const text = typeof value === 'string' ? value : undefined;
  switch (type) {
    case 'TYPE_STRING':
    case 'TYPE_BYTES':
      if (text === undefined) throw new OptionError(`Value must be quoted string for string option "${display}".`);
      if (type === 'TYPE_STRING') w.string(text);
      else w.bytes(Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff));
      return;
    case 'TYPE_BOOL':
      if (typeof value !== 'boolean') throw new OptionError(`Value must be "true" or "false" for boolean option "${display}".`);
      w.bool(value);
      return;
  }
  if (!numeric) throw new OptionError(`Value must be number for ${type.slice(5).toLowerCase()} option "${display}".`);
  const writers: Record<string, (v: number) => unknown> = {
    TYPE_INT32: (v) => w.int32(v),
    TYPE_UINT32: (v) => w.uint32(v),
    TYPE_SINT32: (v) => w.sint32(v),
    TYPE_INT64: (v) => w.int64(v),
    TYPE_UINT64: (v) => w.uint64(v),
    TYPE_SINT64: (v) => w.sint64(v),
    TYPE_FIXED32: (v) => w.fixed32(v),
    TYPE_SFIXED32: (v) => w.sfixed32(v),
    TYPE_FIXED64: (v) => w.fixed64(v),
    TYPE_SFIXED64: (v) => w.sfixed64(v),
    TYPE_FLOAT: (v) => w.float(v),
    TYPE_DOUBLE: (v) => w.double(v),
  };
  writers[type](n);
}
