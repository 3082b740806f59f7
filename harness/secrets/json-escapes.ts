// A secret form written with JSON escapes, found in bytes as they stream: `\u0073ecret`,
// `s\u0065cr\u0065t`, `https:\/\/`, `\"`, in either hex case, behind any nesting of JSON in JSON
// strings (`\\u0073`), in any mix with plain characters. The byte replacer (byte-replacer.ts)
// asks it for the next such spelling; every plain spelling is the replacer's own search.
//
// Decisions where the brief is silent:
// - Matched, not decoded: each secret form is compiled to its characters, each either its own
//   UTF-8 bytes or an escape of its UTF-16 code unit(s). A decoding window in front of the
//   replacer would have to map every replaced range back to the bytes it came from and hold
//   undecoded text besides; matching needs neither. Only the matched bytes are replaced: the
//   other escapes of the body stay as they were written.
// - The search is anchored on escapes: a spelling that is not plain holds at least one, and
//   the part before its first escape is plain. So only escapes of a code unit some form holds
//   are visited (found natively, see `escapes` below), and at each only the forms with that
//   unit at some character k are tried: the k characters before it compared as plain bytes,
//   the rest matched forward. Matches found at an earlier escape start earlier (the plain part
//   before a later one holds no backslash), so the first escape that yields a match yields the
//   earliest one.
// - An escape is a run of 1 to MAX_RUN backslashes, then `u` and four hex digits or one of
//   `/ " b f n r t`: a JSON text inside a JSON string (a webhook's payload, a log line) doubles
//   the backslashes at each level, and MAX_RUN = 8 covers four levels. A longer run is matched
//   from its last eight backslashes. This bounds an escaped spelling, hence what a stream holds
//   back: MAX_UNIT bytes per code unit (a 40-character token: 520 bytes).
// - A form whose escaped spelling could be longer than MAX_ESCAPED (64 KiB: over 5,041
//   characters, a learnt secret can be up to 64 KiB) is searched plain only: a stream holds back
//   the longest spelling and copies it in front of every chunk, and a megabyte held back per
//   body would cost more than such a value (no credential anyone echoes escaped) is worth.
// - A backslash in a secret is matched as `\u005c` only, never as `\\` (a run of backslashes is
//   the escape's prefix): tokens with backslashes are not something servers issue.
const BACKSLASH = 0x5c;
const MAX_RUN = 8;
const MAX_UNIT = MAX_RUN + 5;
/** The longest escaped spelling searched (a form of over 5,041 UTF-16 units is searched plain only). */
const MAX_ESCAPED = 64 * 1024;
/** The code unit of each one-letter escape (`\/`, `\"`, `\n`, …), by the letter's byte. */
const SHORT_ESCAPES = new Map([...'/"bfnrt'].map((letter, i) => [letter.charCodeAt(0), [0x2f, 0x22, 8, 12, 10, 13, 9][i]]));

interface SpelledChar {
  /** Its UTF-8 bytes. */
  plain: Buffer;
  /** Its UTF-16 code units (two for a character beyond the BMP, escaped as a surrogate pair). */
  units: number[];
}

interface Form {
  chars: SpelledChar[];
  /** Byte offset of each character in the plain spelling. */
  offsets: number[];
  plain: Buffer;
}

export interface EscapedSpellings {
  /** The longest escaped spelling of any form, in bytes. */
  readonly maxLength: number;
  /**
   * The search in `bytes`: it finds the first escape at or after `from` where a form's escaped
   * spelling matches, and calls `consider` with each such match (start, end, the form's index).
   * Only matches starting in [from, before) count. Returns whether any was considered.
   */
  over(bytes: Buffer): (from: number, before: number, consider: (at: number, end: number, index: number) => void) => boolean;
}

/** Where the escape decoded by `decodeEscape` ends (module state: no object per escape on the hot path). */
let escapeEnd = 0;

/** The code unit of the escape starting with the backslash at `at` (its end in escapeEnd), or -1. */
function decodeEscape(bytes: Buffer, at: number): number {
  let q = at;
  while (q < bytes.length && bytes[q] === BACKSLASH && q - at < MAX_RUN) q++;
  if (q >= bytes.length) return -1;
  const letter = bytes[q];
  if (letter === 0x75) {
    if (q + 5 > bytes.length) return -1;
    let unit = 0;
    for (let i = q + 1; i < q + 5; i++) {
      const b = bytes[i];
      const digit = b >= 0x30 && b <= 0x39 ? b - 0x30 : b >= 0x61 && b <= 0x66 ? b - 0x57 : b >= 0x41 && b <= 0x46 ? b - 0x37 : -1;
      if (digit < 0) return -1;
      unit = unit * 16 + digit;
    }
    escapeEnd = q + 5;
    return unit;
  }
  const unit = SHORT_ESCAPES.get(letter);
  if (unit === undefined) return -1;
  escapeEnd = q + 1;
  return unit;
}

/** Where characters k.. of `form` end when spelt from `at` on, each plain or escaped, or -1. */
function matchFrom(bytes: Buffer, at: number, form: Form, k: number): number {
  let i = at;
  for (let c = k; c < form.chars.length; c++) {
    const { plain, units } = form.chars[c];
    if (bytes[i] === BACKSLASH) {
      for (const unit of units) {
        if (bytes[i] !== BACKSLASH || decodeEscape(bytes, i) !== unit) return -1;
        i = escapeEnd;
      }
      continue;
    }
    if (i + plain.length > bytes.length) return -1;
    for (let j = 0; j < plain.length; j++) if (bytes[i + j] !== plain[j]) return -1;
    i += plain.length;
  }
  return i;
}

/** `forms[i]` null: that rule has no escaped spelling searched. */
export function compileEscapedSpellings(forms: ReadonlyArray<string | null>): EscapedSpellings | undefined {
  const compiled: Array<Form | null> = [];
  // The code unit an escape decodes to -> the forms and characters it may stand for.
  const byUnit = new Map<number, Array<{ index: number; k: number }>>();
  let maxLength = 0;
  for (const [index, text] of forms.entries()) {
    if (text === null || text.length === 0 || text.length * MAX_UNIT > MAX_ESCAPED) {
      compiled.push(null);
      continue;
    }
    const chars = [...text].map((ch) => ({
      plain: Buffer.from(ch),
      units: ch.length === 2 ? [ch.charCodeAt(0), ch.charCodeAt(1)] : [ch.charCodeAt(0)],
    }));
    const offsets: number[] = [];
    let offset = 0;
    for (const ch of chars) {
      offsets.push(offset);
      offset += ch.plain.length;
    }
    compiled.push({ chars, offsets, plain: Buffer.from(text) });
    maxLength = Math.max(
      maxLength,
      chars.reduce((sum, ch) => sum + Math.max(ch.plain.length, ch.units.length * MAX_UNIT), 0),
    );
    // The characters before the first escape are compared as plain bytes: never a backslash.
    for (let k = 0; k < chars.length; k++) {
      const candidates = byUnit.get(chars[k].units[0]) ?? [];
      candidates.push({ index, k });
      byUnit.set(chars[k].units[0], candidates);
      if (chars[k].units[0] === BACKSLASH) break;
    }
  }
  if (byUnit.size === 0) return undefined;
  // The escapes that may stand for a character of some form: a run of backslashes, then `u` and
  // the hex of such a code unit (either case), or a one-letter escape of such a character.
  // Found in two native steps, so that escapes of other characters (`\u00e9` in a text written
  // ASCII-only, `\n`, a Windows path, binary bytes) cost no JavaScript each: a search for a
  // backslash followed by `u` or such a letter tells whether the bytes may hold one at all (most
  // bodies: one pass, nothing else), and a regular expression over the bytes as latin1 text (one
  // character per byte) finds them. Measured on 256 MiB in 64 KiB chunks (a throwaway script,
  // one configured secret, several runs on a shared 2-core machine): a body of `\u00e9`, `\n`
  // and `\/` escapes every 45 bytes ran at 62 MiB/s when each `\u` (and, placeholders then
  // searched too, each `\/`) was visited from JavaScript, at 500-790 MiB/s with the regular
  // expression (4,000-5,000 without any escaped search); a body with a backslash every 95 bytes
  // and no such escape (bench:proxy's streamed bytes) at 540-610 against 600-650 MiB/s.
  const hex = (unit: number) => [...unit.toString(16).padStart(4, '0')].map((d) => (d >= 'a' ? `[${d}${d.toUpperCase()}]` : d)).join('');
  const letters = [...SHORT_ESCAPES.keys()].filter((letter) => byUnit.has(SHORT_ESCAPES.get(letter)!));
  const needles = [0x75, ...letters].map((letter) => Buffer.from([BACKSLASH, letter]));
  const alternatives = [...byUnit.keys()].map((unit) => `u${hex(unit)}`);
  if (letters.length > 0) alternatives.push(`[${letters.map((letter) => `\\x${letter.toString(16)}`).join('')}]`);
  const escapes = new RegExp(`\\\\{1,${MAX_RUN}}(?:${alternatives.join('|')})`, 'g');
  return {
    maxLength,
    over(bytes) {
      // Per buffer, made at its first search (sinks share one compiled EscapedSpellings): the
      // latin1 text is made once however many matches the buffer holds.
      let text: string | undefined;
      return (from, before, consider) => {
        if (text === undefined) {
          if (!needles.some((needle) => bytes.includes(needle, from))) return false;
          text = bytes.toString('latin1');
        }
        escapes.lastIndex = from;
        for (let m = escapes.exec(text); m !== null; m = escapes.exec(text)) {
          const first = m.index;
          let found = false;
          for (const { index, k } of byUnit.get(decodeEscape(bytes, first)) ?? []) {
            const form = compiled[index]!;
            const at = first - form.offsets[k];
            if (at < from || at >= before || (k > 0 && form.plain.compare(bytes, at, first, 0, form.offsets[k]) !== 0)) continue;
            const end = matchFrom(bytes, first, form, k);
            if (end < 0) continue;
            consider(at, end, index);
            found = true;
          }
          if (found) return true;
        }
        return false;
      };
    },
  };
}
