// protoc's symbol table and name lookup (DescriptorBuilder::LookupSymbolNoPlaceholder and
// FindSymbol in protobuf 3.21): every full name of every file built so far, a file sees
// only its own, its imports' and their public imports' symbols, and a relative name is
// looked up from the innermost scope outwards on its first component only.
import type { EnumObject, FieldObject, FileObject, MessageObject } from './descriptor-object.js';

export type SymbolKind = 'package' | 'message' | 'enum' | 'enum_value' | 'field' | 'oneof' | 'service' | 'method' | 'extension';

export interface SymbolEntry {
  kind: SymbolKind;
  /** The defining file; for packages, the first file seen declaring it. */
  file: string;
  message?: MessageObject;
  enumType?: EnumObject;
  field?: FieldObject;
}

export interface Lookup {
  found?: { fullName: string; entry: SymbolEntry };
  /** Set when a symbol exists but in a file not imported: protoc names it in the error. */
  undeclared?: { file: string; fullName: string };
  /** Set when the first component resolved in an inner scope and the rest was missing there. */
  resolvedTo?: string;
}

export interface SymbolTable {
  /**
   * Registers a file's symbols; returns protoc's errors for names already taken, each with
   * the full name of the declaration (an enum value as "pkg.Enum.VALUE", where it is written).
   */
  addFile(file: FileObject): { declaredAs: string; text: string }[];
  /** Looks `name` up as seen from `relativeTo` (a full name) in `file`; `typesOnly` skips non-types on single names, like LOOKUP_TYPES. */
  lookup(name: string, relativeTo: string, file: string, typesOnly: boolean): Lookup;
  /** A file registered with addFile. */
  file(name: string): FileObject | undefined;
  /**
   * The symbol of a resolved name (".pkg.Type"), whichever file declares it: what a resolved
   * field's type is, which protoc no longer checks for visibility.
   */
  resolved(typeName: string): SymbolEntry | undefined;
}

const AGGREGATES = new Set<SymbolKind>(['message', 'package', 'enum', 'service']);

export function createSymbolTable(): SymbolTable {
  const symbols = new Map<string, SymbolEntry>();
  const files = new Map<string, FileObject>();

  const visibleCache = new Map<string, Set<string>>();
  /** The file, its imports, and recursively the public imports of those (protoc's dependencies_). */
  const visibleFiles = (name: string): Set<string> => {
    const cached = visibleCache.get(name);
    if (cached) return cached;
    const seen = new Set<string>([name]);
    visibleCache.set(name, seen);
    const addPublic = (dep: string): void => {
      if (seen.has(dep)) return;
      seen.add(dep);
      const f = files.get(dep);
      for (const index of f?.public_dependency ?? []) addPublic(f!.dependency[index]);
    };
    for (const dep of files.get(name)?.dependency ?? []) addPublic(dep);
    return seen;
  };
  const inPackage = (file: string, pkg: string): boolean => {
    const p = files.get(file)?.package ?? '';
    return p.startsWith(pkg) && (p.length === pkg.length || p[pkg.length] === '.');
  };

  return {
    addFile(file) {
      files.set(file.name, file);
      const errors: { declaredAs: string; text: string }[] = [];
      const add = (fullName: string, entry: SymbolEntry, declaredAs = fullName): boolean => {
        const existing = symbols.get(fullName);
        if (!existing) {
          symbols.set(fullName, entry);
          return true;
        }
        if (existing.kind === 'package' && entry.kind === 'package') return true;
        const dot = fullName.lastIndexOf('.');
        let text: string;
        if (existing.kind === 'package')
          text = `"${fullName}" is already defined (as something other than a package) in file "${file.name}".`;
        else if (entry.kind === 'package')
          text = `"${fullName}" is already defined (as something other than a package) in file "${existing.file}".`;
        else if (existing.file !== file.name) text = `"${fullName}" is already defined in file "${existing.file}".`;
        else
          text =
            dot < 0
              ? `"${fullName}" is already defined.`
              : `"${fullName.slice(dot + 1)}" is already defined in "${fullName.slice(0, dot)}".`;
        errors.push({ declaredAs, text });
        return false;
      };
      const full = (scope: string, name: string): string => (scope ? `${scope}.${name}` : name);
      const addEnum = (e: EnumObject, scope: string): void => {
        add(full(scope, e.name), { kind: 'enum', file: file.name, enumType: e });
        for (const v of e.value) {
          // Enum values are siblings of their enum (C++ scoping), protoc's note says so.
          const declaredAs = `${full(scope, e.name)}.${v.name}`;
          if (!add(full(scope, v.name), { kind: 'enum_value', file: file.name }, declaredAs)) {
            const outer = scope ? `"${scope}"` : 'the global scope';
            errors.push({
              declaredAs,
              text: `Note that enum values use C++ scoping rules, meaning that enum values are siblings of their type, not children of it.  Therefore, "${v.name}" must be unique within ${outer}, not just within "${e.name}".`,
            });
          }
        }
      };
      const addMessage = (m: MessageObject, scope: string): void => {
        const name = full(scope, m.name);
        add(name, { kind: 'message', file: file.name, message: m });
        for (const f of m.field) add(full(name, f.name), { kind: 'field', file: file.name, field: f });
        for (const o of m.oneof_decl) add(full(name, o.name), { kind: 'oneof', file: file.name });
        for (const n of m.nested_type) addMessage(n, name);
        for (const e of m.enum_type) addEnum(e, name);
        for (const x of m.extension) add(full(name, x.name), { kind: 'extension', file: file.name, field: x });
      };
      const pkg = file.package ?? '';
      const parts = pkg ? pkg.split('.') : [];
      parts.forEach((_, i) => add(parts.slice(0, i + 1).join('.'), { kind: 'package', file: file.name }));
      for (const m of file.message_type) addMessage(m, pkg);
      for (const e of file.enum_type) addEnum(e, pkg);
      for (const s of file.service) {
        add(full(pkg, s.name), { kind: 'service', file: file.name });
        for (const m of s.method) add(full(full(pkg, s.name), m.name), { kind: 'method', file: file.name });
      }
      for (const x of file.extension) add(full(pkg, x.name), { kind: 'extension', file: file.name, field: x });
      return errors;
    },

    file: (name) => files.get(name),
    resolved: (typeName) => symbols.get(typeName.startsWith('.') ? typeName.slice(1) : typeName),

    lookup(name, relativeTo, fileName, typesOnly) {
      const result: Lookup = {};
      const visible = visibleFiles(fileName);
      const find = (fullName: string): { fullName: string; entry: SymbolEntry } | undefined => {
        const entry = symbols.get(fullName);
        if (!entry) return undefined;
        if (visible.has(entry.file)) return { fullName, entry };
        if (entry.kind === 'package' && [...visible].some((f) => inPackage(f, fullName))) return { fullName, entry };
        result.undeclared = { file: entry.file, fullName };
        return undefined;
      };
      if (name.startsWith('.')) {
        const found = find(name.slice(1));
        return { ...result, found };
      }
      const dot = name.indexOf('.');
      const first = dot < 0 ? name : name.slice(0, dot);
      let scope = relativeTo;
      for (;;) {
        const cut = scope.lastIndexOf('.');
        if (cut < 0) {
          // find() may record an undeclared dependency: call it before copying `result`.
          const found = find(name);
          return { ...result, found };
        }
        scope = scope.slice(0, cut);
        const candidate = find(`${scope}.${first}`);
        if (candidate) {
          if (dot >= 0) {
            if (AGGREGATES.has(candidate.entry.kind)) {
              const found = find(`${scope}.${name}`);
              return found ? { ...result, found } : { ...result, resolvedTo: `${scope}.${name}` };
            }
          } else if (!typesOnly || candidate.entry.kind === 'message' || candidate.entry.kind === 'enum') {
            return { ...result, found: candidate };
          }
        }
      }
    },
  };
}
