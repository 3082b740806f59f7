// Which cassette a request belongs to, and that cassette's state for this proxy: its
// replay index (with its own sequence positions) and, when recording, its writer. A
// cassette folder lets parallel test workers share one proxy: each request names its
// cassette in CASSETTE_HEADER, and state never leaks from one cassette to another.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import { CASSETTE_SUFFIX, type Cassette } from '../cassette/cassette-format.js';
import { loadCassetteFile } from '../cassette/cassette-load.js';
import { openCassetteWriter, recoverCassette, type CassetteWriter } from '../cassette/cassette-store.js';
import { createRedactor, type RedactionConfig, type Redactor } from '../cassette/redaction.js';
import { CASSETTE_HEADER, DEFAULT_CASSETTE_NAME, type ExhaustionPolicy, type MatchConfig, type ProxyMode } from './proxy-options.js';
import { createReplayIndex, type ReplayIndex } from './replay-index.js';
import { createReplayKeyCache, type ReplayKeyCache } from './replay-key-cache.js';
import type { PreparedAnswers } from './replay-response.js';
import type { BodySinkOptions } from '../cassette/body-sink.js';

export interface CassetteSession {
  name: string;
  file: string;
  dir: string;
  /** Recorded interactions to answer from (replay, record-missing, verify); undefined when there is no cassette. */
  index?: ReplayIndex;
  writer?: CassetteWriter;
  /** One per cassette, so its redaction notes are its own. */
  redactor: Redactor;
  /** Next seq for an interaction recorded in this session. */
  nextSeq: number;
  recorded: number;
  /** Replay only (with a cassette): the index queues of requests without a body, by their raw form. */
  replayKeys?: ReplayKeyCache;
  /** Wire-ready answers, each made at its first hit (from the first replayed request on). */
  answers?: PreparedAnswers;
  /** The recording proxy's body-sink options, and the redactor's secret forms they were made from. */
  sinkOptions?: { forms: ReadonlyArray<readonly [string, string]>; options: BodySinkOptions };
}

export interface CassetteSessions {
  /** The session for a request's cassette (header value or the default). */
  forRequest(headerValue: string | undefined): CassetteSession;
  all(): CassetteSession[];
  /** Compacts every recording; returns the cassettes written. */
  close(): Cassette[];
}

// Names are folders and files below the cassette folder: no dot segments, no escaping.
const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}(\/[A-Za-z0-9_][A-Za-z0-9._-]{0,127}){0,7}$/;

export interface SessionOptions {
  mode: ProxyMode;
  match: MatchConfig;
  policy: ExhaustionPolicy;
  redaction?: RedactionConfig;
}

export function createCassetteSessions(location: string, { mode, match, policy, redaction }: SessionOptions): CassetteSessions {
  const single = location.endsWith(CASSETTE_SUFFIX);
  if (!single && existsSync(location) && !statSync(location).isDirectory()) {
    throw new HarnessError('USAGE', `--cassette ${location} must be a *${CASSETTE_SUFFIX} file or a folder`);
  }
  if (mode === 'replay') requireRecordings(location, single);
  const sessions = new Map<string, CassetteSession>();
  const matchHeaders = new Set(match.headers); // lower case (MatchConfig)

  const open = (name: string): CassetteSession => {
    const file = single ? path.resolve(location) : path.resolve(location, `${name}${CASSETTE_SUFFIX}`);
    // A crashed recording's journal becomes a cassette before anything reads the file.
    recoverCassette(file);
    const readsRecordings = mode === 'replay' || mode === 'record-missing' || mode === 'verify';
    const cassette = readsRecordings && existsSync(file) ? loadCassetteFile(file) : undefined;
    const writer =
      mode === 'record' || mode === 'record-missing' ? openCassetteWriter(file, { mode, name: cassette?.name ?? name }) : undefined;
    const interactions = cassette?.interactions ?? [];
    const redactor = createRedactor(redaction);
    return {
      name,
      file,
      dir: path.dirname(file),
      index: cassette && createReplayIndex(interactions, match, mode === 'record-missing' ? 'error' : policy),
      replayKeys:
        mode === 'replay' && cassette ? createReplayKeyCache(matchHeaders, redactor.replacements, interactions.length) : undefined,
      writer,
      redactor,
      nextSeq: (mode === 'record-missing' ? interactions.length : 0) + 1,
      recorded: 0,
    };
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
      return session;
    },
    all: () => [...sessions.values()],
    close() {
      const written: Cassette[] = [];
      for (const session of sessions.values()) {
        if (session.writer) written.push(session.writer.close({ redactions: session.redactor.notes() }));
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
