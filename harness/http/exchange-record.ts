// Turns a wire exchange into the redacted, printable record that reports carry, and
// into a curl command that reproduces it. The secrets policy (secrets/secret-policy.ts, the
// one cassettes follow) scrubs both sides: every token the run knows becomes $TOKEN wherever
// it appears, in any of its spellings (headers, URL, bodies), and secret headers, query
// parameters, JSON and form fields of the request *and* the response become <redacted>, so no
// report (results.json, report.html, JUnit, CTRF, summary.md, repro.sh) holds a secret.
//
// Decisions where the brief is silent:
// - A body is scrubbed whole before it is cut to MAX_RECORDED_BODY for the report, so the cut
//   never leaves the first half of a secret that the whole body would have shown as a placeholder.
// - A value a rule found (an access_token in a response) is also swept from the rest of the
//   same exchange (the policy's two passes), as in a cassette.
import type { ExchangeRecord, HeaderPairs } from '../core/results.js';
import { createSecretPolicy, REDACTED, type Pass, type SecretPolicy } from '../secrets/secret-policy.js';
import type { WireRequest, WireResponse } from './transport.js';

const MAX_RECORDED_BODY = 256 * 1024;
/** How much of a longer body is scrubbed before the cut: the longest value a field scrubber holds whole. */
const SCRUBBED_BEYOND_CUT = 64 * 1024;
/** Where the run's tokens stood: the curl lines of reports expand it. */
const TOKEN_PLACEHOLDER = '$TOKEN';

/** Free text (a message, an expected or actual value) with every literal secret replaced. */
export interface Redactor {
  (text: string): string;
  /** The literal secrets it replaces, each with its placeholder: what toExchangeRecord seeds its policy with. */
  literals(): ReadonlyArray<readonly [string, string]>;
  /**
   * Secret values an exchange record's rules found (an access_token a target answered with),
   * swept from the free text that follows as <redacted>: a failure message quoting the body.
   */
  learn(values: Iterable<string>): void;
}

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function redactorOf(given: () => ReadonlyArray<readonly [string, string]>, after: (text: string) => string = (t) => t): Redactor {
  const learnt = new Map<string, string>();
  let merged:
    | { given: ReadonlyArray<readonly [string, string]>; size: number; literals: ReadonlyArray<readonly [string, string]> }
    | undefined;
  const literals = () => {
    const now = given();
    if (merged?.given !== now || merged.size !== learnt.size) {
      const taken = new Set(now.map(([value]) => value));
      merged = { given: now, size: learnt.size, literals: [...now, ...[...learnt].filter(([value]) => !taken.has(value))] };
    }
    return merged.literals;
  };
  let policy: { literals: ReadonlyArray<readonly [string, string]>; sweep: SecretPolicy } | undefined;
  const sweep = () => {
    const now = literals();
    if (policy?.literals !== now) policy = { literals: now, sweep: createSecretPolicy({ literals: now }) };
    return policy.sweep;
  };
  return Object.assign((text: string) => after(sweep().sweepText(text)), {
    literals,
    learn(values: Iterable<string>) {
      for (const value of values) if (!learnt.has(value)) learnt.set(value, REDACTED);
    },
  });
}

/** The run's tokens, each swept as $TOKEN (in its encoded spellings too). */
export function createRedactor(secrets: Iterable<string>): Redactor {
  const literals = [...new Set(secrets)].filter((s) => s.length > 0).map((s): [string, string] => [s, TOKEN_PLACEHOLDER]);
  return redactorOf(() => literals);
}

/** `redact`, then each of `secrets` (texts known only at run time, added as they appear) replaced by <redacted>. */
export function withSecrets(redact: Redactor, secrets: ReadonlySet<string>): Redactor {
  let made:
    | { size: number; base: ReadonlyArray<readonly [string, string]>; literals: ReadonlyArray<readonly [string, string]> }
    | undefined;
  const literals = () => {
    const base = redact.literals();
    if (made?.size !== secrets.size || made.base !== base) {
      const taken = new Set(base.map(([value]) => value));
      const added = [...secrets].filter((s) => s.length > 0 && !taken.has(s)).map((s): [string, string] => [s, REDACTED]);
      made = { size: secrets.size, base, literals: [...base, ...added] };
    }
    return made.literals;
  };
  return redactorOf(literals, (text) => redact(text));
}

/**
 * `redact`, then the base URL `sent` (a record/replay proxy's passing port) shown as `shown`
 * (the target it stands for) wherever it appears, so no report names a port that dies with
 * the run. A longer port that starts with the same digits is left alone.
 */
export function showingTarget(redact: Redactor, sent: string, shown: string): Redactor {
  if (sent === shown) return redact;
  const pattern = new RegExp(`${literally(sent)}(?![0-9])`, 'g');
  return Object.assign((text: string) => redact(text).replace(pattern, () => shown), { literals: redact.literals, learn: redact.learn });
}

/** The first MAX_RECORDED_BODY bytes' worth of a body, scrubbed whole (within a bound) before the cut. */
function bodyText(body: Buffer | undefined, scrub: (text: string) => string): string | undefined {
  if (!body || body.length === 0) return undefined;
  const kept = body.subarray(0, MAX_RECORDED_BODY + SCRUBBED_BEYOND_CUT);
  const text = scrub(new TextDecoder('utf-8', { fatal: false }).decode(kept));
  if (body.length <= MAX_RECORDED_BODY) return text;
  const shown = Buffer.from(text).subarray(0, MAX_RECORDED_BODY);
  return `${new TextDecoder('utf-8', { fatal: false }).decode(shown)}\n… (${body.length - MAX_RECORDED_BODY} more bytes)`;
}

const contentTypeOf = (headers: HeaderPairs) => headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';

export function toExchangeRecord(request: WireRequest, response: WireResponse | undefined, redact: Redactor): ExchangeRecord {
  const policy = createSecretPolicy({ literals: redact.literals() });
  // `redact` first (tokens become $TOKEN, a proxy's port the target), then the policy's rules.
  const pairs = (headers: HeaderPairs, side: 'request' | 'response', pass: Pass): HeaderPairs =>
    policy.headers(
      headers.map(([k, v]) => [k, redact(v)]),
      side,
      pass,
    );
  const scrubbed = policy.twoPass((pass) => {
    const record: ExchangeRecord = {
      request: { method: request.method, url: policy.url(redact(request.url), pass), headers: pairs(request.headers, 'request', pass) },
    };
    const requestType = contentTypeOf(request.headers);
    const requestBody = bodyText(request.body, (text) => policy.bodyText(redact(text), requestType, 'request', pass));
    if (requestBody !== undefined) record.request.body = requestBody;
    if (response) {
      record.response = { status: response.status, headers: pairs(response.headers, 'response', pass) };
      const responseType = contentTypeOf(response.headers);
      const responseBody = bodyText(response.body, (text) => policy.bodyText(redact(text), responseType, 'response', pass));
      if (responseBody !== undefined) record.response.body = responseBody;
    }
    return record;
  });
  redact.learn(policy.discovered());
  return scrubbed;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
// $TOKEN must expand in the user's shell, so values holding it are double-quoted, with
// every other character the shell would interpret there (", \, `, and any other $) escaped.
const headerArg = (name: string, value: string) =>
  value.includes('$TOKEN')
    ? `"${`${name}: ${value}`.replace(/(["\\`])/g, '\\$1').replace(/\$(?!TOKEN\b)/g, '\\$')}"`
    : shellQuote(`${name}: ${value}`);

/** A curl command equivalent to a recorded request, for copy-paste reproduction. */
export function toCurl(request: ExchangeRecord['request']): string {
  const parts = ['curl', '-sS', '-i', '-X', request.method, shellQuote(request.url)];
  const names = new Set(request.headers.map(([k]) => k.toLowerCase()));
  for (const [name, value] of request.headers) {
    if (name.toLowerCase() === 'content-length' || name.toLowerCase() === 'host') continue;
    parts.push('-H', headerArg(name, value));
  }
  // curl adds these unless told not to; the recorded request had none.
  if (!names.has('user-agent')) parts.push('-H', shellQuote('User-Agent:'));
  if (!names.has('accept')) parts.push('-H', shellQuote('Accept:'));
  if (request.body !== undefined) parts.push('--data-binary', shellQuote(request.body));
  return parts.join(' ');
}
