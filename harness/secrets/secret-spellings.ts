// The spellings of a known secret value (raw, percent-encoded, base64 in its three forms) and
// the sweeps that replace them in text, URLs and latin1-decoded bytes, keeping placeholders as
// they are. The secrets policy (secret-policy.ts) compiles them again whenever it learns a
// secret; the same forms go to the byte replacer (byte-replacer.ts) for bodies.
//
// Decision where the brief is silent: a known secret written with JSON escapes (`\u0073ecret`,
// `\/`) in text is found by unfolding those escapes; the text is then kept unfolded where it
// held one (the same JSON value, one spelling). Bytes (a streamed body over 1 MiB, a replay
// key's body, a recorded body before its redaction) are matched against every escaped spelling
// of each secret form instead (json-escapes.ts), and only the matched bytes are replaced.

/** Every placeholder the sweeps keep as they are (besides a report's literal placeholders). */
export const PLACEHOLDER_SOURCE = '<secret:[A-Za-z0-9_.-]+>|<redacted>|%3Csecret%3A[A-Za-z0-9_.-]+%3E|%3Credacted%3E';

export type Sweep = (text: string) => string;

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const urlPlaceholder = (p: string) => (p.startsWith('<') ? encodeURIComponent(p) : p);

/**
 * The text with its JSON escapes of printable characters (`\u0073`, `\/`) written as the
 * characters they stand for; an escaped backslash, quote or control character stays escaped,
 * so a JSON text stays the same JSON value.
 */
export function unfoldJsonEscapes(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|[\s\S])/g, (whole, escaped: string) => {
    if (escaped === '/') return '/';
    if (escaped.length !== 5) return whole;
    const code = Number.parseInt(escaped.slice(1), 16);
    const plain = code >= 0x20 && code !== 0x22 && code !== 0x5c && (code < 0xd800 || code > 0xdfff);
    return plain ? String.fromCharCode(code) : whole;
  });
}

/** Every spelling of a secret value the sweep looks for, each with what replaces it. */
function spellings(value: string, placeholder: string): Array<[string, string]> {
  const b64 = Buffer.from(value).toString('base64');
  return [
    [value, placeholder],
    [encodeURIComponent(value), urlPlaceholder(placeholder)],
    [b64, placeholder],
    [b64.replace(/=+$/, ''), placeholder],
    [Buffer.from(value).toString('base64url'), placeholder],
  ];
}

function makeSweep(forms: Array<[string, string]>, keep: string, inUrl: boolean): Sweep {
  if (forms.length === 0) return (text) => text;
  const byForm = new Map(forms);
  const pattern = new RegExp(`(${keep})|${forms.map(([f]) => escapeRegExp(f)).join('|')}`, 'g');
  return (text) =>
    text.replace(pattern, (match: string, kept: string | undefined) => {
      if (kept !== undefined) return kept;
      const placeholder = byForm.get(match)!;
      return inUrl ? urlPlaceholder(placeholder) : placeholder;
    });
}

/** A text sweep that also finds secrets spelt with JSON escapes. */
function unfoldingSweep(sweep: Sweep): Sweep {
  return (text) => {
    const out = sweep(text);
    if (!text.includes('\\')) return out;
    const unfolded = unfoldJsonEscapes(out);
    if (unfolded === out) return out;
    const swept = sweep(unfolded);
    return swept === unfolded ? out : swept;
  };
}

/**
 * The sweeps of every spelling of the `known` values (value -> placeholder) and those spellings
 * (`forms`: [spelling, placeholder], longest first), keeping what the `keep` pattern matches.
 */
export function compileSweeps(known: ReadonlyMap<string, string>, keep: string): Sweeps {
  const sorted = [...known].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const key = JSON.stringify([keep, sorted]);
  let sweeps = compiled.get(key);
  if (!sweeps) {
    if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, (sweeps = compile(sorted, keep)));
  }
  return sweeps;
}

export type Sweeps = ReturnType<typeof compile>;

/**
 * Sweeps by what they were compiled from. Each case of a run makes its policies anew (its own
 * secrets join the run's tokens), mostly from the same values, and a regular expression of every
 * spelling of every token took about 2 ms to build: 0.9 s of a whole run's worker went to
 * compiling the same sweeps again. The sweeps hold no state, so they are shared; the oldest
 * goes first when COMPILED_KEPT are kept.
 */
const compiled = new Map<string, Sweeps>();
const COMPILED_KEPT = 32;

function compile(sorted: ReadonlyArray<readonly [string, string]>, keep: string) {
  const byForm = new Map<string, string>();
  for (const [value, placeholder] of sorted) {
    for (const [form, p] of spellings(value, placeholder)) if (form.length > 0 && !byForm.has(form)) byForm.set(form, p);
  }
  const forms = [...byForm].sort(([a], [b]) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
  const latin1 = forms.map(([f, p]): [string, string] => [Buffer.from(f).toString('latin1'), p]);
  return {
    forms,
    text: unfoldingSweep(makeSweep(forms, keep, false)),
    url: makeSweep(forms, keep, true),
    bytes: makeSweep(latin1, keep, false),
  };
}
