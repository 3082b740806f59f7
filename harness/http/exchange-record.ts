// Turns a wire exchange into the redacted, printable record that reports carry, and
// into a curl command that reproduces it. Every token the run knows is replaced by
// $TOKEN wherever it appears (headers, URL, body), and the values of secret JSON fields of
// a request body (secret-fields.ts) by <redacted>, so no report holds a secret.
import type { ExchangeRecord, HeaderPairs } from '../core/results.js';
import { hideSecretFields } from './secret-fields.js';
import type { WireRequest, WireResponse } from './transport.js';

const MAX_RECORDED_BODY = 256 * 1024;

export type Redactor = (text: string) => string;

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function createRedactor(secrets: Iterable<string>): Redactor {
  const list = [...new Set(secrets)].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  if (list.length === 0) return (text) => text;
  const pattern = new RegExp(list.map(literally).join('|'), 'g');
  return (text) => text.replace(pattern, '$$TOKEN');
}

/** `redact`, then each of `secrets` (texts known only at run time, added as they appear) replaced by <redacted>. */
export function withSecrets(redact: Redactor, secrets: ReadonlySet<string>): Redactor {
  return (text) => {
    let result = redact(text);
    for (const secret of [...secrets].filter((s) => s.length > 0).sort((a, b) => b.length - a.length))
      result = result.split(secret).join('<redacted>');
    return result;
  };
}

/**
 * `redact`, then the base URL `sent` (a record/replay proxy's passing port) shown as `shown`
 * (the target it stands for) wherever it appears, so no report names a port that dies with
 * the run. A longer port that starts with the same digits is left alone.
 */
export function showingTarget(redact: Redactor, sent: string, shown: string): Redactor {
  if (sent === shown) return redact;
  const pattern = new RegExp(`${literally(sent)}(?![0-9])`, 'g');
  return (text) => redact(text).replace(pattern, () => shown);
}

function bodyText(body: Buffer | undefined): string | undefined {
  if (!body || body.length === 0) return undefined;
  const shown = body.subarray(0, MAX_RECORDED_BODY);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(shown);
  const suffix = body.length > MAX_RECORDED_BODY ? `\n… (${body.length - MAX_RECORDED_BODY} more bytes)` : '';
  return text + suffix;
}

const redactPairs = (pairs: HeaderPairs, redact: Redactor): HeaderPairs => pairs.map(([k, v]) => [k, redact(v)]);

export function toExchangeRecord(request: WireRequest, response: WireResponse | undefined, redact: Redactor): ExchangeRecord {
  const record: ExchangeRecord = {
    request: { method: request.method, url: redact(request.url), headers: redactPairs(request.headers, redact) },
  };
  const requestBody = bodyText(request.body);
  // Known tokens become $TOKEN (the curl command expands it); other secret field values <redacted>.
  if (requestBody !== undefined) record.request.body = hideSecretFields(redact(requestBody), '<redacted>', (value) => value === '$TOKEN');
  if (response) {
    record.response = { status: response.status, headers: redactPairs(response.headers, redact) };
    const responseBody = bodyText(response.body);
    if (responseBody !== undefined) record.response.body = redact(responseBody);
  }
  return record;
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
