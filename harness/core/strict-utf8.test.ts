// strictUtf8Text: text only from valid UTF-8, whichever way it is decoded.
import { expect, test } from '@playwright/test';
import { strictUtf8Text } from './strict-utf8.js';

test('ASCII, UTF-8 (a BOM kept) and views into a bigger buffer read as text; anything else is refused', () => {
  expect(strictUtf8Text(Buffer.from('{"a":"plain ascii"}'))).toBe('{"a":"plain ascii"}');
  expect(strictUtf8Text(Buffer.from('\uFEFFgrüße, 日本'))).toBe('\uFEFFgrüße, 日本');
  const whole = Buffer.from('xxABCyy');
  expect(strictUtf8Text(new Uint8Array(whole.buffer, whole.byteOffset + 2, 3))).toBe('ABC');
  expect(strictUtf8Text(new Uint8Array(0))).toBe('');
  // Latin-1 bytes, a lone continuation byte, a truncated sequence, an overlong encoding.
  for (const bad of [[0x67, 0xfc, 0x65], [0x80], [0xe6, 0x97], [0xc0, 0xaf]]) expect(strictUtf8Text(Uint8Array.from(bad))).toBeUndefined();
});
