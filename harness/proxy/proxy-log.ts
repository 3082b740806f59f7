// The proxy's per-request lines on stderr (stdout's first line stays the address): one line
// per request at most, `touchstone: proxy: OUTCOME CASSETTE [#SEQ] METHOD URL -> STATUS[: why]`.
// The caller hands over URLs already redacted (the cassette's secrets policy): a log is a
// file too, once a terminal is captured by CI.
import { readablePlaceholders } from '../cassette/placeholders.js';
import type { MissExplanation } from './miss-explanation.js';
import { LOG_LEVELS, type LogLevel } from './proxy-options.js';

/** hit, miss, recorded (forwarded and kept), forwarded (passthrough), verified, failed (the proxy or the target could not answer). */
export type Outcome = 'hit' | 'miss' | 'recorded' | 'forwarded' | 'verified' | 'failed';

export interface RequestLine {
  cassette: string;
  seq?: number;
  method: string;
  url: string;
  status: number;
  detail?: string;
}

export interface ProxyLog {
  /** Whether lines of this level are written: what a line needs is computed only then. */
  wants(level: Exclude<LogLevel, 'silent'>): boolean;
  request(level: Exclude<LogLevel, 'silent'>, outcome: Outcome, line: RequestLine): void;
}

export function createProxyLog(level: LogLevel = 'silent', write: (line: string) => void = (line) => process.stderr.write(line)): ProxyLog {
  const threshold = LOG_LEVELS.indexOf(level);
  const wants = (at: Exclude<LogLevel, 'silent'>) => threshold >= LOG_LEVELS.indexOf(at);
  return {
    wants,
    request(at, outcome, { cassette, seq, method, url, status, detail }) {
      if (!wants(at)) return;
      write(
        `touchstone: proxy: ${outcome} ${cassette}${seq === undefined ? '' : ` #${seq}`} ${method} ${readablePlaceholders(url)} -> ${status}${detail ? `: ${detail}` : ''}\n`,
      );
    },
  };
}

/** One of the nearest recordings of a miss, for a debug line: which rules differed, with both (redacted) values. */
export function nearestLine({ seq, request, differences }: MissExplanation['nearest'][number]): string {
  const rules = differences.map(
    ({ rule, recorded, actual }) => `${rule} recorded ${JSON.stringify(recorded)}, asked ${JSON.stringify(actual)}`,
  );
  return `nearest #${seq} (${request}): ${rules.join('; ') || 'matches, but its answers are used up'}`;
}
