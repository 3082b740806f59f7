// Repository traffic, endpoints 23–26 of spec document 1 (README "Repository traffic"):
// numbers derived from the world and the clock (traffic-data.ts), for callers with push
// access, or a fine-grained token with Administration (read); 403 for anyone else.
//
// Decisions where the spec is silent, and the variations that make each otherwise
// (suites/variants/traffic.yaml; those of the window and the entries: traffic-data.ts):
// - A popular list is ranked by count, most first (ties by name), as real hosts serve it;
//   "top 10" then keeps the first ten. Variation traffic.popular-by-uniques ranks and
//   orders them by uniques instead ("top 10" names no measure and no order).
// - `per` other than `day` or `week` (the spec's two values; case matters) is 422, field
//   `per`, code `invalid`; a repeated `per` uses the first. Variation
//   traffic.unknown-per-as-day reads any other value as the default, day.
// - An anonymous caller is 401 (authentication required), as everywhere in the service.
//   Variation traffic.anonymous-403 reads "403 otherwise" as covering anonymous callers too:
//   they reach the push-access check and get 403 (a private repository stays hidden, 404).
// - An app installation with Administration and a workflow token are judged by their
//   permissions, as every token but a classic one is. Variation traffic.installation-refused
//   refuses installations (403): the spec names users with write access and fine-grained
//   tokens only.
// - The window is the 14 days ending today; variation traffic.window-completed-days takes
//   the 14 completed days, traffic.window-rolling-hours the 15 days the last 14 x 24 hours
//   touch (the day 14 days back too). Week entries count the window's days of their week; variation
//   traffic.week-entries-whole-weeks counts whole weeks. Timestamps end in `Z`; variation
//   traffic.timestamps-offset writes `+00:00`.
import type { AreaModule } from '../../area.js';
import { onRepository, read, REPOSITORY_READ_SCOPES } from '../../auth/endpoint-access.js';
import { defineEndpoint } from '../../endpoint.js';
import { queryValue } from '../../query.js';
import { validationFailed } from '../../errors.js';
import type { Faults } from '../../faults.js';
import { DAY_MS, formatTimestamp } from '../../clock.js';
import type { WorldRepository } from '../../world-model.js';
import type { Variants } from '../../variants.js';
import { allPaths, allReferrers, trafficSeries, type TrafficCount, type TrafficPer, type TrafficReading } from './traffic-data.js';

const POPULAR_LIST_MAX = 10;

const TRAFFIC_READ = onRepository({
  anonymous: false,
  scopes: REPOSITORY_READ_SCOPES,
  permissions: [read('administration')],
  role: 'push',
  variations: [
    { variant: 'traffic.anonymous-403', anonymous: true },
    // An app installation is neither a user with write access nor a fine-grained token.
    { variant: 'traffic.installation-refused', tokenKinds: ['classic', 'oauth', 'fine-grained', 'app-user', 'workflow'] },
  ],
});

/** The window and entries as the variations switched on read them (traffic-data.ts). */
const readingOf = (variants: Variants): TrafficReading => ({
  window: variants.on('traffic.window-completed-days') ? 'completed-days' : 'ending-today',
  weeks: variants.on('traffic.week-entries-whole-weeks') ? 'whole-weeks' : 'window-days',
  zone: variants.on('traffic.timestamps-offset') ? '+00:00' : 'Z',
});

/** The top entries, most counted (or, varied, most unique visitors) first, as served. */
function popular<T extends TrafficCount>(entries: T[], name: (entry: T) => string, faults: Faults, variants: Variants): unknown[] {
  const measure = (entry: T) => (variants.on('traffic.popular-by-uniques') ? entry.uniques : entry.count);
  const sorted = entries.sort((a, b) => measure(b) - measure(a) || name(a).localeCompare(name(b)));
  const cut = faults.on('traffic.popular-uncut') ? sorted : sorted.slice(0, POPULAR_LIST_MAX);
  return faults.on('traffic.count-as-string') ? cut.map((entry) => ({ ...entry, count: String(entry.count) })) : cut;
}

const create: AreaModule['create'] = ({ clock, faults, variants }) => {
  /** Views or clones as `{count, uniques, <kind>: entries}`, per the request's `per`. */
  const series = (query: unknown, repository: WorldRepository, kind: 'views' | 'clones') => {
    const asked = queryValue(query, 'per') ?? 'day';
    if (asked !== 'day' && asked !== 'week' && !variants.on('traffic.unknown-per-as-day'))
      throw validationFailed([{ resource: 'Traffic', field: 'per', code: 'invalid' }]);
    const per: TrafficPer = asked === 'week' && !faults.on('traffic.per-ignored') ? 'week' : 'day';
    // The faults: the 14 days before the window listed too, weeks from Sunday, timestamps at noon.
    // The variation traffic.window-rolling-hours: the 15 days the last 14 x 24 hours touch.
    const now = clock.now();
    const reading = readingOf(variants);
    const { count, uniques, entries } = trafficSeries(repository, now, kind, per, reading);
    let shown = entries;
    if (per === 'day' && (variants.on('traffic.window-rolling-hours') || faults.on('traffic.window-28-days'))) {
      const before = trafficSeries(repository, now - 14 * DAY_MS, kind, 'day', reading).entries;
      shown = [...(faults.on('traffic.window-28-days') ? before : before.slice(-1)), ...entries];
    }
    if (faults.on('traffic.week-starts-sunday') && per === 'week')
      shown = shown.map((e) => ({ ...e, timestamp: formatTimestamp(Date.parse(e.timestamp) - DAY_MS) }));
    if (faults.on('traffic.timestamps-at-noon')) shown = shown.map((e) => ({ ...e, timestamp: e.timestamp.replace('T00:', 'T12:') }));
    const key = faults.on('traffic.series-key-entries') ? 'entries' : kind;
    return { count, uniques, [key]: shown };
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
      handler: (_request, _reply, { repository }) =>
        popular(allPaths(repository, clock.now(), readingOf(variants)), (e) => e.path, faults, variants),
    }),
    defineEndpoint({
      spec: { document: 1, number: 25 },
      id: 'traffic.popular-referrers',
      summary: 'Get the top referral sources of a repository',
      method: 'GET',
      path: '/repos/:owner/:repo/traffic/popular/referrers',
      responses: { 200: 'referral-source[]' },
      access: TRAFFIC_READ,
      handler: (_request, _reply, { repository }) =>
        popular(allReferrers(repository, clock.now(), readingOf(variants)), (e) => e.referrer, faults, variants),
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

export const traffic = { name: 'traffic', create } satisfies AreaModule;
