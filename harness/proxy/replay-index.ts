// The hash index a cassette is replayed from: built once at load, so a lookup costs the
// same for 1 or 100,000 interactions. Identical requests are answered in recorded order;
// what happens after the last one is the exhaustion policy.
import type { Interaction } from '../cassette/cassette-format.js';
import type { ExhaustionPolicy, MatchConfig } from './proxy-options.js';
import { matchKey, matchParts, type KeyedRequest, type MatchParts } from './request-key.js';

export type Lookup =
  | { hit: Interaction }
  | { miss: 'none' }
  | { miss: 'exhausted'; recorded: number };

export interface ReplayIndex {
  readonly interactions: readonly Interaction[];
  lookup(parts: MatchParts): Lookup;
  /** The match parts of a recorded request, recomputed (only misses need them; not storing them keeps the heap small). */
  partsOf(interaction: Interaction): MatchParts;
  /** seq of interactions never served. */
  unused(): number[];
  served(): number;
}

export function keyOfRecorded(interaction: Interaction, config: MatchConfig): MatchParts {
  const { method, url, headers, body } = interaction.request;
  const keyed: KeyedRequest = { method, url, headers, body: body && { inline: body } };
  return matchParts(keyed, config);
}

export function createReplayIndex(interactions: Interaction[], config: MatchConfig, policy: ExhaustionPolicy): ReplayIndex {
  const queues = new Map<string, { list: Interaction[]; next: number }>();
  for (const interaction of interactions) {
    const key = matchKey(keyOfRecorded(interaction, config));
    const queue = queues.get(key);
    if (queue) queue.list.push(interaction);
    else queues.set(key, { list: [interaction], next: 0 });
  }
  // By seq; a flag array does not grow (or rehash) while a big cassette is served.
  const used = new Uint8Array(interactions.reduce((max, i) => Math.max(max, i.seq), 0) + 1);
  let served = 0;
  return {
    interactions,
    partsOf: (interaction) => keyOfRecorded(interaction, config),
    lookup(parts) {
      const queue = queues.get(matchKey(parts));
      if (!queue) return { miss: 'none' };
      let position = queue.next;
      if (position >= queue.list.length) {
        if (policy === 'error') return { miss: 'exhausted', recorded: queue.list.length };
        position = policy === 'repeat-last' ? queue.list.length - 1 : position % queue.list.length;
      }
      queue.next = position + 1;
      const hit = queue.list[position];
      used[hit.seq] = 1;
      served++;
      return { hit };
    },
    unused: () => interactions.filter((i) => !used[i.seq]).map((i) => i.seq),
    served: () => served,
  };
}
