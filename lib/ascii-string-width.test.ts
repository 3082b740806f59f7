import { expect, test } from '@playwright/test';
import { createRequire } from 'node:module';
import stringWidth from './ascii-string-width.js';

// The string-width yargs uses (a dependency of yargs, not of touchstone).
const fromYargs = createRequire(createRequire(import.meta.url).resolve('yargs/package.json'));
const realStringWidth = (fromYargs('string-width') as { default: typeof stringWidth }).default;

test('widths are those of string-width, for printable ASCII and for everything it hands over', () => {
  const texts = [
    '',
    'touchstone run [--target URL]',
    ' ~!@#$%^&*()_+`{}|:"<>?',
    '\x1b[31mred\x1b[39m',
    'a\tb',
    'line\nbreak',
    '古池や蛙飛び込む',
    'ｶﾀｶﾅ',
    '👍🏽 👨‍👩‍👧',
    'e\u0301',
    'café — naïve…',
    '\u200b',
  ];
  for (const text of texts) expect(stringWidth(text), JSON.stringify(text)).toBe(realStringWidth(text));
  expect(stringWidth('\x1b[31mred\x1b[39m', { countAnsiEscapeCodes: true })).toBe(
    realStringWidth('\x1b[31mred\x1b[39m', { countAnsiEscapeCodes: true }),
  );
});
