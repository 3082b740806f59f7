// Which bodies the match key compares by meaning: the media types the body scrubbers take for
// JSON or form fields (isJsonMediaType, isFormMediaType), and multipart bodies whatever the
// case of their boundary.
import { expect, test } from '@playwright/test';
import { isFormMediaType } from '../secrets/form-field-scrubber.js';
import { isJsonMediaType } from '../secrets/json-field-scrubber.js';
import { DEFAULT_MATCH } from './proxy-options.js';
import { matchParts } from './request-key.js';

const bodyKey = (contentType: string, text: string) =>
  matchParts({ method: 'POST', url: '/x', headers: [['Content-Type', contentType]], body: { inline: { text } } }, DEFAULT_MATCH).body;

test('a body is compared as JSON or as form fields exactly when the scrubbers take its type for one', () => {
  const types = [
    'application/json',
    'Application/JSON; charset=utf-8',
    'application/vnd.service+json',
    'application/problem+json',
    'text/json',
    'application/json-seq',
    'application/jsonx',
    'application/x-www-form-urlencoded',
    'application/x-www-form-urlencoded; charset=UTF-8',
    'APPLICATION/X-WWW-FORM-URLENCODED',
    'application/x-www-form-urlencoded-v2',
    'text/plain',
  ];
  for (const type of types) {
    const sameJson = bodyKey(type, '{"a":1,"b":[2]}') === bodyKey(type, '{ "b": [2], "a": 1 }');
    expect(sameJson, `${type}: JSON by meaning`).toBe(isJsonMediaType(type));
    const sameForm = bodyKey(type, 'a=1&b=2&b=3') === bodyKey(type, 'b=2&a=1&b=3');
    expect(sameForm, `${type}: form fields as a multiset`).toBe(isFormMediaType(type));
  }
  // Order within a repeated field still counts, and a different value never matches.
  expect(bodyKey('application/x-www-form-urlencoded', 'b=2&b=3')).not.toBe(bodyKey('application/x-www-form-urlencoded', 'b=2&b=4'));
  expect(bodyKey('application/json', '{"a":1}')).not.toBe(bodyKey('application/json', '{"a":2}'));
});

test('a multipart body matches another with the same parts and a different boundary, whatever its case or its parts', () => {
  const multipart = (boundary: string, value: Buffer) => {
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\n\r\n`;
    const body = Buffer.concat([Buffer.from(head), value, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const type = `multipart/form-data; boundary=${boundary}`;
    return matchParts(
      { method: 'POST', url: '/x', headers: [['Content-Type', type]], body: { inline: { base64: body.toString('base64') } } },
      DEFAULT_MATCH,
    ).body;
  };
  // A text part, and a binary one (not UTF-8: the body is kept as base64).
  for (const value of [Buffer.from('v'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00])]) {
    expect(multipart('----FormBoundaryAbC123', value)).toBe(multipart('----FormBoundaryXyZ789', value));
    expect(multipart('----FormBoundaryAbC123', value)).not.toBe(multipart('----FormBoundaryXyZ789', Buffer.from('w')));
  }
});
