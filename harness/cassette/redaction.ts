// Redaction (DESIGN "Cassette format"): applied to every interaction before anything is
// written, and to each incoming request at replay, so a live request normalises to the
// same key as its redacted recording and still matches.
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
//   unrelated text). Configured secrets are swept whatever their length.
// - Every interaction is redacted in two passes: the first only discovers, so a token
//   first seen in the response's Set-Cookie is also removed from the request body.
// - Existing placeholders are never rewritten, so a configured secret that happens to be
//   the word "secret" cannot corrupt `<secret:NAME>`.
// - A JSON text body that is not stored as `json` (pretty-printed, say) gets the same
//   field rules, applied by the byte scanner that scrubs bodies streamed to sidecars
//   (json-field-scrubber.ts): each secret value is replaced where it stands, whatever its
//   escapes (`\/`, `\u003c`), its type (a number) or its depth, and nothing else in the text
//   changes (a key equal to a short secret stays).
// - A Basic credential's password is discovered too, so it is swept where echoed.
// - When a body changes, a content-length header is restated for the new bytes (encoded
//   with the body's contentEncoding, as replay will send them).
// - Secret JSON fields hide strings and numbers; null and booleans carry nothing and stay;
//   objects under a secret field *name* are walked (the name is a container), while an
//   object at a configured jsonPath becomes one placeholder.
import { HarnessError } from '../core/errors.js';
import type { HeaderPairs } from '../core/results.js';
import { SECRET_BODY_FIELDS } from '../http/secret-fields.js';
import { encodeContent, inlineBodyBytes } from './body-codec.js';
import { redactedBytes } from './byte-replacer.js';
import { decodeFormPart, type FormFieldRules, isFormMediaType } from './form-field-scrubber.js';
import { createJsonFieldScrubber, type FieldRules, type PathStep } from './json-field-scrubber.js';
import {
  isDigestOnly,
  type Body,
  type BodyData,
  type Interaction,
  type RecordedRequest,
  type RecordedResponse,
} from './cassette-format.js';

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

export interface Redactor {
  /** Returns a new object; also records notes. */
  redactInteraction(i: Interaction): Interaction;
  /** Same rules, request side only (the proxy's matching key at replay). */
  redactRequest(r: RecordedRequest): RecordedRequest;
  /** Sorted unique locations redacted so far, e.g. "request.headers.authorization". */
  notes(): string[];
  /** Every known secret form -> its placeholder, longest first, for streamed sidecar bodies; the same array until a new secret is learnt. */
  replacements(): ReadonlyArray<readonly [string, string]>;
  /** <secret:NAME> (and its URL-encoded form) -> the configured value. */
  restore(text: string): string;
  /** The JSON field rules, for bodies redacted as they stream (sidecars); what they hide is learnt and noted. */
  bodyFieldRules(side: Side): FieldRules;
  /** The same for a form-urlencoded body streamed to a sidecar. */
  formFieldRules(side: Side): FormFieldRules;
  /** Whether a header's value is a secret (lowercase name): one a request may teach the sweep. */
  isSecretHeader(lower: string): boolean;
}

export const REDACTED = '<redacted>';
const MIN_SWEEP_LENGTH = 8;
const SCHEME_HEADERS = new Set(['authorization', 'proxy-authorization']);
/**
 * Query keys whose value is a secret, judged by the words of the name (split at `_`, `-`, `.`
 * and camelCase): `access_token`, `api_key`, `X-Amz-Signature`, `code` are; `keyword`,
 * `author`, `design`, `zipcode` and `encoding` are not (a pattern over the whole name once
 * hid them all). Run-together names common in the wild (`apikey`, `accesstoken`) count too.
 */
const SECRET_QUERY_WORDS = new Set([
  'token',
  'key',
  'secret',
  'sig',
  'signature',
  'password',
  'passwd',
  'pwd',
  'auth',
  'code',
  'credential',
  'session',
]);
const SECRET_QUERY_NAMES = new Set(['apikey', 'accesstoken', 'authtoken', 'clientsecret', 'sessionid', 'refreshtoken', 'idtoken']);
export const isSecretQueryName = (name: string) =>
  SECRET_QUERY_NAMES.has(name.toLowerCase()) ||
  name.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).some((word) => SECRET_QUERY_WORDS.has(word.toLowerCase()));
const SECRET_NAME = /^[A-Za-z0-9_.-]+$/;
const PLACEHOLDER_SOURCE = '<secret:[A-Za-z0-9_.-]+>|<redacted>|%3Csecret%3A[A-Za-z0-9_.-]+%3E|%3Credacted%3E';
const WHOLE_PLACEHOLDER = new RegExp(`^(?:${PLACEHOLDER_SOURCE})$`);

export type Side = 'request' | 'response';
/** `$.items[*].token`: what jsonPaths and notes name. */
const genericPath = (steps: readonly PathStep[]): string => `$${steps.map((s) => (typeof s === 'number' ? '[*]' : `.${s}`)).join('')}`;
/** `$.items[3].token`. */
const concretePath = (steps: readonly PathStep[]): string => `$${steps.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('')}`;
type Sweep = (text: string) => string;
/** One pass over a message: where notes go, and the sweeps of every known secret form. */
interface Pass {
  notes: Set<string>;
  text: Sweep;
  /** Placeholders percent-encoded, so the URL stays valid. */
  url: Sweep;
  /** Over latin1-decoded bytes, so inline binary bodies are swept byte for byte. */
  bytes: Sweep;
}

interface JsonWalk {
  pass: Pass;
  /** Where notes start, e.g. "request.body". */
  prefix: string;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const urlPlaceholder = (p: string) => (p.startsWith('<') ? encodeURIComponent(p) : p);

function makeSweep(forms: Array<[string, string]>, inUrl: boolean): Sweep {
  if (forms.length === 0) return (text) => text;
  const byForm = new Map(forms);
  const pattern = new RegExp(`(${PLACEHOLDER_SOURCE})|${forms.map(([f]) => escapeRegExp(f)).join('|')}`, 'g');
  return (text) =>
    text.replace(pattern, (match: string, kept: string | undefined) => {
      if (kept !== undefined) return kept;
      const placeholder = byForm.get(match)!;
      return inUrl ? urlPlaceholder(placeholder) : placeholder;
    });
}

export function createRedactor(config: RedactionConfig = {}): Redactor {
  const configured = new Map<string, string>(); // value -> <secret:NAME>
  const byName = new Map(Object.entries(config.secrets ?? {}));
  for (const [name, value] of byName) {
    if (!SECRET_NAME.test(name))
      throw new HarnessError('CONFIG', `secret name "${name}" must match ${SECRET_NAME} (it becomes the placeholder <secret:${name}>)`);
    if (typeof value !== 'string' || value.length === 0) throw new HarnessError('CONFIG', `secret "${name}" has no value to redact`);
    configured.set(value, `<secret:${name}>`);
  }
  const known = new Map(configured); // every value swept everywhere -> placeholder
  const notes = new Set<string>();
  const secretHeaders = new Set(['x-api-key', ...SCHEME_HEADERS, ...(config.headers ?? []).map((h) => h.toLowerCase())]);
  const queryKeys = new Set((config.queryParams ?? []).map((k) => k.toLowerCase()));
  const bodyFields = new Set([...SECRET_BODY_FIELDS, ...(config.bodyFields ?? [])].map((f) => f.toLowerCase()));
  const jsonPaths = new Set(config.jsonPaths ?? []);
  let cached: { size: number; forms: Array<[string, string]>; text: Sweep; url: Sweep; bytes: Sweep } | undefined;

  function sweeps() {
    if (cached?.size === known.size) return cached;
    const byForm = new Map<string, string>();
    for (const [value, placeholder] of [...known].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const b64 = Buffer.from(value).toString('base64');
      const candidates: Array<[string, string]> = [
        [value, placeholder],
        [encodeURIComponent(value), encodeURIComponent(placeholder)],
        [b64, placeholder],
        [b64.replace(/=+$/, ''), placeholder],
        [Buffer.from(value).toString('base64url'), placeholder],
      ];
      for (const [form, p] of candidates) if (form.length > 0 && !byForm.has(form)) byForm.set(form, p);
    }
    const forms = [...byForm].sort(([a], [b]) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
    const latin1 = forms.map(([f, p]): [string, string] => [Buffer.from(f).toString('latin1'), p]);
    cached = { size: known.size, forms, text: makeSweep(forms, false), url: makeSweep(forms, true), bytes: makeSweep(latin1, false) };
    return cached;
  }

  /** The placeholder for a secret found by a rule; remembers it for the sweep. */
  function hide(value: string, pass: Pass, note: string): string {
    pass.notes.add(note);
    // Already a placeholder: redacting a redacted cassette changes nothing.
    if (WHOLE_PLACEHOLDER.test(value)) return value;
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
        return `${part.slice(0, eq)}=${encodeURIComponent(hide(decodeFormPart(part.slice(eq + 1)), pass, note(key)))}`;
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

  function redactHeaders(headers: HeaderPairs, side: Side, pass: Pass): HeaderPairs {
    return headers.map(([name, value]) => {
      const note = `${side}.headers.${name.toLowerCase()}`;
      const out = pass.text(redactHeaderValue(name.toLowerCase(), value, pass, note));
      if (out !== value) pass.notes.add(note);
      return [name, out];
    });
  }

  const isSecretQueryKey = (key: string) => isSecretQueryName(key) || queryKeys.has(key.toLowerCase());
  const queryNote = (key: string) => `request.query.${key}`;

  function redactUrl(url: string, pass: Pass): string {
    const q = url.indexOf('?');
    const structured = q < 0 ? url : url.slice(0, q + 1) + redactPairs(url.slice(q + 1), isSecretQueryKey, pass, queryNote);
    const out = pass.url(structured);
    if (out !== structured) pass.notes.add('request.url');
    return out;
  }

  /**
   * Walks a JSON value from `$` (`steps` is the way down, reused as a stack); `edits`
   * collects [original, placeholder] strings for JSON text bodies. Copy on write: an
   * untouched value comes back as the same object, and path strings are built only where
   * a rule needs them.
   */
  function redactJson(value: unknown, steps: PathStep[], ctx: JsonWalk): unknown {
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        steps.push(i);
        const next = redactField(i, value[i], steps, ctx);
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
        const next = redactField(key, record[key], steps, ctx);
        steps.pop();
        if (next !== record[key]) (replaced ??= new Map()).set(key, next);
      }
      // Rebuilt from entries, never by assignment: a key named __proto__ stays a key.
      return replaced ? Object.fromEntries(keys.map((key) => [key, replaced.has(key) ? replaced.get(key) : record[key]])) : value;
    }
    if (typeof value === 'string') {
      const out = ctx.pass.text(value);
      if (out !== value) ctx.pass.notes.add(`${ctx.prefix}.${genericPath(steps)}`);
      return out;
    }
    return value;
  }

  const atJsonPath = (steps: readonly PathStep[]) =>
    jsonPaths.size > 0 && (jsonPaths.has(genericPath(steps)) || jsonPaths.has(concretePath(steps)));
  const isSecretField = (key: PathStep | undefined) => typeof key === 'string' && bodyFields.has(key.toLowerCase());

  /** The field rules of a JSON body, for the byte scanner (sidecars, and JSON kept as text). */
  const fieldRules = (side: Side, pass: Pass): FieldRules => ({
    decide: (steps) => (atJsonPath(steps) ? 'path' : isSecretField(steps.at(-1)) ? 'field' : undefined),
    // '' is never learnt (too short to sweep): a value too long to hold is still hidden.
    hide: (value, steps) => hide(value ?? '', pass, `${side}.body.${genericPath(steps)}`),
  });

  /** A JSON text with its secret fields replaced in place, as a sink scrubs a streamed body. */
  const scrubJsonText = (text: string, side: Side, pass: Pass): string =>
    redactedBytes(Buffer.from(text), { scrub: (emit) => createJsonFieldScrubber(fieldRules(side, pass), emit) }).toString('utf8');

  /** A member (`key` a name) or an element (`key` an index) of a JSON value. */
  function redactField(key: PathStep, value: unknown, steps: PathStep[], ctx: JsonWalk): unknown {
    const atPath = atJsonPath(steps);
    if ((atPath || isSecretField(key)) && (typeof value === 'string' || typeof value === 'number'))
      return hide(String(value), ctx.pass, `${ctx.prefix}.${genericPath(steps)}`);
    if (atPath && value !== null && typeof value === 'object')
      return hide(JSON.stringify(value), ctx.pass, `${ctx.prefix}.${genericPath(steps)}`);
    return redactJson(value, steps, ctx);
  }

  function redactText(text: string, form: boolean, side: Side, pass: Pass): string {
    if (form)
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
    return pass.text(/^\s*[[{]/.test(text) ? scrubJsonText(text, side, pass) : text);
  }

  function redactBody(body: Body, headers: HeaderPairs, side: Side, pass: Pass): Body {
    if ('file' in body) return body; // the streaming body sink applies replacements()
    const contentType = headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    let data: BodyData;
    if ('json' in body) {
      const json = redactJson(body.json, [], { pass, prefix: `${side}.body` });
      if (json === body.json) return body;
      data = { json };
    } else if ('text' in body) {
      const text = redactText(body.text, isFormMediaType(contentType), side, pass);
      if (text === body.text) return body;
      data = { text };
    } else {
      const base64 = Buffer.from(pass.bytes(Buffer.from(body.base64, 'base64').toString('latin1')), 'latin1').toString('base64');
      if (base64 === body.base64) return body;
      data = { base64 };
    }
    pass.notes.add(`${side}.body`);
    // `encoded` held the wire bytes of the unredacted body: dropped so replay re-encodes.
    return body.contentEncoding ? { ...data, contentEncoding: body.contentEncoding } : data;
  }

  function restateLength(headers: HeaderPairs, body: Body): HeaderPairs {
    const bytes = inlineBodyBytes(body);
    const length = body.contentEncoding ? encodeContent(body.contentEncoding, bytes).length : bytes.length;
    return headers.map(([k, v]) => [k, k.toLowerCase() === 'content-length' ? String(length) : v]);
  }

  function redactMessage<M extends RecordedRequest | RecordedResponse>(message: M, side: Side, pass: Pass): M {
    const out: M = { ...message, headers: redactHeaders(message.headers, side, pass) };
    if ('url' in out) out.url = redactUrl(out.url, pass);
    // A digest-only body has no bytes left to redact: the sink hashed them after its replacements.
    if (message.body && !isDigestOnly(message.body)) {
      const body = redactBody(message.body, message.headers, side, pass);
      if (body !== message.body) {
        out.body = body;
        out.headers = restateLength(out.headers, body);
      }
    }
    return out;
  }

  /**
   * Runs `apply` once to discover every secret it holds, then again to redact with all of
   * them; when the first pass learnt nothing new its result already is the answer (the
   * common case, and the proxy's per-request cost).
   */
  function twoPass<T>(apply: (pass: Pass) => T): T {
    const before = known.size;
    const firstNotes = new Set<string>();
    const first = apply({ ...sweeps(), notes: firstNotes });
    if (known.size === before) {
      for (const note of firstNotes) notes.add(note);
      return first;
    }
    const s = sweeps();
    const pass: Pass = { notes, text: s.text, url: s.url, bytes: s.bytes };
    return apply(pass);
  }

  return {
    redactInteraction: (i) =>
      twoPass((pass) => ({
        ...i,
        request: redactMessage(i.request, 'request', pass),
        response: redactMessage(i.response, 'response', pass),
      })),
    redactRequest: (r) => {
      // Nothing to discover in a request without headers, query or body: only the known
      // secrets are swept from its path (replay's common case, and its per-request cost).
      if (r.headers.length === 0 && r.body === undefined && !r.url.includes('?')) {
        const url = sweeps().url(r.url);
        if (url === r.url) return r;
        notes.add('request.url');
        return { ...r, url };
      }
      return twoPass((pass) => redactMessage(r, 'request', pass));
    },
    notes: () => [...notes].sort(),
    replacements: () => sweeps().forms,
    bodyFieldRules: (side) => fieldRules(side, { ...sweeps(), notes }),
    isSecretHeader: (lower) => secretHeaders.has(lower) || lower === 'cookie' || lower === 'set-cookie',
    formFieldRules: (side) => ({
      isSecret: (key) => bodyFields.has(key.toLowerCase()),
      hide: (value, key) => hide(value ?? '', { ...sweeps(), notes }, `${side}.body.form.${key}`),
    }),
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
