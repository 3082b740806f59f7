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

test('views and clones: daily entries at midnight for the 14 days ending today, totals from the entries; per=week from Mondays', async ({
  api,
}) => {
  type Point = { timestamp: string; count: number; uniques: number };
  type Series = { count: number; uniques: number; views?: Point[]; clones?: Point[] };
  for (const kind of ['views', 'clones'] as const) {
    const daily = (await api.get(`/repos/octo-org/widgets/traffic/${kind}`, { as: 'repo-writer' })).json() as Series;
    const days = daily[kind]!;
    // The world's clock: Monday 2026-06-01, noon.
    expect(days.map((e) => e.timestamp)).toEqual(
      Array.from({ length: 14 }, (_, i) => new Date(Date.UTC(2026, 4, 19 + i)).toISOString().replace('.000Z', 'Z')),
    );
    expect(daily.count).toBe(days.reduce((sum, e) => sum + e.count, 0));
    expect(daily.uniques).toBeGreaterThanOrEqual(Math.max(...days.map((e) => e.uniques)));
    expect(daily.uniques).toBeLessThanOrEqual(days.reduce((sum, e) => sum + e.uniques, 0));
    for (const e of days) expect(e.uniques).toBeLessThanOrEqual(e.count);
    const weekly = (await api.get(`/repos/octo-org/widgets/traffic/${kind}?per=week`, { as: 'repo-writer' })).json() as Series;
    expect(weekly[kind]!.map((e) => e.timestamp)).toEqual(['2026-05-18T00:00:00Z', '2026-05-25T00:00:00Z', '2026-06-01T00:00:00Z']);
    // The same visits, grouped otherwise: the same totals; the first week holds 6 of the window's days.
    expect([weekly.count, weekly.uniques]).toEqual([daily.count, daily.uniques]);
    expect(weekly[kind]![0].count).toBe(days.slice(0, 6).reduce((sum, e) => sum + e.count, 0));
  }
});

test('views move with the clock, and per is day or week only (422 otherwise)', async ({ api }) => {
  const views = '/repos/octo-org/widgets/traffic/views';
  const before = (await api.get(views, { as: 'repo-writer' })).json();
  await api.advance(24 * 60 * 60);
  const after = (await api.get(views, { as: 'repo-writer' })).json();
  // A day later the window lost its first day and gained today; the days in both are unchanged.
  expect(after.views.slice(0, 13)).toEqual(before.views.slice(1));
  expect(after.views[13].timestamp).toBe('2026-06-02T00:00:00Z');
  for (const per of ['month', 'WEEK', '']) expect((await api.get(`${views}?per=${per}`, { as: 'repo-writer' })).statusCode, per).toBe(422);
});
