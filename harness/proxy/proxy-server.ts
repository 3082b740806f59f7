// The record/replay proxy: one node:http server whose handler does what the mode says.
// replay never creates an upstream client at all (there is no forwarder to call), so it
// cannot open a connection even by mistake.
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import {
  INLINE_TEXT_LIMIT,
  RECORDED_HOST,
  RECORDED_ORIGIN,
  type Cassette,
  type RecordedRequest,
  type RecordedResponse,
} from '../cassette/cassette-format.js';
import type { HeaderPairs } from '../core/results.js';
import { createCassetteSessions, type BodySink, type CassetteSession, type ExchangeSeen } from './cassette-sessions.js';
import { createLiveForwarder, headerPairs, UPSTREAM_ERROR_HEADER, type LiveForwarder } from './live-forward.js';
import { createProxyLog, nearestLine } from './proxy-log.js';
import { plural } from '../core/plural.js';
import { explainMiss } from './miss-explanation.js';
import {
  behaviourOf,
  CASSETTE_HEADER,
  DEFAULT_EXHAUSTION,
  DEFAULT_MATCH,
  DEFAULT_MISS_STATUS,
  DEFAULT_PROXY_CLIENT_TIMEOUTS,
  DEFAULT_RECORD_MODE,
  LISTED_MISSES,
  MISS_HEADER,
  type ProxyOptions,
  type ProxySummary,
} from './proxy-options.js';
import { BodyTooLarge, hasBody, MAX_BUFFERED_REQUEST, rawHeader, readRequestBody } from './raw-request.js';
import { createPreparedAnswers, createSubstitute, standardStatusText, writePrepared, type PreparedAnswers } from './replay-response.js';
import { matchKey } from './request-key.js';
import { tuneForServing } from '../../lib/serving-runtime.js';

export interface RunningProxy {
  url: string;
  summary(): ProxySummary;
  /** Compacts one cassette's recording now (run --record: its case reached an outcome); no request may come for it after. */
  keep(cassette: string): void;
  /** Stops accepting, waits for answers in flight, compacts the recordings `keep` names (all by default), drops the rest. */
  close(keep?: (cassette: string) => boolean): Promise<{ summary: ProxySummary; written: Cassette[] }>;
}

export async function createProxy(options: ProxyOptions): Promise<RunningProxy> {
  tuneForServing();
  const { mode, recordMode } = options;
  const behaviour = behaviourOf(mode, recordMode);
  if (behaviour !== 'replay' && !options.target) throw new HarnessError('USAGE', `--target is required in ${mode} mode`);
  const match = { ...DEFAULT_MATCH, ...options.match };
  const log = createProxyLog(options.log, options.logTo);
  const scratch = behaviour === 'verify' ? mkdtempSync(path.join(os.tmpdir(), 'touchstone-verify-')) : undefined;
  // The proxy's own origin and the target's stand for the recorded origin in kept bodies too.
  let originsReplaced: ReadonlyArray<readonly [string, string]> = [];
  const sessions = createCassetteSessions(options.cassette, {
    mode: behaviour,
    match,
    policy: options.exhausted ?? DEFAULT_EXHAUSTION,
    redaction: options.redaction,
    replaced: () => originsReplaced,
    scratch,
    crashed: options.crashed,
  });
  // Made once the cassette is known to open: a bad one fails the start without an upstream client.
  const forwarder: LiveForwarder | undefined =
    behaviour === 'replay' ? undefined : createLiveForwarder(options.target!, options.upstreamTimeoutMs ?? 30_000);
  const summary: ProxySummary = {
    mode,
    ...(mode === 'record' && { recordMode: recordMode ?? DEFAULT_RECORD_MODE }),
    cassettes: [],
    misses: [],
    unlistedMisses: 0,
    verify: [],
    ...(behaviour === 'verify' && { verified: { forwarded: 0, matched: 0, differed: 0, missed: 0 } }),
  };
  let origin = '';
  // The proxy's own origin and the target's both stand for the recorded origin in files
  // (set once the server listens, before any request).
  let recordedOrigins: string[] = [];
  const toRecorded = (text: string) => {
    let out = text;
    for (const from of recordedOrigins) if (out.includes(from)) out = out.split(from).join(RECORDED_ORIGIN);
    return out;
  };

  let closing = false;
  const timeouts = { ...DEFAULT_PROXY_CLIENT_TIMEOUTS, ...options.clientTimeouts };
  const serverOptions: http.ServerOptions = {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.idleMs,
    // Checked every second (node's default, 30 s, lets a slow head live three times its
    // limit); a connection that never sends a request is cut at the head timeout too.
    connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
  };
  const server = http.createServer(serverOptions, (req, res) => {
    // Once closing, a keep-alive connection is closed with its answer (close() also closes
    // those that fall idle meanwhile).
    if (closing) res.shouldKeepAlive = false;
    const fail = (error: Error) => {
      const status = error instanceof BodyTooLarge ? 413 : error instanceof HarnessError ? (error.code === 'USAGE' ? 400 : 500) : 500;
      if (res.headersSent) return res.destroy(error);
      // The rest of an oversized body is not read: the connection closes with the answer.
      if (status === 413) res.shouldKeepAlive = false;
      const body = JSON.stringify({ error: `touchstone proxy: ${error.message}` });
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
      if (log.wants('error')) logFailure(req, status, error.message);
    };
    try {
      if ((behaviour === 'replay' || behaviour === 'record-once') && answerKnown(req, res)) return;
    } catch (error) {
      return fail(error as Error);
    }
    handle(req, res).catch(fail);
  });

  /** The request's headers as a recording keeps them (only the names `only` takes, when given). */
  const recordedHeaders = (raw: string[], only?: (lower: string) => boolean): HeaderPairs => {
    const out: HeaderPairs = [];
    for (let i = 0; i < raw.length; i += 2) {
      const lower = raw[i].toLowerCase();
      if (lower === CASSETTE_HEADER || (only && !only(lower))) continue;
      out.push([raw[i], lower === 'host' ? RECORDED_HOST : toRecorded(raw[i + 1])]);
    }
    return out;
  };

  // Replay reads the raw headers only, and only the ones it matches on: this is the per-request
  // cost the replay benchmark measures (node builds req.headers on first use).
  /**
   * Replay of a request without a body that its session has keyed before: answered here,
   * synchronously, with its index queue from the cache (replay-key-cache.ts). False when the full
   * path must run: a body, a request not keyed yet, or a miss (which the full path explains;
   * a miss changes nothing in the index).
   */
  function answerKnown(req: http.IncomingMessage, res: http.ServerResponse): boolean {
    const raw = req.rawHeaders;
    if (hasBody(raw)) return false;
    const session = sessions.forRequest(rawHeader(raw, CASSETTE_HEADER));
    const cache = session.replayKeys;
    const method = req.method ?? 'GET';
    const queue = cache?.get(cache.rawForm(method, req.url ?? '/', raw));
    if (queue === undefined) return false;
    const lookup = session.index!.take(queue);
    if (!('hit' in lookup)) return false;
    // Nothing to read: node discards what is left of a request nobody consumed when its
    // answer finishes, as for any bodyless request (resume() here cost a tick per request).
    const answer = answers(session).answer(lookup.hit);
    writePrepared(res, method, answer);
    if (log.wants('info')) {
      const url = session.redactedUrl(toRecorded(req.url ?? '/'), recordedHeaders(raw, session.isKeyHeader));
      log.request('info', 'hit', { cassette: session.name, seq: lookup.hit, method, url, status: answer.status });
    }
    return true;
  }

  /** A request the proxy could not handle, its URL redacted by its cassette's policy when it has one. */
  function logFailure(req: http.IncomingMessage, status: number, why: string): void {
    const raw = req.rawHeaders;
    let url: string;
    try {
      url = sessions.forRequest(rawHeader(raw, CASSETTE_HEADER)).redactedUrl(toRecorded(req.url ?? '/'), recordedHeaders(raw));
    } catch {
      url = `${(req.url ?? '/').split('?')[0]} (query not shown)`; // no cassette, so no policy to redact it by
    }
    log.request('error', 'failed', {
      cassette: rawHeader(raw, CASSETTE_HEADER) ?? '-',
      method: req.method ?? 'GET',
      url,
      status,
      detail: why,
    });
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = req.rawHeaders;
    const session = sessions.forRequest(rawHeader(raw, CASSETTE_HEADER));
    const { mode } = session;
    if (mode !== 'replay') delete req.headers[CASSETTE_HEADER]; // never forwarded
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const withBody = hasBody(raw);
    // Kept for answerKnown, which answers this request's next occurrences.
    const rawForm = session.replayKeys && !withBody ? session.replayKeys.rawForm(method, url, raw) : undefined;
    // What replay keys a request by: its matched headers; its content type, which says how its
    // body compares; and its secret headers, whose values the redactor learns and sweeps from
    // the URL and body, as it did when recording (else a path holding an API key never matches).
    const headers = recordedHeaders(raw, mode === 'replay' && !withBody ? session.isKeyHeader : undefined);
    const recordedRequest: RecordedRequest = { method, url: toRecorded(url), headers };

    if (mode === 'passthrough' || mode === 'record') {
      // A body of known, bounded size goes upstream in one write: a target that answers
      // early (413) and closes would otherwise turn into EPIPE and lose its answer. Bigger
      // or chunked bodies stream, so memory stays flat.
      // Numbered before its body is read: interactions are kept in request-start order.
      const seq = mode === 'record' ? session.nextSeq++ : 0;
      const length = Number(req.headers['content-length']);
      const whole = !withBody ? (req.resume(), EMPTY) : length <= MAX_BUFFERED_REQUEST ? await readRequestBody(req) : undefined;
      const journal = mode === 'record' ? (exchange: ExchangeSeen) => logRecorded(session, exchange) : undefined;
      if (!journal && log.wants('info'))
        res.once('finish', () => {
          const url = session.redactedUrl(recordedRequest.url, recordedRequest.headers);
          if (!res.hasHeader(UPSTREAM_ERROR_HEADER))
            log.request('info', 'forwarded', { cassette: session.name, method, url, status: res.statusCode });
        });
      return forwardLive(req, res, session, recordedRequest, whole, seq, journal);
    }

    const body = withBody ? await readRequestBody(req) : (req.resume(), EMPTY);
    const parts = session.replayKey(recordedRequest, body);
    const queue = session.index ? session.index.queueOf(matchKey(parts)) : -1;
    const lookup = session.index ? session.index.take(queue) : ({ miss: 'none' } as const);
    // Only forms that found a recording are kept: a flood of misses leaves the cache alone.
    if (rawForm !== undefined && 'hit' in lookup) session.replayKeys!.set(rawForm, queue);

    if (mode === 'verify') {
      const counts = summary.verified!;
      counts.forwarded++;
      return forwardLive(req, res, session, recordedRequest, body, 0, (live) => {
        const recorded = 'hit' in lookup ? session.index!.interaction(lookup.hit) : undefined;
        const differences = recorded ? session.compare(recorded, live) : [{ path: 'interaction', kind: 'added' }];
        if (!recorded) counts.missed++;
        else if (differences.length) counts.differed++;
        else counts.matched++;
        // What a summary or a log shows of a request is its URL as a recording keeps it.
        const shown = differences.length || log.wants('info') ? session.redactedUrl(recordedRequest.url, recordedRequest.headers) : '';
        if (differences.length) summary.verify.push({ cassette: session.name, seq: recorded?.seq ?? 0, method, url: shown, differences });
        log.request(differences.length ? 'warn' : 'info', 'verified', {
          cassette: session.name,
          ...(recorded && { seq: recorded.seq }),
          method,
          url: shown,
          status: live.response.status,
          ...(differences.length > 0 && { detail: `${plural(differences.length, 'difference')} from the recording` }),
        });
      });
    }
    if ('hit' in lookup) {
      const answer = answers(session).answer(lookup.hit);
      writePrepared(res, method, answer);
      if (log.wants('info')) {
        const shown = session.redactedUrl(recordedRequest.url, recordedRequest.headers);
        log.request('info', 'hit', { cassette: session.name, seq: lookup.hit, method, url: shown, status: answer.status });
      }
      return;
    }
    if (mode === 'record-missing') {
      return forwardLive(req, res, session, recordedRequest, body, session.nextSeq++, (exchange) => logRecorded(session, exchange));
    }
    // The request's URL as a recording would keep it: summaries and logs are files too.
    const shown = session.redactedUrl(recordedRequest.url, recordedRequest.headers);
    const explanation = explainMiss(session.name, { method, url }, parts, session.index, lookup, session.absent);
    const reason = explanation.error.replace(/^touchstone: /, '');
    if (summary.misses.length < LISTED_MISSES)
      summary.misses.push({ cassette: session.name, method, url: shown, reason: explanation.error });
    else summary.unlistedMisses++;
    session.journalMiss({ method, url: shown, reason });
    const status = options.missStatus ?? DEFAULT_MISS_STATUS;
    log.request('warn', 'miss', { cassette: session.name, method, url: shown, status, detail: reason });
    if (log.wants('debug'))
      for (const near of explanation.nearest)
        log.request('debug', 'miss', { cassette: session.name, method, url: shown, status, detail: nearestLine(near) });
    const text = JSON.stringify(explanation, null, 2);
    res.writeHead(status, {
      'content-type': 'application/json',
      [MISS_HEADER]: '1',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  }

  /**
   * Forwards to the target and streams the answer back. With `onInteraction`, both bodies
   * are captured as they pass (large ones straight to sidecar files) and the redacted
   * interaction is handed over after the last byte arrived but before the client's
   * response ends: an answered request is always already in the journal.
   */
  function forwardLive(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    session: CassetteSession,
    request: RecordedRequest,
    body: Buffer | undefined,
    seq: number,
    onInteraction: ((exchange: ExchangeSeen) => void) | undefined,
  ): void {
    const capture = onInteraction !== undefined;
    if (log.wants('error'))
      res.once('finish', () => {
        if (!res.hasHeader(UPSTREAM_ERROR_HEADER)) return;
        const url = session.redactedUrl(request.url, request.headers);
        log.request('error', 'failed', {
          cassette: session.name,
          method: request.method,
          url,
          status: res.statusCode,
          detail: 'the target failed',
        });
      });
    // A body that may outgrow memory is scrubbed while it streams to its sidecar, so the
    // request's secrets must be known before it starts (redactRequest learns them).
    // Smaller bodies are redacted with the whole interaction at the end, which learns them anyway.
    if (capture && (body ? body.length : Infinity) > INLINE_TEXT_LIMIT) session.learnSecrets(request);
    // Sinks are made on the first byte: most requests have no body at all.
    let requestSink: BodySink | undefined;
    if (capture && body?.length) (requestSink = session.bodySink('request', request.headers)).write(body);
    // A target may answer (413, say) before the request body is all in; the body sink is
    // finished only once it is, so nothing is written to it after it was closed.
    let requestDone: Promise<void> | undefined;
    if (capture && !body) {
      req.on('data', (chunk: Buffer) => (requestSink ??= session.bodySink('request', request.headers)).write(chunk));
      if (!req.readableEnded) requestDone = new Promise<void>((resolve) => req.once('end', resolve).once('close', resolve));
    }
    forwarder!.forward(
      req,
      res,
      (upstream) => {
        res.sendDate = false;
        const status = upstream.statusCode ?? 502;
        res.writeHead(status, upstream.statusMessage, forwarder!.liveHeaders(upstream, origin).flat());
        const wireHeaders = headerPairs(upstream.rawHeaders);
        const coding = wireHeaders
          .find(([k]) => k.toLowerCase() === 'content-encoding')?.[1]
          .trim()
          .toLowerCase();
        const contentEncoding = coding === 'gzip' || coding === 'br' || coding === 'deflate' ? coding : undefined;
        if (capture && (contentEncoding ? Infinity : Number(upstream.headers['content-length'] ?? Infinity)) > INLINE_TEXT_LIMIT) {
          session.learnSecrets(request);
        }
        let responseSink: BodySink | undefined;
        // A client gone before the whole answer (a dropped download) ends the target's answer
        // too, and nothing of it is recorded: paused for a 'drain' that never comes, it would
        // hold the target's connection until the upstream timeout.
        const clientGone = () => {
          if (res.writableFinished || upstream.complete) return; // a whole answer is still recorded
          upstream.destroy();
          requestSink?.abort();
          responseSink?.abort();
        };
        if (res.destroyed) return clientGone();
        res.once('close', clientGone);
        // The last chunk is held back until the interaction is journaled: a client that has
        // the whole answer can count on it being recorded, whatever happens next.
        let held: Buffer | undefined;
        upstream.on('data', (chunk: Buffer) => {
          if (capture) (responseSink ??= session.bodySink('response', wireHeaders, contentEncoding)).write(chunk);
          if (held && !res.write(held)) {
            upstream.pause();
            res.once('drain', () => upstream.resume());
          }
          held = chunk;
        });
        upstream.on('error', (error) => res.destroy(error));
        upstream.on('end', () => {
          if (!onInteraction) return void res.end(held);
          Promise.all([requestDone ? requestDone.then(() => requestSink?.end()) : requestSink?.end(), responseSink?.end()])
            .then(([requestBody, responseBody]) => {
              const response: Omit<RecordedResponse, 'body'> = {
                status,
                ...(standardStatusText(status, upstream.statusMessage) !== undefined && { statusText: upstream.statusMessage }),
                headers: wireHeaders.map(([k, v]) => [k, toRecorded(v)]),
              };
              onInteraction({ seq, request, requestBody, response, responseBody });
              res.end(held);
            })
            .catch((error: Error) => res.destroy(error));
        });
      },
      body,
    );
  }

  /** Journals a forwarded exchange, redacted, and logs it as the journal keeps it. */
  function logRecorded(session: CassetteSession, exchange: ExchangeSeen): void {
    const { seq, request, response } = session.record(exchange);
    log.request('info', 'recorded', { cassette: session.name, seq, method: request.method, url: request.url, status: response.status });
  }

  const answers = (session: CassetteSession): PreparedAnswers =>
    (session.answers ??= createPreparedAnswers(session.index!.interaction, session.dir, createSubstitute(origin, session.restore)));

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new HarnessError('USAGE', `cannot listen on port ${options.port ?? 0}: ${error.code ?? error.message}`)),
    );
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as { port: number; address: string };
  origin = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  recordedOrigins = [origin, forwarder?.targetOrigin ?? ''].filter((o) => o !== '');
  originsReplaced = recordedOrigins.map((o): [string, string] => [o, RECORDED_ORIGIN]);

  const currentSummary = (): ProxySummary => ({
    ...summary,
    ...(summary.verified && { verified: { ...summary.verified } }),
    cassettes: sessions.all().map((s) => ({
      name: s.name,
      served: s.index?.served() ?? 0,
      recorded: s.dropped ? 0 : s.recorded,
      unused: s.index?.unused() ?? [],
      ...(s.kept && { kept: true }),
      ...(s.dropped && { dropped: true }),
    })),
  });

  return {
    url: origin,
    summary: currentSummary,
    keep: (cassette) => sessions.keep(cassette),
    async close(keep) {
      closing = true;
      // Answers in flight when close() began leave their connection idle afterwards: closed
      // on the next tick of this timer rather than at the keep-alive timeout.
      const idle = setInterval(() => server.closeIdleConnections(), 25);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }).finally(() => clearInterval(idle));
      forwarder?.close();
      const written = sessions.close(keep);
      if (scratch) rmSync(scratch, { recursive: true, force: true });
      return { summary: currentSummary(), written };
    },
  };
}

const EMPTY = Buffer.alloc(0);
