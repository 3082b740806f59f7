// The traffic of a repository, derived from the world and the clock: the world declares no
// visits, so the reference makes them up the same way every time. Each day of the 14-day
// window (README "Repository traffic") gets its visits from a generator seeded by the
// repository's id and the day; a list over the window sums the days it covers. Moving the
// clock a day moves the window, and the numbers with it, as on a real host.
//
// Decisions where the spec is silent (endpoints.ts names the variations that read each
// otherwise, through a TrafficReading):
// - "data covers the last 14 days": the window is the 14 UTC days ending with the clock's
//   day (today included). Variation traffic.window-completed-days: the 14 completed days
//   before it (today left out).
// - Every repository has traffic from 13 referring sites and to 12 of its pages, so the
//   top-10 cut of the popular lists (endpoints.ts) is visible on each; counts are at
//   least 1 and uniques never exceed counts.
// - A page's title is what a browser tab would show for it on a real host.
// - Views and clones come from visitors: each day of the window a repository has 1 to 40
//   views (clones 1 to 12), each by one of 25 (clones 8) visitors. An entry's `uniques`
//   counts its distinct visitors, and so does the total's: it is at most the entries'
//   uniques summed and at least the largest of them; `count` is the entries' counts summed.
// - Every day of the window has traffic, so `per=day` lists the 14 days; `per=week` lists
//   each week (from its Monday) the window touches, counting only the window's days.
//   Variation traffic.week-entries-whole-weeks: a week's entry counts all of its days up to
//   the window's end, those before the window too (the totals stay the window's).
// - Timestamps are written `…T00:00:00Z`. Variation traffic.timestamps-offset: `…T00:00:00+00:00`.
import { DAY_MS, formatTimestamp } from '../../clock.js';
import type { WorldRepository } from '../../world-model.js';

export const TRAFFIC_WINDOW_DAYS = 14;

export interface TrafficCount {
  count: number;
  uniques: number;
}

export interface ReferralSource extends TrafficCount {
  referrer: string;
}

export interface ReferralPath extends TrafficCount {
  path: string;
  title: string;
}

const REFERRERS = [
  'google.com',
  'github.com',
  'news.ycombinator.com',
  'reddit.com',
  'stackoverflow.com',
  'duckduckgo.com',
  'bing.com',
  'dev.to',
  'lobste.rs',
  'medium.com',
  'npmjs.com',
  'x.com',
  'linkedin.com',
];

/** Pages under the repository's own, and their titles. */
const PAGES: [suffix: string, title: (fullName: string) => string][] = [
  ['', (n) => n],
  ['/issues', (n) => `Issues · ${n}`],
  ['/pulls', (n) => `Pull requests · ${n}`],
  ['/blob/main/README.md', (n) => `${n}/README.md at main`],
  ['/releases', (n) => `Releases · ${n}`],
  ['/actions', (n) => `Actions · ${n}`],
  ['/wiki', (n) => `Home · ${n} Wiki`],
  ['/tree/main/src', (n) => `${n}/src at main`],
  ['/issues/1', (n) => `Issue #1 · ${n}`],
  ['/commits/main', (n) => `Commits · ${n}`],
  ['/blob/main/LICENSE', (n) => `${n}/LICENSE at main`],
  ['/graphs/contributors', (n) => `Contributors · ${n}`],
];

/** A small deterministic generator (mulberry32): the same seed, the same numbers. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How the reference reads what the spec leaves open about the window and its entries (endpoints.ts sets it). */
export interface TrafficReading {
  /** The 14 UTC days ending with the clock's day, or the 14 completed days before it. */
  window: 'ending-today' | 'completed-days';
  /** A week's entry counts the window's days of it, or its whole week up to the window's end. */
  weeks: 'window-days' | 'whole-weeks';
  /** `Z`, or the offset `+00:00`: both say UTC. */
  zone: 'Z' | '+00:00';
}

export const DEFAULT_READING: TrafficReading = { window: 'ending-today', weeks: 'window-days', zone: 'Z' };

/** The UTC days (as day numbers since the epoch) of the window, oldest first. */
export function windowDays(nowMs: number, reading: TrafficReading = DEFAULT_READING): number[] {
  const last = Math.floor(nowMs / DAY_MS) - (reading.window === 'completed-days' ? 1 : 0);
  return Array.from({ length: TRAFFIC_WINDOW_DAYS }, (_, i) => last - (TRAFFIC_WINDOW_DAYS - 1) + i);
}

/** Visits of each of `n` sources on one day of one repository: a few busy sources, a long tail. */
function dailyVisits(repository: WorldRepository, day: number, salt: number, n: number): TrafficCount[] {
  const next = generator(repository.id * 1_000_003 + day * 31 + salt);
  return Array.from({ length: n }, (_, i) => {
    const count = 1 + Math.floor(next() * (60 / (i + 1)));
    return { count, uniques: 1 + Math.floor(next() * count) };
  });
}

/** Each source's visits summed over the window (uniques summed too: a visitor a day). */
function overWindow(repository: WorldRepository, nowMs: number, reading: TrafficReading, salt: number, n: number): TrafficCount[] {
  const totals = Array.from({ length: n }, () => ({ count: 0, uniques: 0 }));
  for (const day of windowDays(nowMs, reading)) {
    dailyVisits(repository, day, salt, n).forEach((visits, i) => {
      totals[i].count += visits.count;
      totals[i].uniques += visits.uniques;
    });
  }
  return totals;
}

/** Every referring site of the window, unsorted and uncut. */
export function allReferrers(repository: WorldRepository, nowMs: number, reading: TrafficReading = DEFAULT_READING): ReferralSource[] {
  return overWindow(repository, nowMs, reading, 1, REFERRERS.length).map((totals, i) => ({ referrer: REFERRERS[i], ...totals }));
}

/** Every page of the repository visited in the window, unsorted and uncut. */
export function allPaths(repository: WorldRepository, nowMs: number, reading: TrafficReading = DEFAULT_READING): ReferralPath[] {
  const fullName = `${repository.owner}/${repository.name}`;
  return overWindow(repository, nowMs, reading, 2, PAGES.length).map((totals, i) => ({
    path: `/${fullName}${PAGES[i][0]}`,
    title: PAGES[i][1](fullName),
    ...totals,
  }));
}

export type TrafficPer = 'day' | 'week';

export interface TrafficSeries extends TrafficCount {
  entries: (TrafficCount & { timestamp: string })[];
}

/** One kind of visit: views of the repository's pages, or clones of it. */
const KINDS = { views: { salt: 3, most: 40, visitors: 25 }, clones: { salt: 4, most: 12, visitors: 8 } } as const;

/** The visitors of one day, one per visit (the same visitor may come back). */
function dailyVisitors(repository: WorldRepository, day: number, kind: keyof typeof KINDS): number[] {
  const { salt, most, visitors } = KINDS[kind];
  const next = generator(repository.id * 1_000_003 + day * 31 + salt);
  return Array.from({ length: 1 + Math.floor(next() * most) }, () => Math.floor(next() * visitors));
}

/** Midnight UTC starting the day, or the Monday of its week. */
const periodStart = (day: number, per: TrafficPer) => (per === 'day' ? day : day - ((day + 3) % 7));

/** Midnight UTC starting a day, written in the reading's zone. */
const stamp = (day: number, reading: TrafficReading) => formatTimestamp(day * DAY_MS).replace(/Z$/, reading.zone);

/** The window's views or clones, one entry per day or per week, oldest first. */
export function trafficSeries(
  repository: WorldRepository,
  nowMs: number,
  kind: keyof typeof KINDS,
  per: TrafficPer,
  reading: TrafficReading = DEFAULT_READING,
): TrafficSeries {
  const days = windowDays(nowMs, reading);
  const starts = [...new Set(days.map((day) => periodStart(day, per)))];
  const last = days[days.length - 1];
  // The days an entry counts: those of the window in its period, or (whole weeks) every day of its week up to the window's end.
  const daysOf = (start: number) =>
    per === 'week' && reading.weeks === 'whole-weeks'
      ? Array.from({ length: Math.min(7, last - start + 1) }, (_, i) => start + i)
      : days.filter((day) => periodStart(day, per) === start);
  const visits = days.flatMap((day) => dailyVisitors(repository, day, kind));
  return {
    count: visits.length,
    uniques: new Set(visits).size,
    entries: starts.map((start) => {
      const visitors = daysOf(start).flatMap((day) => dailyVisitors(repository, day, kind));
      return { timestamp: stamp(start, reading), count: visitors.length, uniques: new Set(visitors).size };
    }),
  };
}
