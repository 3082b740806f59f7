// Names in the generated TypeScript: JSON field names (the property names of the proto3 JSON
// mapping), property keys, and the aliases under which other generated files are imported.

/** protoc's default json_name: underscores dropped, the letter after each one upper-cased. */
export function lowerCamelJsonName(fieldName: string): string {
  let result = '';
  let upperNext = false;
  for (const char of fieldName) {
    if (char === '_') {
      upperNext = true;
    } else {
      result += upperNext ? char.toUpperCase() : char;
      upperNext = false;
    }
  }
  return result;
}

/** A property key: bare when it is an identifier, quoted otherwise (json_name can be anything). */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

/**
 * Hands out import aliases: `$` + the output stem with other characters as `_`
 * (`demo/common` → `$demo_common`). Proto identifiers never contain `$`, so an alias cannot
 * shadow a generated type; two stems that flatten alike get `_2`, `_3`.
 */
export function createImportAliases(): { aliasFor(stem: string): string; entries(): [stem: string, alias: string][] } {
  const byStem = new Map<string, string>();
  const taken = new Set<string>();
  return {
    aliasFor(stem) {
      const known = byStem.get(stem);
      if (known) return known;
      const base = `$${stem.replace(/[^A-Za-z0-9_]/g, '_')}`;
      let alias = base;
      for (let n = 2; taken.has(alias); n += 1) alias = `${base}_${n}`;
      byStem.set(stem, alias);
      taken.add(alias);
      return alias;
    },
    entries: () => [...byStem.entries()],
  };
}
