// The suggestion a mistyped name gets: the closest known name, or none when nothing is close.
import { expect, test } from '@playwright/test';
import { closestName, editDistance } from './did-you-mean.js';

test('edit distance counts insertions, deletions, substitutions and swapped neighbours', () => {
  expect(editDistance('repo-admn', 'repo-admin')).toBe(1);
  expect(editDistance('opne', 'open')).toBe(1);
  expect(editDistance('ab', 'ba')).toBe(1);
  expect(editDistance('abc', 'ca')).toBe(3);
  expect(editDistance('kitten', 'sitting')).toBe(3);
  expect(editDistance('', 'abc')).toBe(3);
  expect(editDistance('same', 'same')).toBe(0);
});

test('the closest known name is suggested when it is close; nothing when nothing is', () => {
  const roles = ['repo-admin', 'repo-reader', 'repo-writer', 'org-owner'];
  expect(closestName('repo-admn', roles)).toBe('repo-admin');
  expect(closestName('Repo-Writter', roles)).toBe('repo-writer');
  expect(closestName('org-owners', roles)).toBe('org-owner');
  expect(closestName('deploy-key', roles)).toBeUndefined();
  expect(closestName('x', roles)).toBeUndefined();
});
