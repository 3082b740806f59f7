// Repository traffic, endpoints 23–26 of spec document 1 (README "Repository traffic"):
// numbers derived from the world and the clock (traffic-data.ts), for callers with push
// access, or a fine-grained token with Administration (read); 403 for anyone else.
//
// Decision where the spec is silent: a popular list is sorted by count, most first (ties
// by name), as real hosts serve it; "top 10" then keeps the first ten.
import type { AreaModule } from '../../area.js';
import { onRepository, read, REPOSITORY_READ_SCOPES } from '../../auth/endpoint-access.js';
import { defineEndpoint } from '../../endpoint.js';
import type { Faults } from '../../faults.js';
import { allPaths, allReferrers, type TrafficCount } from './traffic-data.js';

const POPULAR_LIST_MAX = 10;

const TRAFFIC_READ = onRepository({
  anonymous: false,
  scopes: REPOSITORY_READ_SCOPES,
  permissions: [read('administration')],
  role: 'push',
});

/** Built-in faults of this area (suites/faults/traffic.yaml says what each does and breaks). */
const TRAFFIC_FAULTS = ['traffic.popular-uncut', 'traffic.popular-unsorted', 'traffic.count-as-string'] as const;

/** The top entries by count, as served. */
function popular<T extends TrafficCount>(entries: T[], name: (entry: T) => string, faults: Faults): unknown[] {
  const sorted = entries.sort((a, b) => b.count - a.count || name(a).localeCompare(name(b)));
  const cut = faults.on('traffic.popular-uncut') ? sorted : sorted.slice(0, POPULAR_LIST_MAX);
  const ordered = faults.on('traffic.popular-unsorted') ? cut.reverse() : cut;
  return faults.on('traffic.count-as-string') ? ordered.map((entry) => ({ ...entry, count: String(entry.count) })) : ordered;
}

const create: AreaModule['create'] = ({ clock, faults }) => {
  const endpoints = [
    defineEndpoint({
      spec: { document: 1, number: 24 },
      id: 'traffic.popular-paths',
      summary: 'Get the top referral paths of a repository',
      method: 'GET',
      path: '/repos/:owner/:repo/traffic/popular/paths',
      access: TRAFFIC_READ,
      handler: async (_request, _reply, { repository }) => popular(allPaths(repository, clock.now()), (e) => e.path, faults),
    }),
    defineEndpoint({
      spec: { document: 1, number: 25 },
      id: 'traffic.popular-referrers',
      summary: 'Get the top referral sources of a repository',
      method: 'GET',
      path: '/repos/:owner/:repo/traffic/popular/referrers',
      access: TRAFFIC_READ,
      handler: async (_request, _reply, { repository }) => popular(allReferrers(repository, clock.now()), (e) => e.referrer, faults),
    }),
  ];
  // Nothing to reset: the numbers are a function of the world and the clock.
  return { name: 'traffic', endpoints, reset: () => {} };
};

export const traffic = { name: 'traffic', faults: TRAFFIC_FAULTS, create } satisfies AreaModule;
