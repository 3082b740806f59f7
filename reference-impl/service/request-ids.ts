// Every answer carries X-Service-Request-Id: the id a user quotes when reporting a problem,
// as real services of this family send one (clients log it with every error). The spec does
// not show it, so no suite checks it as a MUST; reports show it beside a failure.
//
// Decision: the id is derived, not random. It is a hash of the method, the path with its
// query, and how many times that same request came since the last reset, so a recording of
// the reference is byte-identical whenever it is made (every case starts from a reset) and
// ids still differ between requests of a case. Two identical requests in flight at once may
// get each other's id; nothing else tells them apart either. Past MAX_TRACKED distinct
// requests the counts start again under a new generation, so memory stays bounded under a
// long-running server and ids stay distinct.
import { hash } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-service-request-id';
const MAX_TRACKED = 10_000;

export interface RequestIds {
  /** The id of the next request with this method and URL. */
  next(method: string, url: string): string;
  reset(): void;
}

export function createRequestIds(): RequestIds {
  let counts = new Map<string, number>();
  let generation = 0;
  return {
    next(method, url) {
      const key = `${method} ${url}`;
      if (counts.size >= MAX_TRACKED && !counts.has(key)) {
        counts = new Map();
        generation++;
      }
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      const hex = hash('sha256', `${generation}\n${key}\n${n}`).toUpperCase();
      // Shaped like the ids of services of this kind: groups of hex digits joined by colons.
      return `${hex.slice(0, 4)}:${hex.slice(4, 8)}:${hex.slice(8, 14)}:${hex.slice(14, 20)}`;
    },
    reset() {
      counts = new Map();
      generation = 0;
    },
  };
}
