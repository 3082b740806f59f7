import { expect, test } from '@playwright/test';
import { RECORDED_HOST, type Interaction } from '../cassette/cassette-format.js';
import { DEFAULT_MATCH } from './proxy-options.js';
import { createReplayIndex, keyHash, keyOfRecorded } from './replay-index.js';
import { matchKey, matchParts } from './request-key.js';

const get = (url: string, seq: number): Interaction => ({
  seq,
  request: { method: 'GET', url, headers: [['host', RECORDED_HOST]] },
  response: { status: 200, headers: [] },
});
const partsOf = (url: string) => matchParts({ method: 'GET', url, headers: [] }, DEFAULT_MATCH);

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
  expect(index.lookup(partsOf(second))).toEqual({ hit: 2 });
  expect(index.lookup(partsOf(first))).toEqual({ hit: 1 });
  expect(index.lookup(partsOf(first))).toEqual({ hit: 3 });
  expect(index.lookup(partsOf(first))).toEqual({ miss: 'exhausted', recorded: 2 });
  expect(index.lookup(partsOf(second))).toEqual({ miss: 'exhausted', recorded: 1 });
  expect(index.lookup(partsOf('/c/never'))).toEqual({ miss: 'none' });
  expect(index.interaction(3).request.url).toBe(first);
  expect(index.served()).toBe(3);
  expect(index.unused()).toEqual([]);
});

test('after the last recording a queue repeats its last or cycles, per policy, and counts what was never served', () => {
  const cassette = [get('/a', 1), get('/b', 2), get('/a', 3), get('/unused', 4)];
  const repeat = createReplayIndex(cassette, DEFAULT_MATCH, 'repeat-last');
  const cycle = createReplayIndex(cassette, DEFAULT_MATCH, 'cycle');
  expect([1, 2, 3, 4].map(() => repeat.lookup(partsOf('/a')))).toEqual([{ hit: 1 }, { hit: 3 }, { hit: 3 }, { hit: 3 }]);
  expect([1, 2, 3, 4].map(() => cycle.lookup(partsOf('/a')))).toEqual([{ hit: 1 }, { hit: 3 }, { hit: 1 }, { hit: 3 }]);
  expect(cycle.unused()).toEqual([2, 4]);
});
