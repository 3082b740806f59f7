// A miss is loud and says why: the three recorded interactions nearest to the request,
// each with the rules it failed and both values, so a user sees at once whether a query
// parameter, a header or a body field moved. Only the candidates the index names are
// compared (miss-candidates.ts), so a miss costs the same in a cassette of any size.
import type { Lookup, ReplayIndex } from './replay-index.js';
import { MATCH_RULES, type MatchParts, type MatchRule } from './request-key.js';

const SHOWN = 300;
const shorten = (value: string) => (value.length > SHOWN ? `${value.slice(0, SHOWN)}… (${value.length} chars)` : value);

export interface MissExplanation {
  error: string;
  cassette: string;
  request: { method: string; url: string };
  nearest: { seq: number; request: string; differences: { rule: MatchRule; recorded: string; actual: string }[] }[];
}

export function explainMiss(
  cassette: string,
  request: { method: string; url: string },
  parts: MatchParts,
  index: ReplayIndex | undefined,
  lookup: Lookup,
  /** Why there is no index, when there is none (CassetteSession.absent). */
  absent = 'the cassette does not exist',
): MissExplanation {
  const error =
    'miss' in lookup && lookup.miss === 'exhausted'
      ? `all ${lookup.recorded} recorded responses to this request were already used (exhaustion policy: error)`
      : index
        ? 'no recorded interaction matches this request'
        : absent;
  // Fewest differing rules first; method and path weigh most, so a same-route neighbour wins.
  const scored = (index?.missCandidates(parts.method, parts.path) ?? []).map(({ interaction, recorded }) => {
    let weight = 0;
    for (const rule of MATCH_RULES) if (recorded[rule] !== parts[rule]) weight += rule === 'method' || rule === 'path' ? 10 : 1;
    return { interaction, recorded, weight };
  });
  scored.sort((a, b) => a.weight - b.weight || a.interaction.seq - b.interaction.seq);
  return {
    error: `touchstone: ${error}`,
    cassette,
    request,
    nearest: scored.slice(0, 3).map(({ interaction, recorded }) => ({
      seq: interaction.seq,
      request: `${interaction.request.method} ${interaction.request.url}`,
      differences: MATCH_RULES.filter((rule) => recorded[rule] !== parts[rule]).map((rule) => ({
        rule,
        recorded: shorten(recorded[rule]),
        actual: shorten(parts[rule]),
      })),
    })),
  };
}
