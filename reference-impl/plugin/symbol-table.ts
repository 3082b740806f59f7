// Every message and enum declared anywhere in the request, by fully qualified name. The request
// carries all imports (spec: "descriptors of all files to generate and everything they import"),
// so a field's type_name must be found here; the outputs need to know what a name is (message,
// map entry, enum), where it lives (for the TypeScript import) and what it is called locally.
import type { EnumDescriptor, FileDescriptor, MessageDescriptor } from './descriptor-types.js';

export type TypeSymbol =
  | { kind: 'message'; fullName: string; file: FileDescriptor; localName: string; message: MessageDescriptor }
  | { kind: 'enum'; fullName: string; file: FileDescriptor; localName: string; enum: EnumDescriptor };

export interface SymbolTable {
  /** Looks up a type_name as descriptors spell it: fully qualified with a leading dot. */
  find(typeName: string | undefined): TypeSymbol | undefined;
}

export function createSymbolTable(files: readonly FileDescriptor[]): SymbolTable {
  const symbols = new Map<string, TypeSymbol>();
  const add = (symbol: TypeSymbol) => {
    // First declaration wins: a duplicate is a broken request the compiler would have refused,
    // and keeping the first makes the answer independent of anything but input order.
    if (!symbols.has(symbol.fullName)) symbols.set(symbol.fullName, symbol);
  };
  for (const file of files) {
    const pkg = file.package ? `${file.package}.` : '';
    const addEnums = (enums: EnumDescriptor[] | undefined, prefix: string) => {
      for (const enumType of enums ?? []) {
        const relative = `${prefix}${enumType.name ?? ''}`;
        add({ kind: 'enum', fullName: `${pkg}${relative}`, file, localName: localTypeName(relative), enum: enumType });
      }
    };
    const addMessages = (messages: MessageDescriptor[] | undefined, prefix: string) => {
      for (const message of messages ?? []) {
        const relative = `${prefix}${message.name ?? ''}`;
        add({ kind: 'message', fullName: `${pkg}${relative}`, file, localName: localTypeName(relative), message });
        addMessages(message.nested_type, `${relative}.`);
        addEnums(message.enum_type, `${relative}.`);
      }
    };
    addMessages(file.message_type, '');
    addEnums(file.enum_type, '');
  }
  return {
    find(typeName) {
      if (!typeName?.startsWith('.')) return undefined;
      return symbols.get(typeName.slice(1));
    },
  };
}

// Words a TypeScript interface or type alias may not be named (keywords and the predefined
// type names). Proto identifiers can be any of them; such a name gets a trailing "$", which
// proto identifiers never contain, so it cannot clash with another generated name.
const RESERVED = new Set(
  (
    'any bigint boolean never null number object string symbol undefined unknown void ' +
    'break case catch class const continue debugger default delete do else enum export extends false ' +
    'finally for function if import in instanceof new return super switch this throw true try typeof ' +
    'var while with implements interface let package private protected public static yield await type'
  ).split(' '),
);

/** `Outer.Inner` (relative to the package) → `Outer_Inner`, the flattened TypeScript name. */
export function localTypeName(relativeName: string): string {
  const flat = relativeName.split('.').join('_');
  return RESERVED.has(flat) ? `${flat}$` : flat;
}

/** The fully qualified name without the leading dot, for display; the raw name when it has none. */
export function displayTypeName(typeName: string | undefined): string {
  return typeName?.startsWith('.') ? typeName.slice(1) : (typeName ?? '');
}
