// The order in which a location's files are written: UTF-8 byte order, as protoc's std::map.
import { expect, test } from '@playwright/test';
import { sortedNames } from './output-location.js';

test('names sort in UTF-8 byte order, characters beyond U+FFFF included', () => {
  const byBytes = (names: string[]) => [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const plain = ['b/z.ts', 'a.ts', 'B.ts', 'a/b.ts', 'a-b.ts', 'caf\u00e9.ts', 'cafe.ts', '\uffff.ts'];
  expect(sortedNames(plain)).toEqual(byBytes(plain));
  // U+1F600 is two surrogates in UTF-16, below U+FFFD there, but F0 9F 98 80 in UTF-8, above EF BF BD.
  const astral = ['x\ufffd.ts', 'x\u{1f600}.ts', 'x.ts', 'x\ue000.ts'];
  expect(sortedNames(astral)).toEqual(['x.ts', 'x\ue000.ts', 'x\ufffd.ts', 'x\u{1f600}.ts']);
  expect(sortedNames(new Set(astral))).toEqual(byBytes(astral));
});
