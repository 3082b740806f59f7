// Fills a request template from values known at run time: ${name} inside strings comes
// from captures of earlier steps (and ${n} in limits cases); a string that is exactly
// "$list" becomes the list value itself (an array), so bodies can carry generated lists.
import { HarnessError } from '../core/errors.js';
import type { Json } from '../core/suite-format.js';

export interface Bindings {
  values: Record<string, string | number>;
  list?: Json[];
}

export function interpolate<T>(template: T, bindings: Bindings): T {
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (value === '$list') {
        if (!bindings.list) throw new HarnessError('CONFIG', '$list used outside a limits case');
        return bindings.list;
      }
      return value.replace(/\$\{([A-Za-z0-9_-]+)\}/g, (_, name: string) => {
        if (!(name in bindings.values)) throw new HarnessError('CONFIG', `\${${name}} is not captured by an earlier step`);
        return String(bindings.values[name]);
      });
    }
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return walk(template) as T;
}
