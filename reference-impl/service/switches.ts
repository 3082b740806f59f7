// What the reference's built-in faults and variations have in common: a fixed list of
// names, and the set of them switched on now (from the command line at start, replaced at
// run time through the control API, back to the start's on a reset). A fault breaks a rule
// of the spec; a variation makes another choice the spec allows. Each is read at the one
// place where the reference decides that behaviour (faults.ts, variants.ts).
export interface Switches<T extends string> {
  on(name: T): boolean;
  /** The names now on, in the order of the list. */
  active(): T[];
  set(names: readonly T[]): void;
  /** Back to the names the service started with (a control-API reset). */
  reset(): void;
}

export function createSwitches<T extends string>(known: readonly T[], initial: readonly T[] = []): Switches<T> {
  let current = new Set(initial);
  return {
    on: (name) => current.has(name),
    active: () => known.filter((name) => current.has(name)),
    set(names) {
      current = new Set(names);
    },
    reset() {
      current = new Set(initial);
    },
  };
}
