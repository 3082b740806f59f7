import { expect, test } from '@playwright/test';
import { outputStem, relativeModuleSpecifier } from './output-names.js';

test('output stems follow the .proto name and stay safe relative names', () => {
  expect(outputStem('demo/foo.proto')).toBe('demo/foo');
  expect(outputStem('foo.protodevel')).toBe('foo.protodevel');
  expect(outputStem('.hidden/x.proto')).toBe('.hidden/x');
  for (const unsafe of [
    '../x.proto',
    'a/../x.proto',
    '/x.proto',
    'a\\x.proto',
    'a/./x.proto',
    'a//x.proto',
    'a/',
    '.proto',
    'a\nb.proto',
  ]) {
    expect(outputStem(unsafe), unsafe).toBeUndefined();
  }
});

test('module specifiers between generated files are relative with .js', () => {
  expect(relativeModuleSpecifier('demo/foo', 'demo/common')).toBe('./common.js');
  expect(relativeModuleSpecifier('foo', 'demo/common')).toBe('./demo/common.js');
  expect(relativeModuleSpecifier('a/b/foo', 'c/bar')).toBe('../../c/bar.js');
  expect(relativeModuleSpecifier('foo', '.hidden/bar')).toBe('./.hidden/bar.js');
});
