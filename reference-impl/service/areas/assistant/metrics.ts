// Assistant usage, derived from the seats and the clock alone, so every run sees the same
// figures: whether a seat holder used the assistant on a day, and how, is a hash of the
// login and the date. Only seats with an editor (telemetry on) have activity.
//
// Decisions where the spec is silent (README "Assistant"), and the variations that make
// some otherwise (suites/variants/assistant.yaml; endpoints.ts reads the switches):
// - The window is the 28 days before the clock's day (UTC), ending yesterday; a day is
//   listed when at least five members (owners or members, not invitees) held a seat licence
//   at its end (for a team, five of its members), whether or not anyone used it that day.
// - Days are listed oldest first; variation `assistant.metrics-newest-first` lists them
//   newest first.
// - `since` and `until` take a date (2026-05-20) or a timestamp with Z or an offset
//   (2026-05-20T00:00:00Z, 2026-05-20T02:00:00+02:00); each stands for its UTC day, both
//   ends included; anything else is 422 (variation `assistant.metrics-bad-dates-ignored`
//   ignores it). Variation `assistant.metrics-until-exclusive` ends with the last day that
//   begins before `until`. A `since` before the window is the window's start; an `until`
//   before `since` lists nothing.
// - One model, `default`, not custom; languages by the user (typescript, python or go).
import { DAY_MS } from '../../clock.js';
import { licensedAt, type Seat } from './seats.js';

export const METRICS_WINDOW_DAYS = 28;
export const METRICS_MIN_LICENSED = 5;
const LANGUAGES = ['typescript', 'python', 'go'] as const;
const MODEL = { name: 'default', is_custom_model: false, custom_model_training_date: null } as const;

/** FNV-1a, 32 bits: a stable hash of a text. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return value;
}

/** The UTC day (YYYY-MM-DD) of an instant, and the instant a day starts. */
export const dayOf = (epochMs: number) => new Date(epochMs).toISOString().slice(0, 10);
const startOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The seat's usage on a day, or undefined when it was not used (or has no telemetry). */
function usage(seat: Seat, day: string) {
  if (seat.editor === undefined) return undefined;
  const u = hash(`${seat.login.toLowerCase()}|${day}`);
  if (u % 4 === 0) return undefined;
  const engaged = (u >>> 2) % 3 !== 0;
  const suggestions = 5 + ((u >>> 4) % 40);
  const accepted = Math.floor((suggestions * ((u >>> 10) % 5)) / 10);
  const chats = 1 + ((u >>> 13) % 6);
  return {
    engaged,
    hour: 9 + ((u >>> 24) % 8),
    editor: seat.editor.split('/')[0],
    language: LANGUAGES[hash(seat.login.toLowerCase()) % LANGUAGES.length],
    completions: engaged ? { suggestions, accepted } : undefined,
    ideChat: engaged && (u >>> 12) % 2 === 0 ? { chats, insertions: Math.floor(chats / 2), copies: (u >>> 16) % 2 } : undefined,
    webChat: (u >>> 17) % 4 === 0 ? { chats: 1 + ((u >>> 19) % 3) } : undefined,
    pullRequests: engaged && (u >>> 21) % 5 === 0,
  };
}

/** When the seat was last used before the clock's day (its telemetry is processed daily), or null. */
export function lastActivity(seat: Seat, now: number): { at: number; editor: string } | null {
  const first = Math.min(...seat.licences.map((licence) => licence.from));
  for (let start = startOf(dayOf(now)) - DAY_MS; start + DAY_MS > first; start -= DAY_MS) {
    const used = licensedAt(seat, start + DAY_MS - 1) ? usage(seat, dayOf(start)) : undefined;
    if (used) return { at: start + used.hour * 3_600_000, editor: seat.editor! };
  }
  return null;
}

export interface MetricsQuery {
  /** The UTC days asked for, both included; undefined: no bound. */
  since?: string;
  until?: string;
  /** Days appear from this many licensed members (the assistant.metrics-threshold-4 fault lowers it). */
  minimum: number;
  /** The window ends with this day (yesterday; the assistant.metrics-includes-today fault makes it today). */
  lastDay: string;
  /** Oldest first (the reference), or newest first (variation assistant.metrics-newest-first). */
  newestFirst?: boolean;
}

/**
 * The daily records, oldest first unless `query.newestFirst`, for the seats of `members` (logins, lower case) among
 * `seats`; `repositories` are the organization's, for pull-request summaries.
 */
export function dailyMetrics(seats: readonly Seat[], members: ReadonlySet<string>, repositories: readonly string[], query: MetricsQuery) {
  const held = seats.filter((seat) => members.has(seat.login.toLowerCase()));
  const records = [];
  for (let i = METRICS_WINDOW_DAYS - 1; i >= 0; i--) {
    const day = dayOf(startOf(query.lastDay) - i * DAY_MS);
    if ((query.since !== undefined && day < query.since) || (query.until !== undefined && day > query.until)) continue;
    const licensed = held.filter((seat) => licensedAt(seat, startOf(day) + DAY_MS - 1));
    if (licensed.length < query.minimum) continue;
    const used = licensed.flatMap((seat) => {
      const found = usage(seat, day);
      return found ? [{ ...found, repository: repositories[hash(seat.login.toLowerCase()) % repositories.length] }] : [];
    });
    records.push(record(day, used));
  }
  return query.newestFirst ? records.reverse() : records;
}

type Usage = NonNullable<ReturnType<typeof usage>> & { repository: string | undefined };

/** Items grouped by a key, in first-seen order. */
function groupBy<T>(items: readonly T[], key: (item: T) => string): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return [...groups];
}

const sum = <T>(items: readonly T[], value: (item: T) => number) => items.reduce((total, item) => total + value(item), 0);

function record(date: string, used: Usage[]) {
  const completing = used.filter((u) => u.completions);
  const chatting = used.filter((u) => u.ideChat);
  const webChatting = used.filter((u) => u.webChat);
  const summarizing = used.filter((u) => u.pullRequests && u.repository !== undefined);
  return {
    date,
    total_active_users: used.length,
    total_engaged_users: used.filter((u) => u.engaged).length,
    assistant_ide_code_completions: {
      total_engaged_users: completing.length,
      languages: groupBy(completing, (u) => u.language).map(([name, users]) => ({ name, total_engaged_users: users.length })),
      editors: groupBy(completing, (u) => u.editor).map(([name, users]) => ({
        name,
        total_engaged_users: users.length,
        models: [
          {
            ...MODEL,
            total_engaged_users: users.length,
            languages: groupBy(users, (u) => u.language).map(([language, speakers]) => ({
              name: language,
              total_engaged_users: speakers.length,
              total_code_suggestions: sum(speakers, (u) => u.completions!.suggestions),
              total_code_acceptances: sum(speakers, (u) => u.completions!.accepted),
              total_code_lines_suggested: sum(speakers, (u) => 2 * u.completions!.suggestions),
              total_code_lines_accepted: sum(speakers, (u) => 2 * u.completions!.accepted),
            })),
          },
        ],
      })),
    },
    assistant_ide_chat: {
      total_engaged_users: chatting.length,
      editors: groupBy(chatting, (u) => u.editor).map(([name, users]) => ({
        name,
        total_engaged_users: users.length,
        models: [
          {
            ...MODEL,
            total_engaged_users: users.length,
            total_chats: sum(users, (u) => u.ideChat!.chats),
            total_chat_insertion_events: sum(users, (u) => u.ideChat!.insertions),
            total_chat_copy_events: sum(users, (u) => u.ideChat!.copies),
          },
        ],
      })),
    },
    assistant_web_chat: {
      total_engaged_users: webChatting.length,
      models:
        webChatting.length === 0
          ? []
          : [{ ...MODEL, total_engaged_users: webChatting.length, total_chats: sum(webChatting, (u) => u.webChat!.chats) }],
    },
    assistant_web_pull_requests: {
      total_engaged_users: summarizing.length,
      repositories: groupBy(summarizing, (u) => u.repository!).map(([name, users]) => ({
        name,
        total_engaged_users: users.length,
        models: [{ ...MODEL, total_pr_summaries_created: users.length, total_engaged_users: users.length }],
      })),
    },
  };
}

/**
 * A `since` or `until` value as the instant it names (a date: its first instant, UTC) and
 * that instant's UTC day, or undefined when it is not a date (YYYY-MM-DD) or a timestamp
 * with Z or an offset.
 */
export function metricsBound(text: string): { at: number; day: string } | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/.exec(text);
  if (match === null) return undefined;
  // Date.parse rolls 2026-02-30 over to March: the date must read back as written.
  const date = Date.parse(`${match[1]}T00:00:00Z`);
  const at = Date.parse(match[2] === undefined ? `${match[1]}T00:00:00Z` : text);
  if (Number.isNaN(date) || Number.isNaN(at) || dayOf(date) !== match[1]) return undefined;
  return { at, day: dayOf(at) };
}
