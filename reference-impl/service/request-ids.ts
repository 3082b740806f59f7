// Every answer carries X-Service-Request-Id: the id a user quotes when reporting a problem,
// as real services of this family send one (clients log it with every error). The spec does
// not show it, so no suite checks it as a MUST; reports show it beside a failure.
//
// Decision: the id is derived, not random. It is a hash of the method, the path with its
// query, and how many times that same request came since the last reset, so a recording of
// the reference is byte-identical whenever it is made (every case starts from a reset) and
// ids still differ between requests of a case. Requests in flight at once reach the service
// in no fixed order, so a request that names itself with X-Request-Id (as clients do to tell
// retries or parallel copies apart; touchstone's parallel steps name each copy) is counted
// under that name too: its id then does not depend on which copy arrived first. The name is
// only an input, never echoed; one that is not 1-200 characters of [A-Za-z0-9._:@/+=-] is
// ignored (not refused: the header is the client's business). Past MAX_TRACKED distinct
// requests the counts start again under a new generation, so memory stays bounded under a
// long-running server and ids stay distinct.
import { hash } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-service-request-id';
/** The request header by which a client names its request. */
export const CLIENT_REQUEST_ID_HEADER = 'x-request-id';
const MAX_TRACKED = 10_000;
const CLIENT_ID = /^[A-Za-z0-9._:@/+=-]{1,200}$/;

export interface RequestIds {
  /** The id of the next request with this method, URL and (when usable) the client's name for it. */
  next(method: string, url: string, clientId?: string | string[]): string;
  reset(): void;
}

export function createRequestIds(): RequestIds {
  let counts = new Map<string, number>();
  let generation = 0;
  return {
    next(method, url, clientId) {
      const key = typeof clientId === 'string' && CLIENT_ID.test(clientId) ? `${method} ${url} ${clientId}` : `${method} ${url}`;
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
