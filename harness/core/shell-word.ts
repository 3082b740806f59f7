// A word as a POSIX shell reads it back: as it is when it holds only safe characters,
// else single-quoted. Every command touchstone prints for a person to paste uses it.
//
// Hand-written, not shell-quote: its quote() mixes double quotes and backslash escapes
// (`"it's"`, `x\|y`), whose rules differ between shells, and once let a crafted word through
// unquoted (CVE-2021-42740); single quotes are the one POSIX form with no special character
// inside but the quote itself, and this is that rule in three lines.
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function shellWord(word: string): string {
  return SAFE.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
