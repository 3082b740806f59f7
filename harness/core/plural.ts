// A count and its noun, agreeing: "1 case", "2 cases", "0 misses". Output a person reads says
// what it counts in words, never "case(s)".
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The first `shown` names, and how many more: "a, b, c and 4 more". Messages name a few of many so. */
export const someOf = (names: readonly string[], shown: number): string =>
  names.slice(0, shown).join(', ') + (names.length > shown ? ` and ${names.length - shown} more` : '');
