// Where a miss looks for its nearest recorded interactions, so that explaining a miss costs
// about what a hit costs whatever the cassette's size: the interactions of the same route
// (method and path) first, then those whose path has the same shape (`/items/{}` for
// `/items/7`: segments that look like ids count as one), with the same method and then any,
// then the same method, then any; at most MAX_CANDIDATES in all, each group in recorded
// order. The groups are built once, at the first miss, in one pass over the cassette, and
// the match parts of an interaction once it is a candidate (misses of one shape keep
// comparing the same few; at most MAX_REMEMBERED_PARTS are kept).
//
// Decision: the nearest are thus the nearest among the candidates. Method and path weigh most
// in the ranking (miss-explanation.ts), so a same-route neighbour, when one exists, is always
// among them; within a route of thousands of variants (one path, many queries), the first
// MAX_CANDIDATES recorded are compared.
import type { Interaction } from '../cassette/cassette-format.js';
import type { MatchParts } from './request-key.js';

export const MAX_CANDIDATES = 64;
const MAX_REMEMBERED_PARTS = 10_000;

/** `/repos/o/r/issues/42` → `/repos/o/r/issues/{}`: numbers, hex digests and UUIDs are ids. */
export function pathShape(path: string): string {
  return path
    .split('/')
    .map((segment) =>
      /^(?:\d+|[0-9a-f]{7,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.test(segment) ? '{}' : segment,
    )
    .join('/');
}

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
};

export type MissCandidates = (method: string, path: string) => Array<{ interaction: Interaction; recorded: MatchParts }>;

export function createMissCandidates(
  interactions: readonly Interaction[],
  partsOf: (interaction: Interaction) => MatchParts,
): MissCandidates {
  let remembered = new Map<number, MatchParts>();
  const recordedParts = (i: number): MatchParts => {
    let parts = remembered.get(i);
    if (!parts) {
      if (remembered.size >= MAX_REMEMBERED_PARTS) remembered = new Map();
      remembered.set(i, (parts = partsOf(interactions[i])));
    }
    return parts;
  };
  let groups:
    | { route: Map<string, number[]>; shape: Map<string, number[]>; shapeAnyMethod: Map<string, number[]>; method: Map<string, number[]> }
    | undefined;
  const add = (map: Map<string, number[]>, key: string, i: number) => {
    const list = map.get(key);
    if (!list) map.set(key, [i]);
    else if (list.length < MAX_CANDIDATES) list.push(i);
  };
  const build = () => {
    const built = { route: new Map(), shape: new Map(), shapeAnyMethod: new Map(), method: new Map() };
    interactions.forEach((interaction, i) => {
      const method = interaction.request.method.toUpperCase();
      const path = pathOf(interaction.request.url);
      const shape = pathShape(path);
      add(built.route, `${method} ${path}`, i);
      add(built.shape, `${method} ${shape}`, i);
      add(built.shapeAnyMethod, shape, i);
      add(built.method, method, i);
    });
    return built;
  };
  const firstOnes = interactions.slice(0, MAX_CANDIDATES).map((_, i) => i);
  return (method, path) => {
    groups ??= build();
    const shape = pathShape(path);
    const chosen = new Set<number>();
    for (const list of [
      groups.route.get(`${method} ${path}`),
      groups.shape.get(`${method} ${shape}`),
      groups.shapeAnyMethod.get(shape),
      groups.method.get(method),
      firstOnes,
    ]) {
      for (const i of list ?? []) {
        if (chosen.size >= MAX_CANDIDATES) break;
        chosen.add(i);
      }
    }
    return [...chosen].map((i) => ({ interaction: interactions[i], recorded: recordedParts(i) }));
  };
}
