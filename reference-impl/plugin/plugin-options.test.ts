import { expect, test } from '@playwright/test';
import { DEFAULT_OPTIONS, parsePluginOptions } from './plugin-options.js';

test('no parameter, or an empty one, means the defaults', () => {
  expect(parsePluginOptions(undefined)).toEqual({ ok: true, options: DEFAULT_OPTIONS });
  expect(parsePluginOptions('')).toEqual({ ok: true, options: { format: 'both', chunk: 16384, insertionPoints: true } });
});

test('every option, later pairs winning (protoc appends --touchstone_opt values after the _out parameter)', () => {
  expect(parsePluginOptions('format=ts,chunk=0,insertion_points=false,format=md')).toEqual({
    ok: true,
    options: { format: 'md', chunk: 0, insertionPoints: false },
  });
});

test('errors name the option and the offending value', () => {
  expect(parsePluginOptions('chunk=abc')).toEqual({
    ok: false,
    error: 'option "chunk" must be a whole number of bytes (0 = never split), got "abc"',
  });
  expect(parsePluginOptions('=x')).toMatchObject({ ok: false, error: expect.stringContaining('unknown option ""') });
  expect(parsePluginOptions('chunk=99999999999999999999')).toMatchObject({
    ok: false,
    error: expect.stringContaining('option "chunk" is too large'),
  });
});
