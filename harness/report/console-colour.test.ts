import { expect, test } from '@playwright/test';
import { colourWanted, paint } from './console-colour.js';

test('colour on a terminal only; NO_COLOR (not empty) wins over everything; FORCE_COLOR asks for it elsewhere; TERM=dumb has none', () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };
  expect(colourWanted(tty, {})).toBe(true);
  expect(colourWanted(pipe, {})).toBe(false);
  expect(colourWanted(tty, { NO_COLOR: '1' })).toBe(false);
  expect(colourWanted(tty, { NO_COLOR: '' })).toBe(true);
  expect(colourWanted(pipe, { FORCE_COLOR: '1' })).toBe(true);
  expect(colourWanted(pipe, { FORCE_COLOR: '0' })).toBe(false);
  expect(colourWanted(tty, { NO_COLOR: 'yes', FORCE_COLOR: '1' })).toBe(false);
  expect(colourWanted(tty, { TERM: 'dumb' })).toBe(false);
});

test('paint wraps in the outcome or verdict colour, or leaves the text alone', () => {
  expect(paint(true, 'FAIL', 'FAIL ')).toBe('\u001b[31mFAIL \u001b[39m');
  expect(paint(true, 'conforming', 'CONFORMING')).toBe('\u001b[32mCONFORMING\u001b[39m');
  expect(paint(false, 'FAIL', 'FAIL')).toBe('FAIL');
});
