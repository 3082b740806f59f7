// The hash index a cassette is replayed from: built once at load, so a lookup costs the
// same for 1 or 100,000 interactions. Identical requests are answered in recorded order;
// what happens after the last one is the exhaustion policy.
import type { Interaction } from '../cassette/cassette-format.js';
import type { ExhaustionPolicy, MatchConfig } from './proxy-options.js';
import { matchKey, matchParts, type KeyedRequest, type MatchParts } from './request-key.js';

export interface IndexedInteraction {
  interaction: Interaction;
  parts: MatchParts;
}

export type Lookup =
  | { hit: IndexedInteraction }
  | { miss: 'none' }
  | { miss: 'exhausted'; recorded: number };

export interface ReplayIndex {
  readonly entries: readonly IndexedInteraction[];
  lookup(parts: MatchParts): Lookup;
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
  const entries = interactions.map((interaction) => ({ interaction, parts: keyOfRecorded(interaction, config) }));
  const queues = new Map<string, { list: IndexedInteraction[]; next: number }>();
  for (const entry of entries) {
    const key = matchKey(entry.parts);
    const queue = queues.get(key);
    if (queue) queue.list.push(entry);
    else queues.set(key, { list: [entry], next: 0 });
  }
  const used = new Set<number>();
  let served = 0;
  return {
    entries,
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
      used.add(hit.interaction.seq);
      served++;
      return { hit };
    },
    unused: () => entries.filter((e) => !used.has(e.interaction.seq)).map((e) => e.interaction.seq),
    served: () => served,
  };
}
