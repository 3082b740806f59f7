// Secret forms replaced in bytes, whole or streamed in chunks (a secret may straddle two), and
// the sinks' redaction of a body: its secret fields scrubbed first (a JSON or form scrubber),
// then every known secret form replaced. The secrets policy (secret-policy.ts) hands these out:
// to body sinks as bodies stream to cassettes, for a replay key's request body, and for JSON
// kept as text.
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
  /** Longest secret or placeholder − 1: how many trailing bytes a streamed scan must hold back. */
  readonly holdBack: number;
}

export function compileReplacements(pairs: ReadonlyArray<readonly [string, string]>): Replacements {
  const forms = pairs.filter(([secret]) => secret.length > 0);
  const placeholders = [...new Set(forms.map(([, p]) => p))];
  const rules = [
    ...placeholders.map((p) => ({ secret: Buffer.from(p), placeholder: Buffer.from(p), keep: true })),
    ...forms.map(([s, p]) => ({ secret: Buffer.from(s), placeholder: Buffer.from(p), keep: false })),
  ];
  return { rules, holdBack: Math.max(0, ...rules.map((r) => r.secret.length - 1)) };
}

export const NO_REPLACEMENTS = compileReplacements([]);

/** `bytes` with every secret form replaced; the same buffer when none occurs. */
export function replaceAll(bytes: Buffer, replacements: Replacements): Buffer {
  if (!replacements.rules.some((rule) => bytes.includes(rule.secret))) return bytes;
  const pieces: Buffer[] = [];
  const replacer = createReplacer(replacements, (piece) => pieces.push(piece));
  replacer.write(bytes);
  replacer.flush();
  return Buffer.concat(pieces);
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
 * Replaces secret forms in a byte stream. The last (longest secret − 1) bytes are held
 * back, because a secret may straddle two chunks; a match starting earlier is complete.
 */
function createReplacer({ rules, holdBack }: Replacements, emit: (bytes: Buffer) => void) {
  let carry: Buffer = Buffer.alloc(0);
  let replaced = false;

  const scan = (buffer: Buffer, final: boolean): void => {
    const safe = final ? buffer.length : buffer.length - holdBack;
    let pos = 0;
    // Each rule's next occurrence at or after pos (-1: none left), searched again only once
    // pos has passed it: a body with thousands of matches is scanned once per rule, not once
    // per rule per match.
    const next = rules.map(() => -2);
    for (;;) {
      let best: { at: number; rule: (typeof rules)[number] } | undefined;
      for (const [i, rule] of rules.entries()) {
        if (next[i] !== -1 && next[i] < pos) next[i] = buffer.indexOf(rule.secret, pos);
        const at = next[i];
        if (at === -1 || at >= safe) continue;
        if (!best || at < best.at || (at === best.at && !best.rule.keep && (rule.keep || rule.secret.length > best.rule.secret.length)))
          best = { at, rule };
      }
      if (!best) break;
      if (best.at > pos) emit(buffer.subarray(pos, best.at));
      emit(best.rule.placeholder);
      if (!best.rule.keep) replaced = true;
      pos = best.at + best.rule.secret.length;
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
