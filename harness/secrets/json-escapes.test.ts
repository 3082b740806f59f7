// A secret written with JSON escapes in a streamed body is replaced wherever the chunks are
// cut (inside an escape, inside the secret, between them), and nothing that only looks like it.
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { scrubInPieces } from './scrubber.fixture.js';
import { compileReplacements, createRedactingWriter, replaceAll } from './byte-replacer.js';

const SECRET = 'tok/9é';
const replacements = compileReplacements([[SECRET, '<secret:T>']], [['http://127.0.0.1:4321', 'http://recorded']]);
/** The body written in pieces of the given sizes (cycled) through a streaming writer. */
const streamed = (body: string, sizes: number[]) => scrubInPieces((emit) => createRedactingWriter({ replacements }, emit), body, sizes);

const u = (ch: string, upper = false) => {
  const hex = ch.charCodeAt(0).toString(16).padStart(4, '0');
  return `\\u${upper ? hex.toUpperCase() : hex}`;
};
const SPELLINGS = [
  `${u('t')}ok/9é`,
  `tok${u('/')}9${u('é', true)}`,
  `tok\\/9é`,
  `${u('t', true)}${u('o')}${u('k')}\\/${u('9')}${u('é')}`,
  `to${u('k')}/9\\u00E9`,
  // JSON inside a JSON string: the escapes' backslashes doubled, and doubled again.
  `\\\\u0074ok\\\\/9é`,
  `\\\\\\\\u0074ok/9é`,
];

for (const spelling of SPELLINGS) {
  test(`${spelling} is replaced in a streamed body cut at every byte`, () => {
    const body = `{"note":"sent ${spelling} \\n","path":"C:\\\\u"}`;
    const expected = `{"note":"sent <secret:T> \\n","path":"C:\\\\u"}`;
    const length = Buffer.byteLength(body);
    for (let cut = 1; cut < length; cut++) expect(streamed(body, [cut, length]), `cut at ${cut}`).toBe(expected);
    expect(streamed(body, [1]), 'one byte at a time').toBe(expected);
    expect(replaceAll(Buffer.from(body), replacements).toString('utf8')).toBe(expected);
  });
}

test('what only looks like an escaped secret is left as it was, as the same buffer', () => {
  for (const body of [
    `{"a":"${u('t')}ok/9e"}`, // another secret
    `{"a":"\\x74ok/9é"}`, // no JSON escape
    `{"a":"\\u00g4ok/9é"}`, // not hex
    `{"a":"\\U0074ok/9é"}`, // JSON's u is lower case
    `{"a":"tok/9${u('é').slice(0, 5)}"}`, // cut short
    `{"a":"${u('t')}o"}`, // the body ends inside it
    `{"a":"http:\\/\\/127.0.0.1:4321\\/x"}`, // an origin is no secret: replaced only as written
  ]) {
    expect(streamed(body, [3]), body).toBe(body);
    const bytes = Buffer.from(body);
    expect(replaceAll(bytes, replacements)).toBe(bytes);
  }
});

test('a secret too long to hold its escaped spellings back (over 5,041 characters) is searched as written only', () => {
  const long = `k${'x'.repeat(6000)}`;
  const held = compileReplacements([[long, '<redacted>']]);
  expect(held.holdBack).toBe(long.length - 1);
  const write = (body: string) => scrubInPieces((emit) => createRedactingWriter({ replacements: held }, emit), body, [4096]);
  expect(write(`"${long}"`)).toBe('"<redacted>"');
  expect(write(`"\\u006b${long.slice(1)}"`)).toBe(`"\\u006b${long.slice(1)}"`);
  // One character less, and the escaped spelling is found.
  const short = long.slice(0, 5041);
  const found = compileReplacements([[short, '<redacted>']]);
  expect(scrubInPieces((emit) => createRedactingWriter({ replacements: found }, emit), `"\\u006b${short.slice(1)}"`, [4096])).toBe(
    '"<redacted>"',
  );
});

test('a character beyond the BMP is found escaped as its surrogate pair, in either hex case', () => {
  const emoji = compileReplacements([['k😀y', '<secret:E>']]);
  for (const spelling of ['k\\ud83d\\ude00y', 'k\\uD83D\\uDE00y', '\\u006b\\ud83d\\uDE00\\u0079']) {
    expect(
      scrubInPieces((emit) => createRedactingWriter({ replacements: emoji }, emit), `"${spelling}"`, [5]),
      spelling,
    ).toBe('"<secret:E>"');
  }
});

test('a stream of backslashes is passed on as it comes: no more than the longest spelling is held back', () => {
  let out = 0;
  const writer = createRedactingWriter({ replacements }, (bytes) => (out += bytes.length));
  const chunk = Buffer.alloc(64 * 1024, '\\\\u0074o'); // escapes of the secret's first letter, never the secret
  for (let written = chunk.length; written <= 64 * chunk.length; written += chunk.length) {
    writer.write(chunk);
    expect(written - out).toBeLessThanOrEqual(replacements.holdBack);
  }
  expect(replacements.holdBack).toBeLessThan(1024); // a few hundred bytes, whatever the size of the body
  writer.flush();
  expect(out).toBe(64 * chunk.length);
});

test('any mix of plain and escaped characters, anywhere in any text, cut anywhere, is replaced and nothing else changes', () => {
  const spelt = fc
    .array(
      fc.oneof(
        fc.constant((ch: string) => ch),
        fc.constant((ch: string) => u(ch)),
        fc.constant((ch: string) => u(ch, true)),
        fc.constant((ch: string) => `\\\\${u(ch).slice(1)}`),
        fc.constant((ch: string) => (ch === '/' ? '\\/' : ch)),
      ),
      { minLength: SECRET.length, maxLength: SECRET.length },
    )
    .map((ways) => [...SECRET].map((ch, i) => ways[i](ch)).join(''));
  // Filler that cannot spell the secret: no 't' (nor its escapes' letter) around it.
  const filler = fc.stringMatching(/^[a-s u-z\\"{}:,0-9]{0,12}$/).map((s) => s.replace(/\\+$/, ''));
  fc.assert(
    fc.property(filler, spelt, filler, fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 4 }), (a, s, b, sizes) => {
      const expected = `${a}<secret:T>${b}`;
      expect(streamed(`${a}${s}${b}`, sizes)).toBe(expected);
    }),
  );
});
