// What a proxy is asked to do. Decisions where the issue is silent are written beside
// each option; docs/commands.md (touchstone proxy) is the user-facing copy.
import type { RedactionConfig } from '../cassette/redaction.js';
import type { CrashedJournal } from '../cassette/cassette-store.js';
import { HarnessError } from '../core/errors.js';

export const PROXY_MODES = ['replay', 'record', 'record-missing', 'passthrough', 'verify'] as const;
export type ProxyMode = (typeof PROXY_MODES)[number];

/** What identical requests get once their recorded responses are used up. */
export const EXHAUSTION_POLICIES = ['repeat-last', 'error', 'cycle'] as const;
export type ExhaustionPolicy = (typeof EXHAUSTION_POLICIES)[number];
/**
 * Decision (issue 33): the last recorded answer again, as talkback and Polly.js answer a
 * request they have seen. A client that polls, retries or reloads a page asks the same thing
 * more often than it did while recording; `error` (a miss) is for tests that count requests.
 */
export const DEFAULT_EXHAUSTION: ExhaustionPolicy = 'repeat-last';

/**
 * What `--mode record` does with a cassette that already exists: VCR's record modes, with
 * VCR's names and VCR's default.
 * - once: a cassette that exists (with at least one interaction) is replayed and kept as it
 *   was, and a request it does not hold is a miss; one that does not exist is recorded. So a
 *   recording is never replaced by accident: re-running the same command replays it.
 * - new_episodes: what is recorded is replayed, what is not is forwarded and appended
 *   (`--mode record-missing` is the same thing under its older name).
 * - all: everything is forwarded and recorded, and the cassette is replaced at the end.
 * - none: replay only (`--mode replay`); the target is never contacted.
 * Decision: the record mode refines `--mode record` and nothing else. With replay it may only
 * be `none`, with record-missing only `new_episodes` (the modes they already are); with
 * passthrough and verify, which never record, it is refused: a usage error that names the
 * combination to use, rather than a silent choice of which option wins.
 */
export const RECORD_MODES = ['once', 'new_episodes', 'all', 'none'] as const;
export type RecordMode = (typeof RECORD_MODES)[number];
export const DEFAULT_RECORD_MODE: RecordMode = 'once';

/**
 * How much the proxy says on stderr, one line per request at most. Decision: `touchstone
 * proxy` defaults to `warn` (requests that missed or failed get a line; hits and recordings,
 * which can be thousands, do not), so an existing user's terminal gets no busier unless
 * something went wrong; `info` adds a line for every request, `debug` adds why a miss missed.
 * The library (createProxy, and `touchstone run` through it) defaults to `silent`: its caller
 * owns the console.
 */
export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const DEFAULT_CLI_LOG_LEVEL: LogLevel = 'warn';

/** Request header naming the cassette (relative to a cassette folder) for one request. */
export const CASSETTE_HEADER = 'x-touchstone-cassette';
export const MISS_HEADER = 'x-touchstone-miss';
/**
 * No service answers 599, so a miss can never be mistaken for the target's own answer;
 * the header says it for certain. Configurable for clients that choke on it.
 */
export const DEFAULT_MISS_STATUS = 599;
/** A cassette folder used without the header records to / replays from this one. */
export const DEFAULT_CASSETTE_NAME = 'default';

export interface MatchConfig {
  /** Request headers that take part in matching (lower case); authorization is matched by its redacted form. */
  headers: string[];
  /** Query keys left out of matching (cache busters, timestamps). */
  ignoreQuery: string[];
  /** JSON paths ($.a.b, $.items[*].c) left out of body matching. */
  ignoreBodyPaths: string[];
  /** `any` compares the query as a multiset; `exact` also compares its order. */
  queryOrder: 'any' | 'exact';
}

export const DEFAULT_MATCH: MatchConfig = {
  headers: ['accept', 'content-type', 'authorization'],
  ignoreQuery: [],
  ignoreBodyPaths: [],
  queryOrder: 'any',
};

export interface ProxyOptions {
  mode: ProxyMode;
  /** With `record`: what an existing cassette becomes (DEFAULT_RECORD_MODE); see RECORD_MODES. */
  recordMode?: RecordMode;
  /** Per-request lines (default silent), written to `logTo` (default stderr). */
  log?: LogLevel;
  logTo?: (line: string) => void;
  /** Upstream base URL; required except in replay (and record mode none), where it is never contacted. */
  target?: string;
  /** A `*.cassette.json` file, or a folder in which CASSETTE_HEADER picks the cassette. */
  cassette: string;
  port?: number;
  /** 127.0.0.1 unless told otherwise. */
  host?: string;
  redaction?: RedactionConfig;
  /**
   * What a crash leaves of a recording (cassette-store.ts): `incomplete` (default), a cassette
   * marked so; `discard`, the cassette as it was before, for a recorder that tells close() which
   * cassettes are whole (`touchstone run --record`).
   */
  crashed?: CrashedJournal;
  match?: Partial<MatchConfig>;
  exhausted?: ExhaustionPolicy;
  missStatus?: number;
  /** Upstream timeout per request, ms. */
  upstreamTimeoutMs?: number;
  /**
   * How long a client may take: the request head (default 10 s), the whole request, body
   * included (default 300 s: a 1 GiB upload over a slow link), an idle keep-alive connection
   * (default 5 s, node's). Slow or stalled clients are cut so they cannot hold the proxy.
   */
  /** How long a client may take; DEFAULT_PROXY_CLIENT_TIMEOUTS for what is not given. */
  clientTimeouts?: { headersMs?: number; requestMs?: number; idleMs?: number };
}

export interface MissRecord {
  cassette: string;
  method: string;
  url: string;
  reason: string;
}

export interface VerifyRecord {
  cassette: string;
  seq: number;
  method: string;
  url: string;
  differences: { path: string; kind: string; before?: unknown; after?: unknown }[];
}

/**
 * What verify did with the requests it forwarded. Every one is forwarded; its answer then
 * matched the recording, differed from it, or had no recorded counterpart (a miss: a replay
 * of it would miss). The rest were never compared: the target failed, or the client left
 * before the whole answer.
 */
export interface VerifyCounts {
  forwarded: number;
  matched: number;
  differed: number;
  missed: number;
}

export interface ProxySummary {
  mode: ProxyMode;
  /** Per cassette name. */
  cassettes: {
    name: string;
    served: number;
    recorded: number;
    unused: number[];
    /** Record mode once found it recorded already: it was replayed and left as it was. */
    kept?: boolean;
    /** Recording: what it recorded was dropped at close (its case reached no outcome); the cassette stays as it was. */
    dropped?: boolean;
  }[];
  /** With `record`: the record mode in force. */
  recordMode?: RecordMode;
  /** The first LISTED_MISSES misses, in the order they happened. */
  misses: MissRecord[];
  /** Misses after those: counted, not kept, so a flood of misses cannot grow the proxy without bound. */
  unlistedMisses: number;
  /** With `verify`: each answer that differed or had no recording, with its differences. */
  verify: VerifyRecord[];
  /** With `verify`: what became of the requests it forwarded. */
  verified?: VerifyCounts;
}

/** How many misses a summary lists; each answered miss already carried its own explanation. */
export const LISTED_MISSES = 1000;

/** A request head within 10 s, a whole request within 300 s (bodies up to 64 MiB are held), 5 s idle between requests. */
export const DEFAULT_PROXY_CLIENT_TIMEOUTS = { headersMs: 10_000, requestMs: 300_000, idleMs: 5_000 };

/**
 * What the proxy does, once the record mode has refined `--mode record` (RECORD_MODES):
 * `once` is a recording whose sessions replay a cassette that already exists.
 */
export type Behaviour = Exclude<ProxyMode, 'record'> | 'record-all' | 'record-once';

export function behaviourOf(mode: ProxyMode, recordMode: RecordMode | undefined): Behaviour {
  if (mode === 'record') {
    const chosen = recordMode ?? DEFAULT_RECORD_MODE;
    return chosen === 'none' ? 'replay' : chosen === 'new_episodes' ? 'record-missing' : chosen === 'all' ? 'record-all' : 'record-once';
  }
  const same = mode === 'replay' ? 'none' : mode === 'record-missing' ? 'new_episodes' : undefined;
  if (recordMode !== undefined && recordMode !== same) {
    const what = mode === 'record-missing' ? `is --record-mode ${same}` : 'never records';
    throw new HarnessError('USAGE', `--mode ${mode} ${what}; --record-mode ${recordMode} goes with --mode record`);
  }
  return mode;
}
