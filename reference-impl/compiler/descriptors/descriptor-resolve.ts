// Name resolution of one drafted file against everything built before it, with protoc
// 3.21's rules and error texts: field types (fully qualified, with a leading dot; type set
// to TYPE_MESSAGE or TYPE_ENUM), extendees, method input and output types, enum defaults,
// and extension numbers inside the extendee's ranges.
import { errorLine, type SourcePosition } from './descriptor-errors.js';
import type { FileDraft } from './descriptor-draft.js';
import type { Lookup, SymbolTable } from './descriptor-symbols.js';

export function resolveDraft(draft: FileDraft, symbols: SymbolTable): string[] {
  const file = draft.file;
  const errors: string[] = [];
  const fail = (at: SourcePosition | undefined, text: string): void => {
    errors.push(errorLine(file.name, at, text));
  };
  const notFound = (written: string, lookup: Lookup, at: SourcePosition | undefined): void => {
    if (!lookup.undeclared && !lookup.resolvedTo) return fail(at, `"${written}" is not defined.`);
    if (lookup.undeclared) {
      fail(
        at,
        `"${lookup.undeclared.fullName}" seems to be defined in "${lookup.undeclared.file}", which is not imported by "${file.name}".  To use it here, please add the necessary import.`,
      );
    }
    if (lookup.resolvedTo) {
      fail(
        at,
        `"${written}" is resolved to "${lookup.resolvedTo}", which is not defined. The innermost scope is searched first in name resolution. Consider using a leading '.'(i.e., ".${written}") to start from the outermost scope.`,
      );
    }
  };
  /** Resolves a reference that must name a message; returns its dotted full name. */
  const messageType = (written: string, relativeTo: string, at: SourcePosition | undefined): string | undefined => {
    const lookup = symbols.lookup(written, relativeTo, file.name, false);
    if (!lookup.found) {
      notFound(written, lookup, at);
      return undefined;
    }
    if (lookup.found.entry.kind !== 'message') {
      fail(at, `"${written}" is not a message type.`);
      return undefined;
    }
    return `.${lookup.found.fullName}`;
  };

  for (const [field, info] of draft.fields) {
    const scanned = draft.scan?.fields.get(info.key);
    if (field.type_name !== undefined) {
      const written = field.type_name;
      const lookup = symbols.lookup(written, info.relativeTo, file.name, true);
      const kind = lookup.found?.entry.kind;
      if (!lookup.found) notFound(written, lookup, scanned?.typeAt);
      else if (kind !== 'message' && kind !== 'enum') fail(scanned?.typeAt, `"${written}" is not a type.`);
      else {
        field.type_name = `.${lookup.found.fullName}`;
        if (field.type !== 'TYPE_GROUP') field.type = kind === 'message' ? 'TYPE_MESSAGE' : 'TYPE_ENUM';
        if (info.enumDefault !== undefined) {
          const enumType = lookup.found.entry.enumType;
          if (!enumType) fail(scanned?.defaultValue?.token.at, "Messages can't have default values.");
          else if (!enumType.value.some((v) => v.name === info.enumDefault)) {
            fail(scanned?.defaultValue?.token.at, `Enum type "${lookup.found.fullName}" has no value named "${info.enumDefault}".`);
          } else field.default_value = info.enumDefault;
        }
      }
    }
    if (field.extendee !== undefined) {
      const extendee = messageType(field.extendee, info.relativeTo, scanned?.extendeeAt);
      if (extendee !== undefined) {
        field.extendee = extendee;
        const target = symbols.lookup(extendee, '', file.name, false).found?.entry.message;
        if (target && !target.extension_range.some((r) => field.number >= r.start && field.number < r.end)) {
          fail(scanned?.numberAt, `"${extendee.slice(1)}" does not declare ${field.number} as an extension number.`);
        }
      }
    }
  }
  for (const [method, info] of draft.methods) {
    const at = draft.scan?.methods.get(info.key);
    const input = messageType(method.input_type, info.relativeTo, at?.inputAt);
    const output = messageType(method.output_type, info.relativeTo, at?.outputAt);
    if (input !== undefined) method.input_type = input;
    if (output !== undefined) method.output_type = output;
  }
  return errors;
}
