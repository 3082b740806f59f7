// The hash index a cassette is replayed from: built once at load, so a lookup costs the
// same for 1 or 100,000 interactions. Identical requests are answered in recorded order;
// what happens after the last one is the exhaustion policy.
import type { Interaction } from '../cassette/cassette-format.js';
import { createMissCandidates, type MissCandidates } from './miss-candidates.js';
import type { ExhaustionPolicy, MatchConfig } from './proxy-options.js';
import { keyedBody, matchKey, matchParts, type KeyedRequest, type MatchParts } from './request-key.js';

/** A hit names the recorded interaction by seq. */
export type Lookup = { hit: number } | { miss: 'none' } | { miss: 'exhausted'; recorded: number };

export interface ReplayIndex {
  /** The queue of the recordings with this key (matchKey), -1 when there is none: a number to keep instead of the key. */
  queueOf(key: string): number;
  /** The next recorded answer from a queue of queueOf (-1: a miss); a miss changes nothing. */
  take(queue: number): Lookup;
  /** The recorded interaction with this seq. */
  interaction(seq: number): Interaction;
  /** The recorded interactions a miss of this method and path is compared with (a bounded few). */
  missCandidates: MissCandidates;
  /** The match parts of a recorded request, recomputed (only misses need them; not storing them keeps the heap small). */
  partsOf(interaction: Interaction): MatchParts;
  /** seq of interactions never served. */
  unused(): number[];
  served(): number;
}

export function keyOfRecorded(interaction: Interaction, config: MatchConfig): MatchParts {
  const { method, url, headers, body } = interaction.request;
  const keyed: KeyedRequest = { method, url, headers, body: keyedBody(body) };
  return matchParts(keyed, config);
}

/**
 * The index is typed arrays and one Map from a 30-bit hash of the match key to a queue
 * number: queue q's seqs, in recorded order, are seqs[start[q] .. start[q + 1]), next[q]
 * is its position, and queues whose keys share a hash are chained through sameHash.
 * A lookup in a 100,000-interaction cassette then follows few pointers: a Map keyed by
 * the key strings (or holding queue objects) had to load scattered strings and objects
 * to compare, and cost 2-4 times a lookup in a 1-interaction cassette.
 */
export function createReplayIndex(interactions: Interaction[], config: MatchConfig, policy: ExhaustionPolicy): ReplayIndex {
  const keys: string[] = [];
  const byHash = new Map<number, number>(); // hash -> the last queue with it
  const sameHash: number[] = []; // queue -> an earlier queue with the same hash, or -1
  const queueOf = (key: string, hash: number): number => {
    let id = byHash.get(hash) ?? -1;
    while (id >= 0 && keys[id] !== key) id = sameHash[id];
    return id;
  };
  const queueOfInteraction = new Uint32Array(interactions.length);
  interactions.forEach((interaction, i) => {
    const key = matchKey(keyOfRecorded(interaction, config));
    const hash = keyHash(key);
    let id = queueOf(key, hash);
    if (id < 0) {
      id = keys.push(key) - 1;
      sameHash.push(byHash.get(hash) ?? -1);
      byHash.set(hash, id);
    }
    queueOfInteraction[i] = id;
  });
  const queues = keys.length;
  const start = new Uint32Array(queues + 1);
  for (const id of queueOfInteraction) start[id + 1]++;
  for (let q = 0; q < queues; q++) start[q + 1] += start[q];
  const seqs = new Uint32Array(interactions.length);
  const filled = start.slice(0, queues);
  interactions.forEach((interaction, i) => (seqs[filled[queueOfInteraction[i]]++] = interaction.seq));
  const next = new Uint32Array(queues);

  const bySeq: Interaction[] = [];
  for (const interaction of interactions) bySeq[interaction.seq] = interaction;
  // By seq; a flag array does not grow (or rehash) while a big cassette is served.
  const used = new Uint8Array(bySeq.length);
  let served = 0;
  return {
    interaction: (seq) => bySeq[seq],
    missCandidates: createMissCandidates(interactions, (interaction) => keyOfRecorded(interaction, config)),
    partsOf: (interaction) => keyOfRecorded(interaction, config),
    queueOf: (key) => queueOf(key, keyHash(key)),
    take,
    unused: () => interactions.filter((i) => !used[i.seq]).map((i) => i.seq),
    served: () => served,
  };

  function take(id: number): Lookup {
    if (id < 0) return { miss: 'none' };
    const length = start[id + 1] - start[id];
    let position = next[id];
    if (position >= length) {
      if (policy === 'error') return { miss: 'exhausted', recorded: length };
      position = policy === 'repeat-last' ? length - 1 : position % length;
    }
    next[id] = position + 1;
    const seq = seqs[start[id] + position];
    used[seq] = 1;
    served++;
    return { hit: seq };
  }
}

/** FNV-1a over the UTF-16 code units, cut to 30 bits so V8 keeps it a small integer. */
export function keyHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash & 0x3fffffff;
}
