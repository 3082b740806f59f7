// The streaming field scrubber (sidecar JSON bodies) must redact exactly what the inline
// redaction does to the same value, wherever the chunks happen to be cut.
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { createJsonFieldScrubber, isJsonMediaType } from '../secrets/json-field-scrubber.js';
import { createRedactor } from './redaction.js';
import { scrubInPieces } from '../secrets/scrubber.fixture.js';

const CONFIG = { jsonPaths: ['$.items[*].note', '$.meta.ref'], bodyFields: ['pin'] };

/** The scrubbed text of `text` written in pieces of the given sizes (cycled). */
function scrub(text: string, sizes: number[], config = CONFIG): string {
  const rules = createRedactor(config).bodyFieldRules('response');
  return scrubInPieces((emit) => createJsonFieldScrubber(rules, emit), text, sizes);
}

function inline(value: unknown, config = CONFIG): unknown {
  const out = createRedactor(config).redactInteraction({
    seq: 1,
    request: { method: 'GET', url: '/', headers: [] },
    response: { status: 200, headers: [['content-type', 'application/json']], body: { json: value } },
  });
  return (out.response.body as { json: unknown }).json;
}

const keys = fc.constantFrom('password', 'token', 'access_token', 'pin', 'note', 'items', 'meta', 'ref', 'name', 'a"b\\c', 'é');
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(keys, tie('value'), { maxKeys: 5 }),
})).value;

test('scrubbed as a stream equals redacted inline, for any JSON value, indentation and chunking', () => {
  fc.assert(
    fc.property(
      json,
      fc.constantFrom(0, 2),
      fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 }),
      (value, indent, sizes) => {
        const text = JSON.stringify(value, null, indent);
        expect(JSON.parse(scrub(text, sizes))).toEqual(inline(JSON.parse(text)));
      },
    ),
    { seed: 17, numRuns: 2000 },
  );
});

test('secret values are replaced wherever they are cut, and learnt so the rest of the traffic is swept of them', () => {
  const redactor = createRedactor();
  const out: Buffer[] = [];
  const scrubber = createJsonFieldScrubber(redactor.bodyFieldRules('request'), (bytes) => out.push(Buffer.from(bytes)));
  const text = '{"user":{"password":"p\\"ssw\\u00f6rd-123"},"token":12345678901,"ok":"tok\\\\"}';
  for (const byte of Buffer.from(text)) scrubber.write(Buffer.from([byte]));
  scrubber.flush();
  expect(Buffer.concat(out).toString()).toBe('{"user":{"password":"<redacted>"},"token":"<redacted>","ok":"tok\\\\"}');
  expect(redactor.notes()).toEqual(['request.body.$.token', 'request.body.$.user.password']);
  expect(redactor.replacements().map(([form]) => form)).toEqual(expect.arrayContaining(['p"sswörd-123', '12345678901']));
});

test('what is not JSON is passed through from where it stops being JSON; a body cut inside a secret ends with the placeholder', () => {
  expect(scrub('{"password":"a"} {"password":"b"}', [3])).toBe('{"password":"<redacted>"} {"password":"b"}');
  expect(scrub('{"pin" 1, "password": "x"}', [4])).toBe('{"pin" 1, "password": "x"}');
  expect(scrub('{"password": "cut-he', [4])).toBe('{"password": "<redacted>"');
  expect(scrub('plain text password', [5])).toBe('plain text password');
});

test('a secret longer than what is held is still replaced, only not learnt', () => {
  const long = 'k'.repeat(200_000);
  expect(scrub(JSON.stringify({ token: long, b: 1 }), [4096])).toBe('{"token":"<redacted>","b":1}');
});

test('JSON media types: application/json and +json kin, with parameters; not text or lookalikes', () => {
  for (const yes of ['application/json', 'Application/JSON; charset=utf-8', 'application/vnd.github+json', 'application/problem+json'])
    expect(isJsonMediaType(yes), yes).toBe(true);
  for (const no of ['text/plain', 'application/jsonl', 'application/json-seq', 'text/json5', ''])
    expect(isJsonMediaType(no), no).toBe(false);
});
