// The one secrets policy of touchstone: which parts of an HTTP exchange are secret (header
// names, JSON field names and paths, form fields, query-string parameters, the literal values
// a run was given) and what replaces them. Every writer applies it: cassettes and replay keys
// (cassette/redaction.ts), the recording proxy's streamed bodies (bodyRedaction), and the
// exchange records, curl lines and messages of reports (http/exchange-record.ts), from which
// results.json, report.html, JUnit, CTRF, summary.md and repro.sh are rendered.
// Its parts: secret-rules.ts (what is secret by its name), secret-spellings.ts (a secret value's
// spellings and the sweeps of text), byte-replacer.ts and json-escapes.ts (the same forms in
// bytes), json-field-scrubber.ts and form-field-scrubber.ts (secret fields as bodies stream).
//
// Why an unknown secret becomes `<redacted>` and not a hash of itself: a hash of a weak
// password or short token can be brute-forced offline from a committed cassette, and a
// keyed hash would need a key shared by every machine that replays it. A fixed
// placeholder leaks nothing and is the same everywhere. A value the user names in
// `secrets` becomes `<secret:NAME>`, which `restore` turns back into the value on replay.
//
// Decisions where the brief is silent:
// - Discovered values shorter than MIN_SWEEP_LENGTH are replaced where a rule found them
//   but not swept through the rest of the traffic ("dark" from `theme=dark` would mangle
//   unrelated text). Configured secrets and literals are swept whatever their length.
// - A message is scrubbed in two passes (twoPass): the first only discovers, so a token
//   first seen in the response's Set-Cookie is also removed from the request body.
// - Existing placeholders are never rewritten, so a configured secret that happens to be
//   the word "secret" cannot corrupt `<secret:NAME>`.
// - A JSON text body goes through the byte scanner that scrubs streamed bodies
//   (json-field-scrubber.ts): each secret value is replaced where it stands, whatever its
//   escapes (`\/`, `\u003c`), its type (a number) or its depth (it keeps no recursion, so a
//   body nested 20,000 deep is scrubbed like any other), and nothing else in the text changes.
// - A known secret written with JSON escapes is found too (secret-spellings.ts, json-escapes.ts).
// - A Basic credential's password is discovered too, so it is swept where echoed.
// - Secret JSON fields hide strings and numbers; null and booleans carry nothing and stay;
//   objects under a secret field *name* are walked (the name is a container), while an
//   object at a configured jsonPath becomes one placeholder.
import { HarnessError } from '../core/errors.js';
import type { HeaderPairs } from '../core/results.js';
import { compileReplacements, redactedBytes, type BodyRedaction, type Replacements } from './byte-replacer.js';
import { createFormFieldScrubber, decodeFormPart, type FormFieldRules, isFormMediaType } from './form-field-scrubber.js';
import { createJsonFieldScrubber, type FieldRules, type PathStep } from './json-field-scrubber.js';
import {
  concretePath,
  genericPath,
  REDACTED,
  SCHEME_HEADERS,
  SECRET_BODY_FIELDS,
  SECRET_HEADERS,
  isSecretQueryName,
} from './secret-rules.js';
import { compileSweeps, escapeRegExp, PLACEHOLDER_SOURCE, type Sweep } from './secret-spellings.js';

export { isSecretQueryName, REDACTED, SECRET_BODY_FIELDS } from './secret-rules.js';

/** What a user may add to the policy (a proxy config's `redaction`, a cassette command's --secrets). */
export interface RedactionConfig {
  /** NAME -> value; replaced by the stable placeholder <secret:NAME>. */
  secrets?: Record<string, string>;
  /** Extra header names whose values are secret. */
  headers?: string[];
  /** Extra query keys. */
  queryParams?: string[];
  /** Extra JSON field names (any depth); also form-urlencoded field names. */
  bodyFields?: string[];
  /** Extra JSON paths like $.a.b or $.items[*].token. */
  jsonPaths?: string[];
}

export interface SecretPolicyConfig extends RedactionConfig {
  /**
   * Literal values swept everywhere, each with its own placeholder (a report's run tokens
   * become `$TOKEN`, which its curl lines expand); the placeholders are kept as they are.
   */
  literals?: Iterable<readonly [string, string]>;
}

const MIN_SWEEP_LENGTH = 8;
const SECRET_NAME = /^[A-Za-z0-9_.-]+$/;
export type Side = 'request' | 'response';
/** One pass over a message: where notes go, and the sweeps of every known secret form. */
export interface Pass {
  notes: Set<string>;
  text: Sweep;
  /** Placeholders percent-encoded, so the URL stays valid. */
  url: Sweep;
  /** Over latin1-decoded bytes, so inline binary bodies are swept byte for byte. */
  bytes: Sweep;
}

export interface SecretPolicy {
  /**
   * Runs `apply` once to discover every secret it holds, then again to scrub with all of
   * them; when the first pass learnt nothing new its result already is the answer (the
   * common case, and the proxy's per-request cost).
   */
  twoPass<T>(apply: (pass: Pass) => T): T;
  /** Inline scrubbers, for a pass: a header list, a URL, a body (text, parsed JSON, bytes). */
  headers(headers: HeaderPairs, side: Side, pass: Pass): HeaderPairs;
  url(url: string, pass: Pass): string;
  /** A text body: a form by its media type, JSON (the byte scanner) when it starts as JSON, else swept. */
  bodyText(text: string, contentType: string, side: Side, pass: Pass): string;
  /** A parsed JSON body; the same value (===) when nothing in it is secret. */
  bodyJson(value: unknown, side: Side, pass: Pass): unknown;
  /** A binary body, swept byte for byte. */
  bodyBytes(bytes: Buffer, pass: Pass): Buffer;
  /** Free text (a message, a log line): every known secret form swept. */
  sweepText(text: string): string;
  /** The URL of a request with nothing to discover: known secrets swept from it. */
  sweepUrl(url: string): string;
  /**
   * The streaming scrubber of a body of this content type (a recording proxy's body sink):
   * its secret fields (form or JSON rules; any body not a form is scanned as JSON, and the
   * scanner passes on what is not JSON from its first byte that cannot be), then every known
   * secret form and `extra` pair replaced. Compiled again only when a secret was learnt.
   */
  bodyRedaction(side: Side, contentType: string, extra?: ReadonlyArray<readonly [string, string]>): BodyRedaction;
  /** Sorted unique locations scrubbed so far, e.g. "request.headers.authorization". */
  notes(): string[];
  /** The secret values its rules found (long enough to sweep), which no configuration named. */
  discovered(): string[];
  /** Every known secret form -> its placeholder, longest first; the same array until a new secret is learnt. */
  replacements(): ReadonlyArray<readonly [string, string]>;
  /** <secret:NAME> (and its URL-encoded form) -> the configured value. */
  restore(text: string): string;
  /** The JSON field rules, for bodies scrubbed as they stream; what they hide is learnt and noted. */
  bodyFieldRules(side: Side): FieldRules;
  /** The same for a form-urlencoded body. */
  formFieldRules(side: Side): FormFieldRules;
  /** Whether a header's value is a secret (lowercase name): one a request may teach the sweep. */
  isSecretHeader(lower: string): boolean;
}

/**
 * A JSON text shown in a message (an expectation's actual value) with its secret fields'
 * values replaced by <redacted>; other text as it is. Byte-level, so any depth is fine.
 */
export function hideSecretJsonFields(text: string): string {
  const policy = createSecretPolicy();
  return policy.twoPass((pass) => policy.bodyText(text, 'application/json', 'response', pass));
}

export function createSecretPolicy(config: SecretPolicyConfig = {}): SecretPolicy {
  const configured = new Map<string, string>(); // value -> <secret:NAME> or a literal's placeholder
  const byName = new Map(Object.entries(config.secrets ?? {}));
  const extraPlaceholders = new Set<string>();
  for (const [value, placeholder] of config.literals ?? []) {
    if (value.length === 0) continue;
    configured.set(value, placeholder);
    if (!placeholder.startsWith('<')) extraPlaceholders.add(placeholder);
  }
  for (const [name, value] of byName) {
    if (!SECRET_NAME.test(name))
      throw new HarnessError('CONFIG', `secret name "${name}" must match ${SECRET_NAME} (it becomes the placeholder <secret:${name}>)`);
    if (typeof value !== 'string' || value.length === 0) throw new HarnessError('CONFIG', `secret "${name}" has no value to redact`);
    configured.set(value, `<secret:${name}>`);
  }
  const keep = [PLACEHOLDER_SOURCE, ...[...extraPlaceholders].map(escapeRegExp)].join('|');
  const wholePlaceholder = new RegExp(`^(?:${keep})$`);
  const known = new Map(configured); // every value swept everywhere -> placeholder
  const notes = new Set<string>();
  const secretHeaders = new Set([...SECRET_HEADERS, ...(config.headers ?? []).map((h) => h.toLowerCase())]);
  const queryKeys = new Set((config.queryParams ?? []).map((k) => k.toLowerCase()));
  const bodyFields = new Set([...SECRET_BODY_FIELDS, ...(config.bodyFields ?? [])].map((f) => f.toLowerCase()));
  const jsonPaths = new Set(config.jsonPaths ?? []);
  let cached: ({ size: number } & ReturnType<typeof compileSweeps>) | undefined;
  let compiled: { forms: ReadonlyArray<readonly [string, string]>; extra: unknown; replacements: Replacements } | undefined;

  function sweeps() {
    if (cached?.size === known.size) return cached;
    cached = { size: known.size, ...compileSweeps(known, keep) };
    return cached;
  }
  const livePass = (): Pass => ({ ...sweeps(), notes });

  /** The placeholder for a secret found by a rule; remembers it for the sweep. */
  function hide(value: string, pass: Pass, note: string): string {
    pass.notes.add(note);
    // Already a placeholder: scrubbing a scrubbed text changes nothing.
    if (wholePlaceholder.test(value)) return value;
    const placeholder = configured.get(value);
    if (placeholder) return placeholder;
    if (value.length >= MIN_SWEEP_LENGTH) known.set(value, REDACTED);
    return REDACTED;
  }

  function redactPairs(text: string, isSecret: (key: string) => boolean, pass: Pass, note: (key: string) => string): string {
    return text
      .split('&')
      .map((part) => {
        const eq = part.indexOf('=');
        const key = decodeFormPart(part.slice(0, eq));
        if (eq < 0 || !isSecret(key) || eq === part.length - 1) return part;
        const value = decodeFormPart(part.slice(eq + 1));
        const hidden = hide(value, pass, note(key));
        // A placeholder already there stays as it was written (a report's `$TOKEN` unencoded).
        return hidden === value ? part : `${part.slice(0, eq)}=${encodeURIComponent(hidden)}`;
      })
      .join('&');
  }

  function redactHeaderValue(lower: string, value: string, pass: Pass, note: string): string {
    if (SCHEME_HEADERS.has(lower)) {
      const m = /^(\S+)(\s+)(.+)$/s.exec(value);
      if (!m) return hide(value, pass, note);
      if (m[1].toLowerCase() === 'basic') {
        const decoded = Buffer.from(m[3], 'base64').toString('utf8');
        const colon = decoded.indexOf(':');
        if (colon >= 0 && decoded.length > colon + 1) hide(decoded.slice(colon + 1), pass, note);
      }
      return `${m[1]}${m[2]}${hide(m[3], pass, note)}`;
    }
    if (secretHeaders.has(lower)) return hide(value, pass, note);
    if (lower === 'cookie') {
      return value.replace(/(^|;)(\s*)([^=;]*)=([^;]*)/g, (whole, sep: string, ws: string, name: string, v: string) =>
        v.trim() === '' ? whole : `${sep}${ws}${name}=${hide(v, pass, note)}`,
      );
    }
    if (lower === 'set-cookie') {
      return value.replace(/^(\s*[^=;]*=)([^;]*)/, (whole, name: string, v: string) =>
        v.trim() === '' ? whole : `${name}${hide(v, pass, note)}`,
      );
    }
    return value;
  }

  const isSecretQueryKey = (key: string) => isSecretQueryName(key) || queryKeys.has(key.toLowerCase());
  const queryNote = (key: string) => `request.query.${key}`;
  const atJsonPath = (steps: readonly PathStep[]) =>
    jsonPaths.size > 0 && (jsonPaths.has(genericPath(steps)) || jsonPaths.has(concretePath(steps)));
  const isSecretField = (key: PathStep | undefined) => typeof key === 'string' && bodyFields.has(key.toLowerCase());

  /** The field rules of a JSON body, for the byte scanner (streamed bodies, and JSON kept as text). */
  const fieldRules = (side: Side, pass: Pass): FieldRules => ({
    decide: (steps) => (atJsonPath(steps) ? 'path' : isSecretField(steps.at(-1)) ? 'field' : undefined),
    // '' is never learnt (too short to sweep): a value too long to hold is still hidden.
    hide: (value, steps) => hide(value ?? '', pass, `${side}.body.${genericPath(steps)}`),
  });
  const formRules = (side: Side, pass: Pass): FormFieldRules => ({
    isSecret: (key) => bodyFields.has(key.toLowerCase()),
    hide: (value, key) => hide(value ?? '', pass, `${side}.body.form.${key}`),
  });

  /**
   * Walks a parsed JSON value from `$` (`steps` is the way down, reused as a stack). Copy on
   * write: an untouched value comes back as the same object, and path strings are built only
   * where a rule needs them. (A parsed value is as deep as JSON.stringify could write it, which
   * recurses as deep as this walk: deeper bodies are kept as text and go through the scanner.)
   */
  function redactJson(value: unknown, steps: PathStep[], pass: Pass, prefix: string): unknown {
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        steps.push(i);
        const next = redactField(i, value[i], steps, pass, prefix);
        steps.pop();
        if (next !== value[i]) (out ??= value.slice())[i] = next;
      }
      return out ?? value;
    }
    if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      let replaced: Map<string, unknown> | undefined;
      for (const key of keys) {
        steps.push(key);
        const next = redactField(key, record[key], steps, pass, prefix);
        steps.pop();
        if (next !== record[key]) (replaced ??= new Map()).set(key, next);
      }
      // Rebuilt from entries, never by assignment: a key named __proto__ stays a key.
      return replaced ? Object.fromEntries(keys.map((key) => [key, replaced.has(key) ? replaced.get(key) : record[key]])) : value;
    }
    if (typeof value === 'string') {
      const out = pass.text(value);
      if (out !== value) pass.notes.add(`${prefix}.${genericPath(steps)}`);
      return out;
    }
    return value;
  }

  /** A member (`key` a name) or an element (`key` an index) of a JSON value. */
  function redactField(key: PathStep, value: unknown, steps: PathStep[], pass: Pass, prefix: string): unknown {
    const atPath = atJsonPath(steps);
    if ((atPath || isSecretField(key)) && (typeof value === 'string' || typeof value === 'number'))
      return hide(String(value), pass, `${prefix}.${genericPath(steps)}`);
    if (atPath && value !== null && typeof value === 'object') return hide(JSON.stringify(value), pass, `${prefix}.${genericPath(steps)}`);
    return redactJson(value, steps, pass, prefix);
  }

  function twoPass<T>(apply: (pass: Pass) => T): T {
    const before = known.size;
    const firstNotes = new Set<string>();
    const first = apply({ ...sweeps(), notes: firstNotes });
    if (known.size === before) {
      for (const note of firstNotes) notes.add(note);
      return first;
    }
    return apply(livePass());
  }

  return {
    twoPass,
    headers: (headers, side, pass) =>
      headers.map(([name, value]) => {
        const note = `${side}.headers.${name.toLowerCase()}`;
        const out = pass.text(redactHeaderValue(name.toLowerCase(), value, pass, note));
        if (out !== value) pass.notes.add(note);
        return [name, out];
      }),
    url(url, pass) {
      const q = url.indexOf('?');
      const structured = q < 0 ? url : url.slice(0, q + 1) + redactPairs(url.slice(q + 1), isSecretQueryKey, pass, queryNote);
      const out = pass.url(structured);
      if (out !== structured) pass.notes.add('request.url');
      return out;
    },
    bodyText(text, contentType, side, pass) {
      if (isFormMediaType(contentType))
        return pass.text(
          redactPairs(
            text,
            (key) => bodyFields.has(key.toLowerCase()),
            pass,
            (key) => `${side}.body.form.${key}`,
          ),
        );
      // JSON or not, the scanner decides: it passes text through from its first byte that
      // cannot be JSON.
      if (!/^\s*[[{]/.test(text)) return pass.text(text);
      const rules = fieldRules(side, pass);
      return pass.text(redactedBytes(Buffer.from(text), { scrub: (emit) => createJsonFieldScrubber(rules, emit) }).toString('utf8'));
    },
    bodyJson: (value, side, pass) => redactJson(value, [], pass, `${side}.body`),
    bodyBytes(bytes, pass) {
      const latin1 = bytes.toString('latin1');
      const out = pass.bytes(latin1);
      return out === latin1 ? bytes : Buffer.from(out, 'latin1');
    },
    sweepText: (text) => sweeps().text(text),
    sweepUrl(url) {
      const out = sweeps().url(url);
      if (out !== url) notes.add('request.url');
      return out;
    },
    bodyRedaction(side, contentType, extra = []) {
      const forms = sweeps().forms;
      if (compiled?.forms !== forms || compiled.extra !== extra)
        compiled = { forms, extra, replacements: compileReplacements(forms, extra) };
      const pass = livePass();
      if (isFormMediaType(contentType)) {
        const rules = formRules(side, pass);
        return { replacements: compiled.replacements, scrub: (emit) => createFormFieldScrubber(rules, emit) };
      }
      const rules = fieldRules(side, pass);
      return { replacements: compiled.replacements, scrub: (emit) => createJsonFieldScrubber(rules, emit) };
    },
    notes: () => [...notes].sort(),
    discovered: () => [...known.keys()].filter((value) => !configured.has(value)),
    replacements: () => sweeps().forms,
    bodyFieldRules: (side) => fieldRules(side, livePass()),
    formFieldRules: (side) => formRules(side, livePass()),
    isSecretHeader: (lower) => secretHeaders.has(lower) || lower === 'cookie' || lower === 'set-cookie',
    restore: (text) =>
      text.replace(
        /<secret:([A-Za-z0-9_.-]+)>|%3Csecret%3A([A-Za-z0-9_.-]+)%3E/g,
        (whole, raw: string | undefined, encoded: string | undefined) => {
          const value = byName.get(raw ?? encoded!);
          if (value === undefined) return whole;
          return raw !== undefined ? value : encodeURIComponent(value);
        },
      ),
  };
}
