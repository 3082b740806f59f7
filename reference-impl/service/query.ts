// Reading request parameters as the handlers need them: a repeated query parameter counts
// once, by its first value (`?ref=a&ref=b` reads `a`), as real hosts read them; an id in
// the path is digits.
export function queryValue(query: unknown, name: string): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
}

/** The number a path segment names as an id (digits only, at most 15 so it stays exact), or undefined. */
export function pathId(text: string): number | undefined {
  return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}
