// Which cassette a request belongs to, and that cassette's state for this proxy: its
// replay index (with its own sequence positions) and, when recording, its writer. A
// cassette folder lets parallel test workers share one proxy: each request names its
// cassette in CASSETTE_HEADER, and state never leaks from one cassette to another.
//
// A session is the proxy's persister (the seam Polly.js calls a persister): the proxy hands it
// what passes on the wire and asks it for a replay key, and the session applies the secrets
// policy (cassette/redaction.ts over secrets/secret-policy.ts) to everything it keeps: the
// bodies it captures as they stream, the interactions it writes, the keys it matches on. The
// proxy itself assembles no scrubber.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import type { HeaderPairs } from '../core/results.js';
import { toInlineBody } from '../cassette/body-codec.js';
import { createBodySink, type BodySink } from '../cassette/body-sink.js';
import { diffResponses, type DiffEntry } from '../cassette/cassette-diff.js';
import {
  CASSETTE_SUFFIX,
  requestBodyToKeep,
  sidecarFolder,
  type Body,
  type Cassette,
  type ContentCoding,
  type Interaction,
  type RecordedRequest,
  type RecordedResponse,
} from '../cassette/cassette-format.js';
import { loadCassetteFile, readBodyBytes } from '../cassette/cassette-load.js';
import {
  openCassetteWriter,
  recoverCassette,
  type CassetteWriter,
  type CrashedJournal,
  type JournalMiss,
} from '../cassette/cassette-store.js';
import { createRedactor, type RedactionConfig } from '../cassette/redaction.js';
import { redactedBytes } from '../secrets/byte-replacer.js';
import { headerValue } from '../http/transport.js';
import {
  CASSETTE_HEADER,
  DEFAULT_CASSETTE_NAME,
  type Behaviour,
  type ExhaustionPolicy,
  type MatchConfig,
  type ProxyMode,
} from './proxy-options.js';
import { createReplayIndex, type ReplayIndex } from './replay-index.js';
import { createReplayKeyCache, type ReplayKeyCache } from './replay-key-cache.js';
import type { PreparedAnswers } from './replay-response.js';
import { keyedBody, matchParts, type MatchParts } from './request-key.js';

export type { BodySink } from '../cassette/body-sink.js';

/** What the proxy saw of an exchange, bodies as the session's sinks captured them. */
export interface ExchangeSeen {
  seq: number;
  request: RecordedRequest;
  requestBody: Body | undefined;
  response: Omit<RecordedResponse, 'body'>;
  responseBody: Body | undefined;
}

export interface CassetteSession {
  name: string;
  file: string;
  dir: string;
  /** What this session does: the proxy's mode, but `replay` for a cassette record mode once found recorded already. */
  mode: ProxyMode;
  /** Record mode once found this cassette recorded: it is replayed, and kept as it was. */
  kept: boolean;
  /** close() was told the recording is not whole: its journal was dropped, the cassette left as it was. */
  dropped?: boolean;
  /** Why there is nothing to answer from, when there is not: the cassette is missing, or incomplete. */
  absent: string;
  /** Recorded interactions to answer from (replay, record-missing, verify); undefined when there is no cassette. */
  index?: ReplayIndex;
  /** Next seq for an interaction recorded in this session. */
  nextSeq: number;
  recorded: number;
  /** Replay only (with a cassette): the index queues of requests without a body, by their raw form. */
  replayKeys?: ReplayKeyCache;
  /** Wire-ready answers, each made at its first hit (from the first replayed request on). */
  answers?: PreparedAnswers;
  /** Whether a request header takes part in a replay key (matched, the content type, or secret: its value is learnt and swept). */
  isKeyHeader(lower: string): boolean;
  /** The match parts of a live request, scrubbed as its recording was (the body as the request sink would have stored it). */
  replayKey(request: RecordedRequest, body: Buffer): MatchParts;
  /** Learns the secrets of a request before a body that may outgrow memory streams to a sidecar. */
  learnSecrets(request: RecordedRequest): void;
  /** A sink capturing a body as it streams, secret fields and known secrets scrubbed on the way. */
  bodySink(side: 'request' | 'response', headers: HeaderPairs, contentEncoding?: ContentCoding): BodySink;
  /** The exchange, redacted, appended to the recording; returns what was kept. */
  record(exchange: ExchangeSeen): Interaction;
  /** keep() closed its recording: a later request for it has nowhere to go. */
  settled?: boolean;
  /** A miss, journaled when this session records (for `cassette show` while it runs). */
  journalMiss(miss: JournalMiss): void;
  /** A live request's URL as a recording would keep it (its secrets redacted), for logs and summaries. */
  redactedUrl(url: string, headers: HeaderPairs): string;
  /** The exchange, redacted as a recording would keep it, compared with the recorded answer. */
  compare(recorded: Interaction, exchange: ExchangeSeen): DiffEntry[];
  /** <secret:NAME> back to the configured value, for a replayed answer. */
  restore(text: string): string;
}

export interface CassetteSessions {
  /** The session for a request's cassette (header value or the default). */
  forRequest(headerValue: string | undefined): CassetteSession;
  all(): CassetteSession[];
  /** Compacts one cassette's recording now, as close() would: its session is whole (a case that reached an outcome). */
  keep(name: string): void;
  /**
   * Compacts every recording `keep` says is whole (all, by default) and drops the others' journals,
   * leaving what was on disk before; returns the cassettes kept.
   */
  close(keep?: (name: string) => boolean): Cassette[];
}

// Names are folders and files below the cassette folder: no dot segments, no escaping.
const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}(\/[A-Za-z0-9_][A-Za-z0-9._-]{0,127}){0,7}$/;

export interface SessionOptions {
  mode: Behaviour;
  match: MatchConfig;
  policy: ExhaustionPolicy;
  redaction?: RedactionConfig;
  /** Texts every kept body has replaced too (the proxy's and the target's origins), the same array once set. */
  replaced?: () => ReadonlyArray<readonly [string, string]>;
  /** Where sidecars go instead of beside the cassette (verify's scratch folder: nothing it captures is kept). */
  scratch?: string;
  /** What a crash leaves of a recording (cassette-store.ts); `discard` when close() is told which are whole. */
  crashed?: CrashedJournal;
}

export function createCassetteSessions(
  location: string,
  { mode: behaviour, match, policy, redaction, replaced = () => [], scratch, crashed }: SessionOptions,
): CassetteSessions {
  const single = location.endsWith(CASSETTE_SUFFIX);
  if (!single && existsSync(location) && !statSync(location).isDirectory()) {
    throw new HarnessError('USAGE', `--cassette ${location} must be a *${CASSETTE_SUFFIX} file or a folder`);
  }
  if (behaviour === 'replay') requireRecordings(location, single);
  const sessions = new Map<string, CassetteSession>();
  const matchHeaders = new Set(match.headers); // lower case (MatchConfig)

  const open = (name: string): CassetteSession => {
    const file = single ? path.resolve(location) : path.resolve(location, `${name}${CASSETTE_SUFFIX}`);
    // A crashed recording's journal becomes a cassette before anything reads the file.
    recoverCassette(file);
    const onDisk = behaviour !== 'record-all' && behaviour !== 'passthrough' && existsSync(file) ? loadCassetteFile(file) : undefined;
    // Decision: a cassette without interactions counts as not recorded (nothing to replay,
    // nothing to lose), so record mode once records it; so does an incomplete one.
    const kept = behaviour === 'record-once' && onDisk !== undefined && onDisk.interactions.length > 0 && !onDisk.incomplete;
    const mode: ProxyMode = kept ? 'replay' : behaviour === 'record-once' || behaviour === 'record-all' ? 'record' : behaviour;
    // Replay and verify never answer from an incomplete cassette: every request is a miss that
    // names it (record-missing extends one: what it lacks is what that mode records).
    const refused = onDisk?.incomplete === true && (mode === 'replay' || mode === 'verify');
    const absent = refused
      ? `${path.relative(process.cwd(), file)} is incomplete (a crash ended its recording): record it again`
      : 'the cassette does not exist';
    if (refused && single) throw new HarnessError('USAGE', `cannot ${mode}: ${absent}`);
    const cassette = mode === 'record' || refused ? undefined : onDisk;
    // A kept cassette is still this recording's: its lock keeps another recorder from
    // replacing it meanwhile, and its journal holds the misses (closing with no interaction
    // recorded leaves the cassette byte for byte as it was).
    const writer =
      mode === 'record' || mode === 'record-missing' || kept
        ? openCassetteWriter(file, { mode: mode === 'record-missing' ? mode : 'record', name: cassette?.name ?? name, crashed })
        : undefined;
    const interactions = cassette?.interactions ?? [];
    // One per cassette, so its redaction notes are its own.
    const redactor = createRedactor(redaction);
    const dir = path.dirname(file);
    const blobPrefix = sidecarFolder(file).prefix;
    const blobDir = path.join(scratch ?? dir, blobPrefix);
    // A body also gets the field rules, since a sidecar is never redacted whole afterwards: a
    // form body by its media type, any other as JSON (the policy's bodyRedaction).
    const bodyRedaction = (side: 'request' | 'response', headers: HeaderPairs) =>
      redactor.bodyRedaction(side, headerValue(headers, 'content-type') ?? '', replaced());
    const interactionOf = ({ seq, request, requestBody, response, responseBody }: ExchangeSeen): Interaction =>
      redactor.redactInteraction({
        seq,
        request: { ...request, ...(requestBody && { body: requestBodyToKeep(requestBody) }) },
        response: { ...response, ...(responseBody && { body: responseBody }) },
      });
    const isKeyHeader = (lower: string) => matchHeaders.has(lower) || lower === 'content-type' || redactor.isSecretHeader(lower);
    const session: CassetteSession = {
      name,
      file,
      dir,
      mode,
      kept,
      absent,
      index: cassette && createReplayIndex(interactions, match, mode === 'record-missing' ? 'error' : policy),
      replayKeys:
        mode === 'replay' && cassette ? createReplayKeyCache(matchHeaders, redactor.replacements, interactions.length) : undefined,
      nextSeq: (mode === 'record-missing' ? interactions.length : 0) + 1,
      recorded: 0,
      isKeyHeader,
      replayKey(request, body) {
        // The bytes as a recording stored them: origins and known secrets replaced, and (a body
        // too big to inline, recorded as its digest) secret fields scrubbed. What the sink could
        // not keep inline (text over its limit, binary over a smaller one) the recording holds
        // as its digest only.
        const stored = body.length ? redactedBytes(body, bodyRedaction('request', request.headers)) : body;
        const inline = stored.length ? toInlineBody(stored) : undefined;
        const digest = stored.length && !inline ? { sha256: createHash('sha256').update(stored).digest('hex') } : undefined;
        // Only what goes into the key goes through redaction: the per-request cost of replay.
        const headers = request.headers.filter(([name]) => isKeyHeader(name.toLowerCase()));
        const keyed = redactor.redactRequest({ method: request.method, url: request.url, headers, body: inline });
        return matchParts({ ...keyed, body: digest ?? keyedBody(keyed.body) }, match);
      },
      learnSecrets: (request) => void redactor.redactRequest(request),
      bodySink: (side, headers, contentEncoding) =>
        createBodySink({ ...bodyRedaction(side, headers), blobDir, blobPrefix, ...(contentEncoding && { contentEncoding }) }),
      record(exchange) {
        const interaction = interactionOf(exchange);
        // An answer that arrives after its case was judged (a request the case's bound gave up
        // on) is no part of the recording kept.
        if (session.settled) return interaction;
        writer!.append(interaction);
        session.recorded++;
        return interaction;
      },
      journalMiss: (miss) => writer?.appendMiss(miss),
      redactedUrl: (url, headers) => redactor.redactRequest({ method: 'GET', url, headers }).url,
      compare: (recorded, exchange) =>
        diffResponses(recorded.response, interactionOf(exchange).response, {
          readBody: (b) => readBodyBytes(b, dir),
          readLiveBody: (b) => readBodyBytes(b, scratch ?? dir),
        }),
      restore: redactor.restore,
    };
    writers.set(session, { writer, notes: redactor.notes });
    return session;
  };
  const writers = new Map<CassetteSession, { writer?: CassetteWriter; notes: () => string[] }>();
  /** Compacts a session's recording (none when it has no writer left); later requests for it are refused. */
  const settle = (session: CassetteSession): Cassette | undefined => {
    const { writer, notes } = writers.get(session)!;
    if (!writer) return undefined;
    writers.set(session, { notes });
    session.settled = true;
    return writer.close({ redactions: notes() });
  };

  const singleName = path.basename(location, CASSETTE_SUFFIX);
  // One named file is opened now: a bad cassette or a held lock fails at start, and a
  // cassette nobody asked for still counts in the summary.
  if (single) sessions.set(singleName, open(singleName));
  return {
    forRequest(headerValue) {
      const name = single ? singleName : (headerValue ?? DEFAULT_CASSETTE_NAME);
      if (!single && !SAFE_NAME.test(name)) {
        throw new HarnessError(
          'USAGE',
          `${CASSETTE_HEADER} "${name}" is not a safe cassette name (letters, digits, . _ - and / between segments)`,
        );
      }
      let session = sessions.get(name);
      if (!session) sessions.set(name, (session = open(name)));
      if (session.settled) throw new HarnessError('USAGE', `${CASSETTE_HEADER} "${name}": that recording was already kept as whole`);
      return session;
    },
    all: () => [...sessions.values()],
    keep(name) {
      const session = sessions.get(name);
      if (session) settle(session);
    },
    close(keep = () => true) {
      const written: Cassette[] = [];
      for (const [session, { writer }] of writers) {
        if (!writer) continue;
        if (keep(session.name)) written.push(settle(session)!);
        else {
          writer.abandon();
          session.dropped = true;
        }
      }
      return written;
    },
  };
}

/**
 * Replay answers from recordings alone: with none to answer from, every request would be a
 * miss, so it refuses to start instead. (A crashed recording's journal counts: it becomes a
 * cassette when first read.)
 */
function requireRecordings(location: string, single: boolean): void {
  const recording = (file: string) => file.endsWith(CASSETTE_SUFFIX) || file.endsWith(`${CASSETTE_SUFFIX}.journal`);
  const found = single
    ? existsSync(location) || existsSync(`${location}.journal`)
    : existsSync(location) && readdirSync(location, { recursive: true, encoding: 'utf8' }).some(recording);
  if (!found)
    throw new HarnessError(
      'USAGE',
      single
        ? `replay has nothing to answer from: ${location} does not exist (record it first with --mode record)`
        : `replay has nothing to answer from: ${location} holds no recordings (*${CASSETTE_SUFFIX})`,
    );
}
