// The suites' path language and JSON comparisons, which every assertion goes through.
import { expect, test } from '@playwright/test';
import { findSubsetMismatch, jsonEqual, selectPath } from './json-path.js';

const body = {
  total_count: 2,
  assignees: [
    { login: 'hubot', id: 2 },
    { login: 'monalisa', id: 3 },
  ],
  'odd key': { x: 1 },
};

test('paths select properties, indexes, every element with [*], and the root with $', () => {
  expect(selectPath(body, '$')).toBe(body);
  expect(selectPath(body, 'total_count')).toBe(2);
  expect(selectPath(body, '$.assignees[1].login')).toBe('monalisa');
  expect(selectPath(body, 'assignees[*].login')).toEqual(['hubot', 'monalisa']);
  expect(selectPath([{ a: 1 }, { a: 2 }], '[*].a')).toEqual([1, 2]);
});

test('a path that does not lead anywhere is undefined, never a throw or an inherited property', () => {
  expect(selectPath(body, 'assignees[9].login')).toBeUndefined();
  expect(selectPath(body, 'total_count.x')).toBeUndefined();
  expect(selectPath(body, 'assignees.login')).toBeUndefined();
  expect(selectPath(body, 'toString')).toBeUndefined();
  expect(selectPath(body, '__proto__')).toBeUndefined();
  expect(selectPath(null, 'a[0]')).toBeUndefined();
});

test('jsonEqual ignores key order and nothing else', () => {
  expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
  expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
  expect(jsonEqual([1, 2], [2, 1])).toBe(false);
  expect(jsonEqual(null, {})).toBe(false);
  expect(jsonEqual(1, '1')).toBe(false);
});

test('subset mismatches name the first path that differs, with what was expected and found', () => {
  expect(findSubsetMismatch(body, { total_count: 2, assignees: [{ login: 'hubot' }, { login: 'monalisa' }] })).toBeUndefined();
  expect(findSubsetMismatch(body, { assignees: [{ login: 'hubot' }] })).toEqual({
    path: '$.assignees',
    expected: [{ login: 'hubot' }],
    actual: body.assignees,
  });
  expect(findSubsetMismatch(body, { assignees: [{ login: 'hubot' }, { id: 4 }] })).toEqual({
    path: '$.assignees[1].id',
    expected: 4,
    actual: 3,
  });
  expect(findSubsetMismatch(body, { missing: null })).toEqual({ path: '$.missing', expected: null, actual: undefined });
  expect(findSubsetMismatch([1], { a: 1 })).toEqual({ path: '$', expected: { a: 1 }, actual: [1] });
});

test('an expectation naming an inherited property does not match it', () => {
  expect(findSubsetMismatch({}, { toString: 'x' })).toEqual({ path: '$.toString', expected: 'x', actual: undefined });
});
