// What a proxy is asked to do. Decisions where the issue is silent are written beside
// each option; docs/commands.md (touchstone proxy) is the user-facing copy.
import type { RedactionConfig } from '../cassette/redaction.js';

export const PROXY_MODES = ['replay', 'record', 'record-missing', 'passthrough', 'verify'] as const;
export type ProxyMode = (typeof PROXY_MODES)[number];

/** What identical requests get once their recorded responses are used up. */
export const EXHAUSTION_POLICIES = ['error', 'repeat-last', 'cycle'] as const;
export type ExhaustionPolicy = (typeof EXHAUSTION_POLICIES)[number];

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
  /** Upstream base URL; required except in replay, where it is never contacted. */
  target?: string;
  /** A `*.cassette.json` file, or a folder in which CASSETTE_HEADER picks the cassette. */
  cassette: string;
  port?: number;
  /** 127.0.0.1 unless told otherwise. */
  host?: string;
  redaction?: RedactionConfig;
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

export interface ProxySummary {
  mode: ProxyMode;
  /** Per cassette name. */
  cassettes: { name: string; served: number; recorded: number; unused: number[] }[];
  /** The first LISTED_MISSES misses, in the order they happened. */
  misses: MissRecord[];
  /** Misses after those: counted, not kept, so a flood of misses cannot grow the proxy without bound. */
  unlistedMisses: number;
  verify: VerifyRecord[];
}

/** How many misses a summary lists; each answered miss already carried its own explanation. */
export const LISTED_MISSES = 1000;

/** A request head within 10 s, a whole request within 300 s (bodies up to 64 MiB are held), 5 s idle between requests. */
export const DEFAULT_PROXY_CLIENT_TIMEOUTS = { headersMs: 10_000, requestMs: 300_000, idleMs: 5_000 };
