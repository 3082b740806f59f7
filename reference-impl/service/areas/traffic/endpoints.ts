// Repository traffic, endpoints 23–26 of spec document 1 (README "Repository traffic"):
// numbers derived from the world and the clock (traffic-data.ts), for callers with push
// access, or a fine-grained token with Administration (read); 403 for anyone else.
//
// Decisions where the spec is silent:
// - A popular list is sorted by count, most first (ties by name), as real hosts serve it;
//   "top 10" then keeps the first ten.
// - `per` other than `day` or `week` (the spec's two values; case matters) is 422, field
//   `per`, code `invalid`; a repeated `per` uses the first.
import type { AreaModule } from '../../area.js';
import { onRepository, read, REPOSITORY_READ_SCOPES } from '../../auth/endpoint-access.js';
import { defineEndpoint } from '../../endpoint.js';
import { queryValue } from '../../query.js';
import { validationFailed } from '../../errors.js';
import type { Faults } from '../../faults.js';
import { DAY_MS, formatTimestamp } from '../../clock.js';
import type { WorldRepository } from '../../world-model.js';
import { allPaths, allReferrers, trafficSeries, type TrafficCount, type TrafficPer } from './traffic-data.js';

const POPULAR_LIST_MAX = 10;

const TRAFFIC_READ = onRepository({
  anonymous: false,
  scopes: REPOSITORY_READ_SCOPES,
  permissions: [read('administration')],
  role: 'push',
});

/** Built-in faults of this area (suites/faults/traffic.yaml says what each does and breaks). */
const TRAFFIC_FAULTS = [
  'traffic.popular-uncut',
  'traffic.popular-unsorted',
  'traffic.count-as-string',
  'traffic.per-ignored',
  'traffic.window-15-days',
  'traffic.week-starts-sunday',
  'traffic.timestamps-at-noon',
  'traffic.count-not-summed',
  'traffic.invalid-per-accepted',
  'traffic.series-key-entries',
] as const;

/** The top entries by count, as served. */
function popular<T extends TrafficCount>(entries: T[], name: (entry: T) => string, faults: Faults): unknown[] {
  const sorted = entries.sort((a, b) => b.count - a.count || name(a).localeCompare(name(b)));
  const cut = faults.on('traffic.popular-uncut') ? sorted : sorted.slice(0, POPULAR_LIST_MAX);
  const ordered = faults.on('traffic.popular-unsorted') ? cut.reverse() : cut;
  return faults.on('traffic.count-as-string') ? ordered.map((entry) => ({ ...entry, count: String(entry.count) })) : ordered;
}

const create: AreaModule['create'] = ({ clock, faults }) => {
  /** Views or clones as `{count, uniques, <kind>: entries}`, per the request's `per`. */
  const series = (query: unknown, repository: WorldRepository, kind: 'views' | 'clones') => {
    const asked = queryValue(query, 'per') ?? 'day';
    if (asked !== 'day' && asked !== 'week' && !faults.on('traffic.invalid-per-accepted'))
      throw validationFailed([{ resource: 'Traffic', field: 'per', code: 'invalid' }]);
    const per: TrafficPer = asked === 'week' && !faults.on('traffic.per-ignored') ? 'week' : 'day';
    // The faults: a day before the window listed too, weeks from Sunday, timestamps at noon, a total one off.
    const now = clock.now();
    const { count, uniques, entries } = trafficSeries(repository, now, kind, per);
    let shown = entries;
    if (faults.on('traffic.window-15-days') && per === 'day')
      shown = [...trafficSeries(repository, now - 14 * DAY_MS, kind, 'day').entries.slice(-1), ...entries];
    if (faults.on('traffic.week-starts-sunday') && per === 'week')
      shown = shown.map((e) => ({ ...e, timestamp: formatTimestamp(Date.parse(e.timestamp) - DAY_MS) }));
    if (faults.on('traffic.timestamps-at-noon')) shown = shown.map((e) => ({ ...e, timestamp: e.timestamp.replace('T00:', 'T12:') }));
    const key = faults.on('traffic.series-key-entries') ? 'entries' : kind;
    return { count: faults.on('traffic.count-not-summed') ? count + 1 : count, uniques, [key]: shown };
  };
  const endpoints = [
    defineEndpoint({
      spec: { document: 1, number: 23 },
      id: 'traffic.clones',
      summary: 'Get repository clones',
      method: 'GET',
      path: '/repos/:owner/:repo/traffic/clones',
      responses: { 200: 'traffic-clones' },
      access: TRAFFIC_READ,
      handler: (request, _reply, { repository }) => series(request.query, repository, 'clones'),
    }),
    defineEndpoint({
      spec: { document: 1, number: 24 },
      id: 'traffic.popular-paths',
      summary: 'Get the top referral paths of a repository',
      method: 'GET',
      path: '/repos/:owner/:repo/traffic/popular/paths',
      responses: { 200: 'referral-path[]' },
      access: TRAFFIC_READ,
      handler: (_request, _reply, { repository }) => popular(allPaths(repository, clock.now()), (e) => e.path, faults),
    }),
    defineEndpoint({
      spec: { document: 1, number: 25 },
      id: 'traffic.popular-referrers',
      summary: 'Get the top referral sources of a repository',
      method: 'GET',
      path: '/repos/:owner/:repo/traffic/popular/referrers',
      responses: { 200: 'referral-source[]' },
      access: TRAFFIC_READ,
      handler: (_request, _reply, { repository }) => popular(allReferrers(repository, clock.now()), (e) => e.referrer, faults),
    }),
    defineEndpoint({
      spec: { document: 1, number: 26 },
      id: 'traffic.views',
      summary: 'Get page views',
      method: 'GET',
      path: '/repos/:owner/:repo/traffic/views',
      responses: { 200: 'traffic-views' },
      access: TRAFFIC_READ,
      handler: (request, _reply, { repository }) => series(request.query, repository, 'views'),
    }),
  ];
  // Nothing to reset: the numbers are a function of the world and the clock.
  return { name: 'traffic', endpoints, reset: () => {}, state: () => null };
};

export const traffic = { name: 'traffic', faults: TRAFFIC_FAULTS, create } satisfies AreaModule;
