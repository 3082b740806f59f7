// A deliberately small path language for suites: `a.b`, `a[0]`, `a[*].login`, `$` for the
// root. `[*]` maps the rest of the path over an array, so `assignees[*].login` is a list.
export function selectPath(root: unknown, path: string): unknown {
  const tokens = path
    .replace(/^\$\.?/, '')
    .split(/\.|(?=\[)/)
    .filter((t) => t.length > 0);
  const step = (value: unknown, rest: string[]): unknown => {
    if (rest.length === 0) return value;
    const [token, ...tail] = rest;
    if (token === '[*]') return Array.isArray(value) ? value.map((v) => step(v, tail)) : undefined;
    const index = /^\[(\d+)\]$/.exec(token);
    if (index) return Array.isArray(value) ? step(value[Number(index[1])], tail) : undefined;
    if (value && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, token)) {
      return step((value as Record<string, unknown>)[token], tail);
    }
    return undefined;
  };
  return step(root, tokens);
}

/** JSON deep equality (object key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual((a as never)[k], (b as never)[k]));
  }
  return false;
}

/** First path where `actual` does not contain `expected` (objects: subset; arrays: same length, element-wise). */
export function findSubsetMismatch(
  actual: unknown,
  expected: unknown,
  path = '$',
): { path: string; expected: unknown; actual: unknown } | undefined {
  if (expected && typeof expected === 'object' && !Array.isArray(expected)) {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return { path, expected, actual };
    for (const [key, value] of Object.entries(expected)) {
      // Own properties only: `toString` or `constructor` in an expectation must not match Object's.
      const own = Object.hasOwn(actual, key) ? (actual as Record<string, unknown>)[key] : undefined;
      const mismatch = findSubsetMismatch(own, value, `${path}.${key}`);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return { path, expected, actual };
    for (let i = 0; i < expected.length; i++) {
      const mismatch = findSubsetMismatch(actual[i], expected[i], `${path}[${i}]`);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  return jsonEqual(actual, expected) ? undefined : { path, expected, actual };
}

/** A copy of `root` without the values the paths select (same path language as selectPath). */
export function withoutPaths(root: unknown, paths: string[]): unknown {
  if (paths.length === 0) return root;
  const copy = structuredClone(root);
  for (const path of paths) {
    const tokens = path
      .replace(/^\$\.?/, '')
      .split(/\.|(?=\[)/)
      .filter((t) => t.length > 0);
    const last = tokens.pop();
    if (last === undefined) return undefined; // "$" itself: the whole body is ignored
    const parents = tokens.length ? selectPath(copy, `$.${tokens.join('.').replace(/\.\[/g, '[')}`) : copy;
    // Each [*] on the way adds one level of arrays around the parents selected.
    const stars = tokens.filter((t) => t === '[*]').length;
    const spread = stars ? ((parents as unknown[] | undefined) ?? []).flat(stars - 1) : [parents];
    for (const parent of spread) {
      if (!parent || typeof parent !== 'object') continue;
      if (last === '[*]' && Array.isArray(parent)) parent.length = 0;
      else if (/^\[\d+\]$/.test(last) && Array.isArray(parent)) parent.splice(Number(last.slice(1, -1)), 1, null);
      else if (!Array.isArray(parent)) delete (parent as Record<string, unknown>)[last];
    }
  }
  return copy;
}
