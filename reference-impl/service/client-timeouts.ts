// How long the service's clients may take (service.ts applies them; `touchstone serve` shows
// and sets them), in a module of its own so the command's --help need not load the service.
/**
 * Limits on slow and idle clients, so a few of them cannot hold the service's connections:
 * `headersMs` for a request's head to arrive (slow-header clients are cut), `requestMs` for
 * the whole request, body included, and `idleMs` for a keep-alive connection between requests.
 * Bodies are capped too (1 MiB, or an endpoint's own bodyLimit: 413).
 */
export interface ClientTimeouts {
  headersMs: number;
  requestMs: number;
  idleMs: number;
}

// Decision: 10 s for the head (no client on a working network needs more), 60 s for a whole
// request (the largest body the service takes is a 100 MB blob), 72 s idle (longer than the
// 60 s idle timeout common in load balancers, so they close first, never mid-request).
export const DEFAULT_CLIENT_TIMEOUTS: ClientTimeouts = { headersMs: 10_000, requestMs: 60_000, idleMs: 72_000 };
