// A word as a POSIX shell reads it back: as it is when it holds only safe characters,
// else single-quoted. Every command touchstone prints for a person to paste uses it.
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function shellWord(word: string): string {
  return SAFE.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
