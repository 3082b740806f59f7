// Assistant seats of the organizations, the Seat state machine of spec 2: none → assigned
// → pending cancellation → (end of the billing cycle) none. A seat is held through any of
// its sources, a direct assignment or teams; it goes pending cancellation only when its
// last source is withdrawn, so a user who keeps access through another team or a direct
// assignment keeps the seat. Each seat keeps its licence periods, which the metrics read.
//
// Decisions where the spec is silent (README "Assistant"), and the variations that make
// some otherwise (suites/variants/assistant.yaml; endpoints.ts reads the switches):
// - The billing cycle is the calendar month (UTC) of the clock, for every seat; variation
//   `assistant.billing-cycle-per-seat` bills each seat monthly from the day it was assigned.
// - A cancelled seat's pending_cancellation_date is the cycle's last day: the seat is there
//   through that day and gone from the first instant of the next cycle. Variation
//   `assistant.cancellation-date-first-day-without` writes the day after (the first day
//   without access); access still ends with the cycle.
// - A seat assigned again while pending cancellation is refreshed: it keeps created_at,
//   takes updated_at from the clock, loses its pending_cancellation_date; seats_created
//   counts it (variation `assistant.refreshed-seat-recreated` gives it a new created_at).
//   One assigned again after it is gone is a new seat; one held already is neither.
// - A team's members include the members of its nested teams (as team access does).
import { DAY_MS } from '../../clock.js';
import type { WorldAssistantSeat, WorldOrganization, WorldTeam } from '../../world-model.js';

export interface Seat {
  readonly login: string;
  createdAt: number;
  updatedAt: number;
  /** Assigned directly (selected_users). */
  direct: boolean;
  /** Slugs of the teams it is assigned through, in assignment order. */
  teams: string[];
  /** The last day of access (YYYY-MM-DD), once pending cancellation. */
  pendingCancellationDate: string | null;
  readonly editor: string | undefined;
  /** Licence periods, [from, to); `to` undefined while it lasts. */
  licences: { from: number; to?: number }[];
}

export type SeatSource = { team: string } | { direct: true };

/**
 * The start of the billing cycle that holds `now`, and the start of the next: the calendar
 * month (UTC), or with `anchor` the month running from the anchor's day of the month (the
 * 31st is the last day of a shorter month).
 */
export function billingCycle(now: number, anchor?: number): { start: number; end: number } {
  const date = new Date(now);
  const [year, month] = [date.getUTCFullYear(), date.getUTCMonth()];
  if (anchor === undefined) return { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) };
  const day = new Date(anchor).getUTCDate();
  // Date.UTC carries a month out of range into the next or previous year; day 0 is the month before's last.
  const startIn = (m: number) => Date.UTC(year, m, Math.min(day, new Date(Date.UTC(year, m + 1, 0)).getUTCDate()));
  const current = startIn(month);
  return now >= current ? { start: current, end: startIn(month + 1) } : { start: startIn(month - 1), end: current };
}

/** The billing cycle of a seat at `now` (the reference's calendar month, or the seat's own). */
export type CycleOf = (seat: Seat, now: number) => { start: number; end: number };
export const calendarCycle: CycleOf = (_seat, now) => billingCycle(now);
/** Each seat's cycle runs monthly from the day it was made (variation assistant.billing-cycle-per-seat). */
export const seatCycle: CycleOf = (seat, now) => billingCycle(now, seat.createdAt);

/** Whether the seat gives a licence at `at`. */
export function licensedAt(seat: Seat, at: number): boolean {
  return seat.licences.some(({ from, to }) => from <= at && (to === undefined || at < to));
}

/** The organization's seats, by lower-case login; every record ever made (its licences are history). */
export function worldSeats(organization: WorldOrganization): Map<string, Seat> {
  const seats = new Map<string, Seat>();
  for (const seat of organization.assistant?.seats ?? []) seats.set(seat.user.toLowerCase(), fromWorld(seat));
  return seats;
}

function fromWorld(seat: WorldAssistantSeat): Seat {
  const created = Date.parse(seat.created_at);
  return {
    login: seat.user,
    createdAt: created,
    updatedAt: created,
    direct: seat.team === undefined,
    teams: seat.team === undefined ? [] : [seat.team],
    pendingCancellationDate: null,
    editor: seat.editor,
    licences: [{ from: created }],
  };
}

/**
 * Adds a source to the user's seat, making the seat when there is none (or it is gone) and
 * refreshing one pending cancellation; `held` when the seat was held already.
 */
export function assign(
  seats: Map<string, Seat>,
  login: string,
  source: SeatSource,
  now: number,
  { recreateOnRefresh = false }: { recreateOnRefresh?: boolean } = {},
): 'created' | 'refreshed' | 'held' {
  const key = login.toLowerCase();
  const seat = seats.get(key);
  if (seat === undefined || !licensedAt(seat, now)) {
    seats.set(key, {
      login,
      createdAt: now,
      updatedAt: now,
      direct: 'direct' in source,
      teams: 'team' in source ? [source.team] : [],
      pendingCancellationDate: null,
      editor: seat?.editor,
      licences: [...(seat?.licences ?? []), { from: now }],
    });
    return 'created';
  }
  addSource(seat, source);
  if (seat.pendingCancellationDate === null) return 'held';
  seat.pendingCancellationDate = null;
  seat.updatedAt = now;
  // Variation assistant.refreshed-seat-recreated: refreshing makes the seat anew.
  if (recreateOnRefresh) seat.createdAt = now;
  delete seat.licences[seat.licences.length - 1].to;
  return 'refreshed';
}

function addSource(seat: Seat, source: SeatSource): void {
  if ('direct' in source) seat.direct = true;
  else if (!seat.teams.includes(source.team)) seat.teams.push(source.team);
}

/** Faults of the cancellation (endpoints.ts lists them). */
export interface CancellationFaults {
  /** The seat goes whatever other sources it has. */
  retentionIgnored: boolean;
  /** The seat goes at once rather than at the end of the cycle. */
  immediate: boolean;
  /** pending_cancellation_date is the day of the cancellation. */
  dateToday: boolean;
  /** The seat never goes. */
  kept: boolean;
}

/** How a cancellation is reckoned where the spec leaves it open (variations, endpoints.ts). */
export interface CancellationReading {
  cycle: CycleOf;
  /** pending_cancellation_date names the first day without access, not the last day with it. */
  dateIsFirstDayWithout: boolean;
}

/**
 * Withdraws a source from the user's seat; a seat left without one goes pending
 * cancellation until the end of the billing cycle. Whether it did.
 */
export function withdraw(
  seats: Map<string, Seat>,
  login: string,
  source: SeatSource,
  now: number,
  faults: CancellationFaults,
  reading: CancellationReading,
): boolean {
  const seat = seats.get(login.toLowerCase());
  if (seat === undefined || !licensedAt(seat, now) || seat.pendingCancellationDate !== null) return false;
  if ('direct' in source) seat.direct = false;
  else seat.teams = seat.teams.filter((team) => team !== source.team);
  if (!faults.retentionIgnored && (seat.direct || seat.teams.length > 0)) return false;
  const { end } = reading.cycle(seat, now);
  seat.direct = false;
  seat.teams = [];
  const named = faults.dateToday ? now : reading.dateIsFirstDayWithout ? end : end - DAY_MS;
  seat.pendingCancellationDate = new Date(named).toISOString().slice(0, 10);
  seat.updatedAt = now;
  if (!faults.kept) seat.licences[seat.licences.length - 1].to = faults.immediate ? now : end;
  return true;
}

/** A team's members and those of the teams nested in it, each once, in the order met. */
export function teamMembers(organization: WorldOrganization, team: WorldTeam): string[] {
  const children = (organization.teams ?? []).filter((child) => child.parent === team.slug);
  return [...new Set([...(team.members ?? []), ...children.flatMap((child) => teamMembers(organization, child))])];
}
