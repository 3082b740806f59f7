// Webhook deliveries of the reference (spec 2 names RepositoryImportEvent and leaves its
// payload and delivery "not shown"): when a URL is configured (`touchstone serve
// --import-webhook URL`), each event is POSTed there as JSON with the header
// X-Service-Event naming it, in the order raised, one at a time, each given 5 s. A
// delivery that fails (an error, a timeout, a status other than 2xx) is dropped, never
// retried: the service does not wait for its subscribers.
export interface Webhooks {
  deliver(event: string, payload: object): void;
  /** Resolves when every delivery raised so far has been attempted (tests, shutdown). */
  settled(): Promise<void>;
}

export function createWebhooks(url?: string): Webhooks {
  let queue = Promise.resolve();
  return {
    deliver(event, payload) {
      if (url === undefined) return;
      queue = queue.then(async () => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-service-event': event, 'user-agent': 'touchstone-reference-webhooks' },
          body: JSON.stringify(payload),
          signal: AbortSignal.timeout(5000),
        }).catch(() => undefined);
        // Nothing is read from the answer; letting it go frees the connection.
        await response?.body?.cancel();
      });
    },
    settled: () => queue,
  };
}
