// The raw form replay caches keys by, and when the cache forgets them.
import { expect, test } from '@playwright/test';
import { createReplayKeyCache } from './replay-key-cache.js';

test('the raw form holds the method, the URL and the matched headers only', () => {
  const cache = createReplayKeyCache(new Set(['accept', 'authorization']), () => 'same', 1);
  const form = (raw: string[]) => cache.rawForm('GET', '/a?x=1', raw);
  expect(form(['Host', 'h', 'User-Agent', 'u'])).toBe(form(['Host', 'other', 'X-Trace', 't']));
  expect(form(['Accept', 'text/plain'])).not.toBe(form(['Accept', 'application/json']));
  expect(form(['Authorization', 'token a'])).not.toBe(form([]));
  expect(form(['ACCEPT', 'text/plain'])).toBe(form(['accept', 'text/plain']));
  expect(cache.rawForm('HEAD', '/a?x=1', [])).not.toBe(form([]));
  expect(createReplayKeyCache(new Set(), () => 0, 1).rawForm('GET', '/a', ['Accept', 'x'])).toBe('GET /a');
});

test('keys are forgotten when a secret is learnt, and when the cache is full (twice the interactions, at least 10,000)', () => {
  let secrets: unknown[] = [];
  const cache = createReplayKeyCache(new Set(), () => secrets, 100_000);
  cache.set('GET /a', 7);
  expect(cache.get('GET /a')).toBe(7);
  secrets = [['learnt', '<redacted>']];
  expect(cache.get('GET /a')).toBeUndefined();
  for (let i = 0; i < 200_000; i++) cache.set(`GET /${i}`, i);
  expect(cache.get('GET /0')).toBe(0);
  cache.set('GET /one-too-many', 1);
  expect(cache.get('GET /0')).toBeUndefined();
  expect(cache.get('GET /one-too-many')).toBe(1);
  const small = createReplayKeyCache(new Set(), () => secrets, 3);
  for (let i = 0; i < 10_000; i++) small.set(`GET /${i}`, 0);
  expect(small.get('GET /0')).toBe(0);
  small.set('GET /one-too-many', 0);
  expect(small.get('GET /0')).toBeUndefined();
});
