// The streaming form scrubber (sidecar form bodies) must redact exactly what the inline
// redaction does to the same body, wherever the chunks happen to be cut.
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { createFormFieldScrubber, isFormMediaType } from '../secrets/form-field-scrubber.js';
import { createRedactor } from './redaction.js';
import { scrubInPieces } from '../secrets/scrubber.fixture.js';

const CONFIG = { bodyFields: ['pin'] };

/** The scrubbed text of `text` written in pieces of the given sizes (cycled). */
function scrub(text: string, sizes: number[]): string {
  const rules = createRedactor(CONFIG).formFieldRules('request');
  return scrubInPieces((emit) => createFormFieldScrubber(rules, emit), text, sizes);
}

function inline(text: string): string {
  const out = createRedactor(CONFIG).redactInteraction({
    seq: 1,
    request: { method: 'POST', url: '/', headers: [['content-type', 'application/x-www-form-urlencoded']], body: { text } },
    response: { status: 204, headers: [] },
  });
  return (out.request.body as { text: string }).text;
}

const keys = fc.constantFrom('password', 'PASSWORD', 'pass%77ord', 'token', 'pin', 'name', 'a+b', 'é', '', 'x=y');
// Values under 8 characters are never swept from the rest of a body once learnt, and each long
// one comes at most once: inline redaction also sweeps a secret from the body it was found in,
// the streaming one only from the traffic after it (json-field-scrubber.ts, the same).
const values = fc.oneof(fc.constantFrom('', 'hunter2-secret', 's3cr%2Bet%21', 'a+b', '%zz', 'é'), fc.string({ maxLength: 7 }));
const parts = fc
  .uniqueArray(
    fc.tuple(
      keys,
      values.map((v) => v.replace(/&/g, '')),
      fc.boolean(),
    ),
    { maxLength: 6, selector: ([, v]) => (v.length >= 8 ? v : Symbol()) },
  )
  .map((list) => list.map(([k, v, bare]) => (bare ? k : `${k}=${v}`)));

test('scrubbed as a stream equals redacted inline, for any form and chunking', () => {
  fc.assert(
    fc.property(parts, fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 4 }), (list, sizes) => {
      const text = list.join('&');
      expect(scrub(text, sizes)).toBe(inline(text));
    }),
    { numRuns: 2000 },
  );
});

test('a secret value too long to learn is still replaced; an empty one stays empty', () => {
  const long = 'v'.repeat(70 * 1024);
  expect(scrub(`a=1&password=${long}&pin=&b=2`, [4096])).toBe('a=1&password=%3Credacted%3E&pin=&b=2');
});

test('only application/x-www-form-urlencoded bodies are forms', () => {
  expect(isFormMediaType('application/x-www-form-urlencoded; charset=utf-8')).toBe(true);
  expect(isFormMediaType('multipart/form-data')).toBe(false);
  expect(isFormMediaType('application/json')).toBe(false);
});
