// What the three references' built-in faults have in common: a fixed list of names, and a
// test of whether a name from a flag or the control API is one of them. Each reference
// keeps its own list beside the code it switches (service/faults.ts, plugin/faults.ts,
// compiler/faults.ts); suites/faults/*.yaml says what each does and which requirements it
// breaks, and a test holds the two equal.

/** No fault on: what a reference runs with unless told otherwise. */
export const NO_FAULTS: ReadonlySet<never> = new Set();

/** Whether `name` is one of `list`, as the type of its members. */
export function isListed<T extends string>(list: readonly T[], name: string): name is T {
  return (list as readonly string[]).includes(name);
}
