import { expect, test } from '@playwright/test';
import { RECORDED_HOST, type Interaction } from '../cassette/cassette-format.js';
import { DEFAULT_MATCH } from './proxy-options.js';
import { createReplayIndex, keyHash, keyOfRecorded, type ReplayIndex } from './replay-index.js';
import { explainMiss } from './miss-explanation.js';
import { MAX_CANDIDATES, pathShape } from './miss-candidates.js';
import { matchKey, matchParts } from './request-key.js';

const get = (url: string, seq: number): Interaction => ({
  seq,
  request: { method: 'GET', url, headers: [['host', RECORDED_HOST]] },
  response: { status: 200, headers: [] },
});
const partsOf = (url: string) => matchParts({ method: 'GET', url, headers: [] }, DEFAULT_MATCH);
/** The next answer to GET url. */
const lookup = (index: ReplayIndex, url: string) => index.take(index.queueOf(matchKey(partsOf(url))));

test('requests whose match keys share a hash still find their own recordings', () => {
  // Search for two paths whose keys collide in the 30-bit hash (the birthday bound makes
  // one likely within a few tens of thousands).
  const seen = new Map<number, string>();
  let pair: [string, string] | undefined;
  for (let i = 0; !pair; i++) {
    const url = `/c/${i}`;
    const hash = keyHash(matchKey(keyOfRecorded(get(url, 1), DEFAULT_MATCH)));
    const earlier = seen.get(hash);
    if (earlier) pair = [earlier, url];
    else seen.set(hash, url);
  }
  const [first, second] = pair;
  const index = createReplayIndex([get(first, 1), get(second, 2), get(first, 3)], DEFAULT_MATCH, 'error');
  expect(lookup(index, second)).toEqual({ hit: 2 });
  expect(lookup(index, first)).toEqual({ hit: 1 });
  expect(lookup(index, first)).toEqual({ hit: 3 });
  expect(lookup(index, first)).toEqual({ miss: 'exhausted', recorded: 2 });
  expect(lookup(index, second)).toEqual({ miss: 'exhausted', recorded: 1 });
  expect(lookup(index, '/c/never')).toEqual({ miss: 'none' });
  expect(index.interaction(3).request.url).toBe(first);
  expect(index.served()).toBe(3);
  expect(index.unused()).toEqual([]);
});

test('after the last recording a queue repeats its last or cycles, per policy, and counts what was never served', () => {
  const cassette = [get('/a', 1), get('/b', 2), get('/a', 3), get('/unused', 4)];
  const repeat = createReplayIndex(cassette, DEFAULT_MATCH, 'repeat-last');
  const cycle = createReplayIndex(cassette, DEFAULT_MATCH, 'cycle');
  expect([1, 2, 3, 4].map(() => lookup(repeat, '/a'))).toEqual([{ hit: 1 }, { hit: 3 }, { hit: 3 }, { hit: 3 }]);
  expect([1, 2, 3, 4].map(() => lookup(cycle, '/a'))).toEqual([{ hit: 1 }, { hit: 3 }, { hit: 1 }, { hit: 3 }]);
  expect(cycle.unused()).toEqual([2, 4]);
});

test('a miss in 100,000 interactions compares a bounded few and still names the same-route and same-shape neighbours', () => {
  const interactions = Array.from({ length: 100_000 }, (_, i) => get(`/items/${i + 1}`, i + 1));
  interactions.push(get('/items/77?page=2', 100_001));
  const index = createReplayIndex(interactions, DEFAULT_MATCH, 'error');
  let compared = 0;
  const counted = { ...index, partsOf: (i: Interaction) => (compared++, index.partsOf(i)) };
  const request = { method: 'GET', url: '/items/77?page=3' };
  const parts = partsOf(request.url);
  const explanation = explainMiss('big', request, parts, counted, index.take(index.queueOf(matchKey(parts))));
  expect(compared).toBeLessThanOrEqual(MAX_CANDIDATES);
  expect(explanation.nearest.map((n) => n.request)).toEqual(['GET /items/77', 'GET /items/77?page=2', 'GET /items/1']);
  expect(explanation.nearest[0].differences).toEqual([{ rule: 'query', recorded: '', actual: 'page=3' }]);
  // Another shape entirely: the same method's first recordings are the nearest there are.
  compared = 0;
  const other = explainMiss('big', { method: 'GET', url: '/users/x' }, partsOf('/users/x'), counted, { miss: 'none' });
  expect(compared).toBeLessThanOrEqual(MAX_CANDIDATES);
  expect(other.nearest[0].request).toBe('GET /items/1');
});

test('path shapes: numbers, hex digests and UUIDs are ids; words are not', () => {
  expect(pathShape('/repos/o/r/issues/42')).toBe('/repos/o/r/issues/{}');
  expect(pathShape('/git/blobs/3b18e512dba79e4c8300dd08aeb37f8e728b8dad')).toBe('/git/blobs/{}');
  expect(pathShape('/runs/123e4567-e89b-12d3-a456-426614174000/logs')).toBe('/runs/{}/logs');
  expect(pathShape('/repos/octo-org/widgets')).toBe('/repos/octo-org/widgets');
});
