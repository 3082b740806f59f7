// Reading a query parameter as the handlers need it: a repeated parameter counts once,
// by its first value (`?ref=a&ref=b` reads `a`), as real hosts read them.
export function queryValue(query: unknown, name: string): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
}
