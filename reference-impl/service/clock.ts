// The service's only source of time. It is frozen at the world's start and moves only
// when the control API says so, so every expiry and every ETag is reproducible.
import { boundedMemo } from '../../lib/bounded-memo.js';

export interface Clock {
  now(): number;
  set(epochMs: number): void;
  advance(seconds: number): void;
  reset(): void;
  /** Calls `listener` after every move (state that changes with time, such as source imports, catches up). */
  onMove(listener: () => void): void;
}

/** Latest instant the clock may show: far enough from Date's limit that now + any duration stays valid. */
export const CLOCK_MAX_MS = Date.UTC(9000, 0, 1);

export function createClock(startIso: string): Clock {
  const start = wholeSeconds(Date.parse(startIso));
  let current = start;
  const listeners: (() => void)[] = [];
  const moveTo = (epochMs: number) => {
    current = wholeSeconds(epochMs);
    for (const listener of listeners) listener();
  };
  return {
    now: () => current,
    set: moveTo,
    advance: (seconds) => moveTo(current + seconds * 1000),
    reset: () => moveTo(start),
    onMove: (listener) => void listeners.push(listener),
  };
}

/** Timestamps are shown with whole seconds, so the clock keeps whole seconds too: what you see is what is compared. */
function wholeSeconds(epochMs: number): number {
  return Math.floor(epochMs / 1000) * 1000;
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** ISO 8601 UTC with seconds and no fraction, e.g. 2026-06-02T12:00:00Z. The instants shown are few (the world's, the clock's), shown again and again. */
export const formatTimestamp = boundedMemo(4096, (epochMs: number) => new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z'));

/** An instant as the HTTP Date header writes it (IMF-fixdate); the clock stands still between moves. */
export const httpDate = boundedMemo(16, (epochMs: number) => new Date(epochMs).toUTCString());
