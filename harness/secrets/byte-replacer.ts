// Secret forms replaced in bytes, whole or streamed in chunks (a secret may straddle two), and
// the sinks' redaction of a body: its secret fields scrubbed first (a JSON or form scrubber),
// then every known secret form replaced, plain or written with JSON escapes (json-escapes.ts).
// The secrets policy (secret-policy.ts) hands these out: to body sinks as bodies stream to
// cassettes, for a replay key's request body, and for JSON kept as text.
import { compileEscapedSpellings, type EscapedSpellings } from './json-escapes.js';
import type { Scrubber } from './json-field-scrubber.js';

/** What a body's redaction applies, in this order. */
export interface BodyRedaction {
  /** For a JSON or form body: a scrubber replacing its secret fields as it streams (an inline body is redacted whole later). */
  scrub?: (emit: (bytes: Buffer) => void) => Scrubber;
  /** Secret forms replaced in the stored (decoded) bytes, across chunk boundaries. */
  replacements?: Replacements;
}

/**
 * [secret form, placeholder] pairs made ready for byte search; build once, share among sinks.
 * Each placeholder is also a rule that keeps it as it is (`keep`), found first where a secret
 * starts at the same byte: as redaction's sweep never rewrites a placeholder, a secret that
 * occurs inside one (a configured secret "secret" in `<secret:client>`, written by the field
 * scrubber just before) must not be replaced there, or the body would replay corrupted.
 */
export interface Replacements {
  readonly rules: ReadonlyArray<{ secret: Buffer; placeholder: Buffer; keep: boolean }>;
  /** The JSON-escaped spellings of the secrets (by rule index), when any is searched. */
  readonly escaped?: EscapedSpellings;
  /** Longest spelling − 1: how many trailing bytes a streamed scan must hold back. */
  readonly holdBack: number;
}

/**
 * `secrets` are searched in every JSON-escaped spelling too; `others` (the recorded origin
 * standing for the live ones: no secret) and the placeholders only as written, as the inline
 * sweeps do. (A placeholder spelt with escapes would come from the target, not from touchstone,
 * and searching for one would make every `\/` of a body a candidate: measured, 88 against 763
 * MiB/s on a body with an escaped slash every 45 bytes.)
 */
export function compileReplacements(
  secrets: ReadonlyArray<readonly [string, string]>,
  others: ReadonlyArray<readonly [string, string]> = [],
): Replacements {
  const forms = [...secrets.map(([s, p]) => ({ s, p, escaped: true })), ...others.map(([s, p]) => ({ s, p, escaped: false }))].filter(
    ({ s }) => s.length > 0,
  );
  const placeholders = [...new Set(forms.map(({ p }) => p))];
  const rules = [
    ...placeholders.map((p) => ({ secret: Buffer.from(p), placeholder: Buffer.from(p), keep: true })),
    ...forms.map(({ s, p }) => ({ secret: Buffer.from(s), placeholder: Buffer.from(p), keep: false })),
  ];
  const escapedForms = [...placeholders.map(() => null), ...forms.map(({ s, escaped }) => (escaped ? s : null))];
  const escaped = secrets.length > 0 ? compileEscapedSpellings(escapedForms) : undefined;
  const longest = Math.max(0, escaped?.maxLength ?? 0, ...rules.map((r) => r.secret.length));
  return { rules, ...(escaped && { escaped }), holdBack: Math.max(0, longest - 1) };
}

export const NO_REPLACEMENTS = compileReplacements([]);
const BACKSLASH = 0x5c;

interface Match {
  at: number;
  end: number;
  keep: boolean;
  placeholder: Buffer;
}
/** Whether `match` goes before `best`: it starts first, or at the same byte it is a kept placeholder or longer. */
const beats = (match: Match, best: Match | undefined): boolean =>
  !best || match.at < best.at || (match.at === best.at && !best.keep && (match.keep || match.end - match.at > best.end - best.at));

/** `bytes` with every secret form replaced; the same buffer when none occurs. */
export function replaceAll(bytes: Buffer, replacements: Replacements): Buffer {
  const escapes = replacements.escaped !== undefined && bytes.includes(BACKSLASH);
  if (!escapes && !replacements.rules.some((rule) => bytes.includes(rule.secret))) return bytes;
  const pieces: Buffer[] = [];
  const replacer = createReplacer(replacements, (piece) => pieces.push(piece));
  replacer.write(bytes);
  replacer.flush();
  return replacer.replaced ? Buffer.concat(pieces) : bytes;
}

/** The bytes a sink would store of a body held whole in memory: secret fields scrubbed (with `scrub`), secret forms replaced. */
export function redactedBytes(bytes: Buffer, options: BodyRedaction): Buffer {
  if (!options.scrub) return replaceAll(bytes, options.replacements ?? NO_REPLACEMENTS);
  const pieces: Buffer[] = [];
  const writer = createRedactingWriter(options, (piece) => pieces.push(piece));
  writer.write(bytes);
  writer.flush();
  return Buffer.concat(pieces);
}

/** Secret fields scrubbed (with `scrub`), then secret forms replaced, across chunk boundaries. */
export function createRedactingWriter(options: BodyRedaction, emit: (bytes: Buffer) => void) {
  const replacer = createReplacer(options.replacements ?? NO_REPLACEMENTS, emit);
  if (!options.scrub) return replacer;
  const scrubber = options.scrub((bytes) => replacer.write(bytes));
  return {
    write: (chunk: Buffer) => scrubber.write(chunk),
    flush(): void {
      scrubber.flush();
      replacer.flush();
    },
    get replaced(): boolean {
      return scrubber.replaced || replacer.replaced;
    },
  };
}

/**
 * Replaces secret forms in a byte stream. The last (longest spelling − 1) bytes are held
 * back, because a secret may straddle two chunks; a match starting earlier is complete.
 */
function createReplacer({ rules, escaped, holdBack }: Replacements, emit: (bytes: Buffer) => void) {
  let carry: Buffer = Buffer.alloc(0);
  let replaced = false;

  const scan = (buffer: Buffer, final: boolean): void => {
    const safe = final ? buffer.length : buffer.length - holdBack;
    let pos = 0;
    // Each rule's next occurrence at or after pos (-1: none left), searched again only once
    // pos has passed it: a body with thousands of matches is scanned once per rule, not once
    // per rule per match. The same for the next escaped spelling (null: none left).
    const next = rules.map(() => -2);
    let nextEscaped: Match | null | undefined;
    let found: Match | undefined;
    let search: ReturnType<EscapedSpellings['over']> | undefined;
    const consider = (at: number, end: number, i: number): void => {
      const match = { at, end, keep: rules[i].keep, placeholder: rules[i].placeholder };
      if (beats(match, found)) found = match;
    };
    for (;;) {
      found = undefined;
      if (escaped && nextEscaped !== null && (nextEscaped === undefined || nextEscaped.at < pos))
        nextEscaped = (search ??= escaped.over(buffer))(pos, safe, consider) ? found! : null;
      let best = nextEscaped ?? undefined;
      for (const [i, rule] of rules.entries()) {
        if (next[i] !== -1 && next[i] < pos) next[i] = buffer.indexOf(rule.secret, pos);
        const at = next[i];
        if (at === -1 || at >= safe) continue;
        const match = { at, end: at + rule.secret.length, keep: rule.keep, placeholder: rule.placeholder };
        if (beats(match, best)) best = match;
      }
      if (!best) break;
      if (best.at > pos) emit(buffer.subarray(pos, best.at));
      // A kept placeholder stays as it was spelt.
      emit(best.keep ? buffer.subarray(best.at, best.end) : best.placeholder);
      if (!best.keep) replaced = true;
      pos = best.end;
    }
    const cut = Math.max(pos, safe);
    if (cut > pos) emit(buffer.subarray(pos, cut));
    carry = buffer.subarray(cut);
  };

  return {
    write(chunk: Buffer): void {
      if (rules.length === 0) return emit(chunk);
      scan(carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk, false);
    },
    flush(): void {
      if (carry.length > 0) scan(carry, true);
      carry = Buffer.alloc(0);
    },
    get replaced(): boolean {
      return replaced;
    },
  };
}
