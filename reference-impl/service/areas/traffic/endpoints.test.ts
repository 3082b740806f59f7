import { type Api, expect, test } from '../../service.fixture.js';

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

// Variations: other readings of what the spec leaves open (suites/variants/traffic.yaml).
// Each is off by default (the tests above) and switched on here through the control API.
type Point = { timestamp: string; count: number; uniques: number };
const series = async (api: Api, kind: 'views' | 'clones', per = 'day') =>
  (await api.get(`/repos/octo-org/widgets/traffic/${kind}?per=${per}`, { as: 'repo-writer' })).json() as {
    count: number;
    uniques: number;
    views: Point[];
    clones: Point[];
  };
const day = (d: number) => new Date(Date.UTC(2026, 4, d)).toISOString().replace('.000Z', 'Z');

test.describe('variations', () => {
  test('traffic.window-completed-days: the 14 days before today, for views, clones and the popular lists', async ({ api }) => {
    const before = { views: await series(api, 'views'), referrers: (await api.get(REFERRERS, { as: 'repo-writer' })).json() };
    await api.vary('traffic.window-completed-days');
    for (const kind of ['views', 'clones'] as const) {
      const daily = await series(api, kind);
      // Monday 2026-06-01 at noon: May 18 - May 31.
      expect(daily[kind].map((e) => e.timestamp)).toEqual(Array.from({ length: 14 }, (_, i) => day(18 + i)));
      expect(daily.count).toBe(daily[kind].reduce((sum, e) => sum + e.count, 0));
      const weekly = await series(api, kind, 'week');
      expect(weekly[kind].map((e) => e.timestamp)).toEqual([day(18), day(25)]);
    }
    // The days both windows hold keep their numbers; the popular lists move with the window.
    expect((await series(api, 'views')).views.slice(1)).toEqual(before.views.views.slice(0, 13));
    expect((await api.get(REFERRERS, { as: 'repo-writer' })).json()).not.toEqual(before.referrers);
  });

  test('traffic.window-rolling-hours: the 15 days the last 14 x 24 hours touch; the fault traffic.window-28-days lists 28', async ({
    api,
  }) => {
    const today = await series(api, 'views');
    // Monday 2026-06-01 at noon: May 19 - June 1 by default.
    expect(today.views.map((e) => e.timestamp)).toEqual([...Array.from({ length: 13 }, (_, i) => day(19 + i)), day(32)]);
    await api.vary('traffic.window-rolling-hours');
    const rolling = await series(api, 'views');
    expect(rolling.views.map((e) => e.timestamp)).toEqual([day(18), ...today.views.map((e) => e.timestamp)]);
    await api.vary();
    await api.call('POST', '/_conformance/faults', { body: { faults: ['traffic.window-28-days'] } });
    expect((await series(api, 'views')).views).toHaveLength(28);
  });

  test('traffic.timestamps-offset: the same midnights, written +00:00', async ({ api }) => {
    const z = await series(api, 'clones', 'week');
    await api.vary('traffic.timestamps-offset');
    const offset = await series(api, 'clones', 'week');
    expect(offset.clones.map((e) => e.timestamp)).toEqual([
      '2026-05-18T00:00:00+00:00',
      '2026-05-25T00:00:00+00:00',
      '2026-06-01T00:00:00+00:00',
    ]);
    expect(offset.clones.map((e) => Date.parse(e.timestamp))).toEqual(z.clones.map((e) => Date.parse(e.timestamp)));
    expect(offset.clones.map((e) => e.count)).toEqual(z.clones.map((e) => e.count));
  });

  test('traffic.anonymous-403: anonymous callers get 403 on a public repository, 404 on a private one; the rest is unchanged', async ({
    api,
  }) => {
    await api.vary('traffic.anonymous-403');
    expect((await api.get(REFERRERS)).statusCode).toBe(403);
    expect((await api.get('/repos/octo-org/widgets/traffic/views')).statusCode).toBe(403);
    expect((await api.get('/repos/octo-org/vault/traffic/clones')).statusCode).toBe(404);
    expect((await api.get(REFERRERS, { as: 'repo-reader' })).statusCode).toBe(403);
    expect((await api.get(REFERRERS, { as: 'repo-writer' })).statusCode).toBe(200);
  });

  test('traffic.installation-refused: an app installation gets 403 whatever its permissions; users and fine-grained tokens as before', async ({
    api,
  }) => {
    expect((await api.get(REFERRERS, { as: 'app-installation' })).statusCode).toBe(200);
    await api.vary('traffic.installation-refused');
    expect((await api.get(REFERRERS, { as: 'app-installation' })).statusCode).toBe(403);
    expect((await api.get(REFERRERS, { as: 'fine-grained-admin' })).statusCode).toBe(200);
    expect((await api.get(REFERRERS, { as: 'repo-writer' })).statusCode).toBe(200);
  });

  test('traffic.popular-by-uniques: the ten with the most unique visitors, most first', async ({ api }) => {
    await api.vary('traffic.popular-by-uniques');
    const entries = (await api.get(REFERRERS, { as: 'repo-writer' })).json() as Entry[];
    expect(entries).toHaveLength(10);
    for (const [i, entry] of entries.entries()) if (i > 0) expect(entries[i - 1].uniques).toBeGreaterThanOrEqual(entry.uniques);
    expect(entries.some((entry, i) => i > 0 && entries[i - 1].count < entry.count)).toBe(true);
  });

  test("traffic.week-entries-whole-weeks: the first week counts its days before the window; the totals stay the window's", async ({
    api,
  }) => {
    const daily = await series(api, 'views');
    const windowWeeks = await series(api, 'views', 'week');
    await api.vary('traffic.week-entries-whole-weeks');
    const whole = await series(api, 'views', 'week');
    expect([whole.count, whole.uniques]).toEqual([daily.count, daily.uniques]);
    expect(whole.views.map((e) => e.timestamp)).toEqual(windowWeeks.views.map((e) => e.timestamp));
    // May 18, the week's Monday, is before the window (May 19 - June 1): counted too.
    expect(whole.views[0].count).toBeGreaterThan(windowWeeks.views[0].count);
    expect(whole.views.slice(1)).toEqual(windowWeeks.views.slice(1));
    expect(whole.views.reduce((sum, e) => sum + e.count, 0)).toBeGreaterThan(whole.count);
  });

  test('traffic.unknown-per-as-day: another per is read as day (200)', async ({ api }) => {
    const daily = await series(api, 'views');
    await api.vary('traffic.unknown-per-as-day');
    for (const per of ['month', 'WEEK', '']) expect(await series(api, 'views', per), per).toEqual(daily);
    expect((await series(api, 'views', 'week')).views).toHaveLength(3);
  });
});
