// A count and its noun, agreeing: "1 case", "2 cases", "0 misses". Output a person reads says
// what it counts in words, never "case(s)".
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
