// Replay's shortcut for a request it has keyed before. Keying a request (its matched
// headers as recorded, redaction, the match parts, the key string, its hash) is most of
// replay's own work per request, and for a request without a body the key depends only on
// its method, URL and the raw values of the matched headers, and on the secrets the
// redactor has learnt so far. So the index queue the key leads to is kept per raw form (the
// caller keeps only forms that found a recording), and the cache empties itself whenever a
// new secret has been learnt (the redactor then hands out a new replacement list). Requests
// with a body always take the full path. Bounded: emptied when full, at twice the
// cassette's interactions (at least 10,000), so a client varying what matching ignores (a
// cache-busting query parameter in ignoreQuery) costs memory in proportion to the cassette.
// Measured with bench:proxy (wrk): replay of a 1-interaction cassette from 0.85 to 1.0 of
// a bare node server's requests/s (with answering those synchronously, proxy-server.ts).

export interface ReplayKeyCache {
  /** The raw form of a request without a body: what its key is a function of. */
  rawForm(method: string, url: string, rawHeaders: string[]): string;
  /** The index queue (ReplayIndex.queueOf) kept for this raw form. */
  get(rawForm: string): number | undefined;
  set(rawForm: string, queue: number): void;
}

/**
 * `matchHeaders`: the lower-case names that take part in matching; `secrets`: the
 * redactor's current replacement list, the same object until a secret is learnt;
 * `interactions`: how many the cassette holds.
 */
export function createReplayKeyCache(matchHeaders: ReadonlySet<string>, secrets: () => unknown, interactions: number): ReplayKeyCache {
  const limit = Math.max(10_000, 2 * interactions);
  const queues = new Map<string, number>();
  let secretsSeen = secrets();
  return {
    rawForm(method, url, rawHeaders) {
      // Neither a method nor a URL holds a space or a newline, nor does a header value
      // (node's parser refuses them), so the parts cannot run into each other.
      let form = `${method} ${url}`;
      if (matchHeaders.size === 0) return form;
      for (let i = 0; i < rawHeaders.length; i += 2) {
        const lower = rawHeaders[i].toLowerCase();
        if (matchHeaders.has(lower)) form += `\n${lower}: ${rawHeaders[i + 1]}`;
      }
      return form;
    },
    get(rawForm) {
      const current = secrets();
      if (current !== secretsSeen) {
        queues.clear();
        secretsSeen = current;
      }
      return queues.get(rawForm);
    },
    set(rawForm, queue) {
      if (queues.size >= limit) queues.clear();
      queues.set(rawForm, queue);
    },
  };
}
