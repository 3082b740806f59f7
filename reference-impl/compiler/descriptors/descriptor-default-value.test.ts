// default_value formatting, pinned to what protoc 3.21 prints for the same literals (taken
// from its descriptor sets of fixtures/proto2/*.proto), so it is checked without protoc.
import { expect, test } from '@playwright/test';
import { cEscape } from '../common/c-escape.js';
import { formatScalarDefault, simpleDtoa, simpleFtoa } from './descriptor-default-value.js';
import { toJsonName } from './json-name-fill.js';
import type { ScannedLiteral } from './descriptor-source-scan.js';
import { mapEntryName } from './descriptor-source-scan.js';
import { tokenizeProto, unescapeLiteral } from './descriptor-source-tokens.js';

/** The literal the scan would keep for `text` (e.g. `-0x10`, `"a" "b"`). */
function literal(text: string): ScannedLiteral {
  const tokens = tokenizeProto(text);
  const negative = tokens[0].text === '-';
  const rest = negative ? tokens.slice(1) : tokens;
  const bytes = rest[0].kind === 'string' ? Uint8Array.from(rest.flatMap((t) => [...t.bytes!])) : undefined;
  return { negative, token: rest[0], bytes };
}

test('doubles print like SimpleDtoa: %.15g, or %.17g when that does not read back', () => {
  expect(simpleDtoa(1e20)).toBe('1e+20');
  expect(simpleDtoa(0.000012345)).toBe('1.2345e-05');
  expect(simpleDtoa(10000000000)).toBe('10000000000');
  expect(simpleDtoa(-0)).toBe('-0');
  expect(simpleDtoa(0.1)).toBe('0.1');
  expect(simpleDtoa(0.3333333333333333)).toBe('0.33333333333333331');
  expect(simpleDtoa(1.7976931348623157e308)).toBe('1.7976931348623157e+308');
  expect(simpleDtoa(5e-324)).toBe('4.94065645841247e-324');
  expect(simpleDtoa(6.02214076e23)).toBe('6.02214076e+23');
  expect([simpleDtoa(Infinity), simpleDtoa(-Infinity), simpleDtoa(NaN)]).toEqual(['inf', '-inf', 'nan']);
});

test('floats print like SimpleFtoa: rounded to single precision, %.6g or %.9g', () => {
  expect(simpleFtoa(1.1)).toBe('1.1');
  expect(simpleFtoa(3.4028235e38)).toBe('3.40282347e+38');
  expect(simpleFtoa(123456789)).toBe('123456792');
  expect(simpleFtoa(16777217)).toBe('16777216');
  expect(simpleFtoa(1e-10)).toBe('1e-10');
  expect(simpleFtoa(-1.5e-7)).toBe('-1.5e-07');
});

test('integers come from the literal as written, in any base, range-checked', () => {
  expect(formatScalarDefault('TYPE_INT64', literal('9223372036854775807'), 9223372036854775807)).toEqual({ text: '9223372036854775807' });
  expect(formatScalarDefault('TYPE_UINT64', literal('0xFFFFFFFFFFFFFFFF'), 0)).toEqual({ text: '18446744073709551615' });
  expect(formatScalarDefault('TYPE_UINT32', literal('017'), 15)).toEqual({ text: '15' });
  expect(formatScalarDefault('TYPE_SINT32', literal('-0x10'), -16)).toEqual({ text: '-16' });
  expect(formatScalarDefault('TYPE_INT32', literal('99999999999'), 99999999999)).toEqual({ error: 'Integer out of range.' });
  expect(formatScalarDefault('TYPE_DOUBLE', literal('0x1F'), 31)).toEqual({ text: '31' });
});

test('strings keep their bytes; bytes are C-escaped like protoc', () => {
  expect(formatScalarDefault('TYPE_STRING', literal('"quote \\" hex \\x41 octal \\101 é"'), '')).toEqual({
    text: 'quote " hex A octal A é',
  });
  expect(formatScalarDefault('TYPE_STRING', literal('"con" "cat"'), '')).toEqual({ text: 'concat' });
  expect(formatScalarDefault('TYPE_BYTES', literal('"\\000\\001\\377 tab\\t \\"q\\" é \\\\"'), '')).toEqual({
    text: '\\000\\001\\377 tab\\t \\"q\\" \\303\\251 \\\\',
  });
  expect(cEscape(unescapeLiteral("\\x0a\\x9zz'"))).toBe("\\n\\tzz\\'");
  expect(new TextDecoder().decode(unescapeLiteral('\\u00e9\\U0001F600'))).toBe('é😀');
});

test('JSON and map entry names are derived like protoc derives them', () => {
  expect(['foo_bar_baz', '_d', '__double', 'trailing_', 'CamelCase', 'x9y', 'with_under_score_2'].map(toJsonName)).toEqual([
    'fooBarBaz',
    'D',
    'Double',
    'trailing',
    'CamelCase',
    'x9y',
    'withUnderScore2',
  ]);
  expect(['counts', 'inners_by_id', 'by_name', '_x', 'a__b'].map(mapEntryName)).toEqual([
    'CountsEntry',
    'InnersByIdEntry',
    'ByNameEntry',
    'XEntry',
    'ABEntry',
  ]);
});

test('positions count columns from 1 and tabs to the next multiple of 8, like protoc', () => {
  const tokens = tokenizeProto('message A {\n\tint32 x = 1; // note\n  /* c */ string s = 2;\n}');
  expect(tokens.find((t) => t.text === 'int32')!.at).toEqual({ line: 2, column: 9 });
  expect(tokens.find((t) => t.text === 'string')!.at).toEqual({ line: 3, column: 11 });
});
