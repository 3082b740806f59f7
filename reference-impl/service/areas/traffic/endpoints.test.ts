import { expect, test } from '../../service.fixture.js';

// The reference's traffic: a function of the world and the clock (traffic-data.ts), so a
// run sees the same numbers every time and a day later sees the window move.

const REFERRERS = '/repos/octo-org/widgets/traffic/popular/referrers';
type Entry = { referrer: string; count: number; uniques: number };

test('popular referrers: the ten most counted of the thirteen sites, most first, uniques never above counts', async ({ api }) => {
  const response = await api.get(REFERRERS, { as: 'repo-writer' });
  expect(response.statusCode).toBe(200);
  const entries = response.json() as Entry[];
  expect(entries).toHaveLength(10);
  expect(new Set(entries.map((e) => e.referrer)).size).toBe(10);
  for (const [i, entry] of entries.entries()) {
    expect(entry.uniques).toBeGreaterThanOrEqual(1);
    expect(entry.uniques).toBeLessThanOrEqual(entry.count);
    if (i > 0) expect(entries[i - 1].count).toBeGreaterThanOrEqual(entry.count);
  }
});

test('popular paths: the ten most visited of the twelve pages, under the repository, titled, most first', async ({ api }) => {
  const response = await api.get('/repos/octo-org/widgets/traffic/popular/paths', { as: 'repo-writer' });
  expect(response.statusCode).toBe(200);
  const entries = response.json() as { path: string; title: string; count: number; uniques: number }[];
  expect(entries).toHaveLength(10);
  for (const [i, entry] of entries.entries()) {
    expect(entry.path).toMatch(/^\/octo-org\/widgets(\/|$)/);
    expect(entry.title).toContain('widgets');
    expect(entry.uniques).toBeLessThanOrEqual(entry.count);
    if (i > 0) expect(entries[i - 1].count).toBeGreaterThanOrEqual(entry.count);
  }
  expect((await api.get('/repos/octo-org/widgets/traffic/popular/paths', { as: 'repo-reader' })).statusCode).toBe(403);
});

test('the same clock gives the same numbers; a day later the window, and the numbers, move', async ({ api }) => {
  const first = (await api.get(REFERRERS, { as: 'repo-admin' })).json();
  expect((await api.get(REFERRERS, { as: 'repo-admin' })).json()).toEqual(first);
  await api.advance(24 * 60 * 60);
  expect((await api.get(REFERRERS, { as: 'repo-admin' })).json()).not.toEqual(first);
});

test('each repository has its own traffic', async ({ api }) => {
  const widgets = (await api.get(REFERRERS, { as: 'repo-admin' })).json();
  const crowd = (await api.get('/repos/octo-org/crowd/traffic/popular/referrers', { as: 'repo-admin' })).json();
  expect(crowd).not.toEqual(widgets);
});

test('push access or Administration (read) is needed: readers and outsiders get 403, anonymous callers 401', async ({ api }) => {
  expect((await api.get(REFERRERS, { as: 'repo-reader' })).statusCode).toBe(403);
  expect((await api.get(REFERRERS, { as: 'outsider' })).statusCode).toBe(403);
  expect((await api.get(REFERRERS, { as: 'fine-grained-metadata-only' })).statusCode).toBe(403);
  expect((await api.get(REFERRERS, { as: 'reader-fine-grained' })).statusCode).toBe(200);
  expect((await api.get(REFERRERS)).statusCode).toBe(401);
  // A private repository stays hidden from those who cannot see it.
  expect((await api.get('/repos/octo-org/vault/traffic/popular/referrers', { as: 'outsider' })).statusCode).toBe(404);
});
