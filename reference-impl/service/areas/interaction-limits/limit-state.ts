// Interaction restrictions of users, organizations and repositories, with the state
// table of the spec: set/replace, delete, expiry on the service clock (checked lazily
// on every read), and organization limits copied onto the organization's repositories.
// The choices it makes where the spec is silent, and the variation of each, are listed
// in endpoints.ts.
import type { Clock } from '../../clock.js';
import type { Directory } from '../../directory.js';
import type { Faults } from '../../faults.js';
import type { Variants } from '../../variants.js';
import type { LimitExpiry, LimitSetting, LimitValue, WorldOrganization, WorldRepository, WorldUser } from '../../world-model.js';

const HOUR_MS = 3_600_000;
/** The reference's durations: a month is 30 days and six months 180 (the spec names them only). */
export const EXPIRY_DURATIONS_MS: Readonly<Record<LimitExpiry, number>> = {
  one_day: 24 * HOUR_MS,
  three_days: 72 * HOUR_MS,
  one_week: 7 * 24 * HOUR_MS,
  one_month: 30 * 24 * HOUR_MS,
  six_months: 180 * 24 * HOUR_MS,
};

const CALENDAR_MONTHS: Partial<Record<LimitExpiry, number>> = { one_month: 1, six_months: 6 };

/**
 * The same time of day `months` calendar months later; a day the month does not have is its
 * last day (January 31 plus one month is February 28 or 29), as calendars add months.
 */
export function addCalendarMonths(epochMs: number, months: number): number {
  const date = new Date(epochMs);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}

/** When a limit set at `now` with this expiry ends: now plus the duration, or (limits.calendar-months) plus calendar months. */
export function expiryInstant(now: number, expiry: LimitExpiry, variants: Variants): number {
  const months = CALENDAR_MONTHS[expiry];
  if (months !== undefined && variants.on('limits.calendar-months')) return addCalendarMonths(now, months);
  return now + EXPIRY_DURATIONS_MS[expiry];
}

export type LimitOrigin = 'repository' | 'organization' | 'user';

export interface ActiveLimit {
  limit: LimitValue;
  origin: LimitOrigin;
  expiresAt: number;
}

export interface InteractionLimitState {
  ofUser(user: WorldUser): ActiveLimit | null;
  ofOrganization(org: WorldOrganization): ActiveLimit | null;
  ofRepository(repository: WorldRepository): ActiveLimit | null;
  /** The level ('organization' or 'user') whose active limit blocks repository changes, if any. */
  ownerLevelBlocking(repository: WorldRepository): 'organization' | 'user' | null;
  setRepository(repository: WorldRepository, setting: LimitSetting): ActiveLimit;
  clearRepository(repository: WorldRepository): void;
  setOrganization(org: WorldOrganization, setting: LimitSetting): ActiveLimit;
  clearOrganization(org: WorldOrganization): void;
  /** Back to the world's limits, as if each were set when the (already reset) clock reads now. */
  reset(): void;
  /** Every active limit (the state digest's part). */
  snapshot(): unknown;
}

export function createInteractionLimitState(directory: Directory, clock: Clock, faults: Faults, variants: Variants): InteractionLimitState {
  const users = new Map<number, ActiveLimit>();
  const organizations = new Map<number, ActiveLimit>();
  const repositories = new Map<number, ActiveLimit>();

  const activeIn = (map: Map<number, ActiveLimit>, id: number): ActiveLimit | null => {
    const found = map.get(id);
    if (found === undefined) return null;
    // Gone at the instant expires_at (limits.active-at-expires-at: only after it).
    const elapsed = variants.on('limits.active-at-expires-at') ? found.expiresAt < clock.now() : found.expiresAt <= clock.now();
    if (elapsed && !faults.on('limits.never-expire')) {
      map.delete(id);
      return null;
    }
    return found;
  };
  const make = (setting: LimitSetting, origin: LimitOrigin): ActiveLimit => ({
    limit: setting.limit,
    origin,
    expiresAt: expiryInstant(clock.now(), setting.expiry, variants),
  });

  const state: InteractionLimitState = {
    ofUser: (user) => activeIn(users, user.id),
    ofOrganization: (org) => activeIn(organizations, org.id),
    ofRepository: (repository) => activeIn(repositories, repository.id),
    ownerLevelBlocking(repository) {
      const org = directory.organization(repository.owner);
      if (org !== undefined) return state.ofOrganization(org) ? 'organization' : null;
      const owner = directory.user(repository.owner);
      return owner !== undefined && state.ofUser(owner) ? 'user' : null;
    },
    setRepository(repository, setting) {
      const limit = make(setting, 'repository');
      repositories.set(repository.id, limit);
      return limit;
    },
    clearRepository(repository) {
      repositories.delete(repository.id);
    },
    setOrganization(org, setting) {
      const limit = make(setting, 'organization');
      organizations.set(org.id, limit);
      if (faults.on('limits.org-put-skips-repositories')) return limit;
      for (const repository of directory.repositoriesOwnedBy(org.login)) repositories.set(repository.id, { ...limit });
      return limit;
    },
    clearOrganization(org) {
      organizations.delete(org.id);
      // The limits the organization wrote into its repositories go with it (limits.org-delete-keeps-repository-limits: they stay until they expire).
      if (variants.on('limits.org-delete-keeps-repository-limits')) return;
      for (const repository of directory.repositoriesOwnedBy(org.login)) {
        if (repositories.get(repository.id)?.origin === 'organization') repositories.delete(repository.id);
      }
    },
    snapshot: () => ({ users, organizations, repositories }),
    reset() {
      users.clear();
      organizations.clear();
      repositories.clear();
      const { world } = directory;
      for (const user of world.users) if (user.interaction_limit) users.set(user.id, make(user.interaction_limit, 'user'));
      for (const repository of world.repositories) {
        if (repository.interaction_limit) repositories.set(repository.id, make(repository.interaction_limit, 'repository'));
      }
      // Organization limits last: like an organization PUT, they overwrite repository limits.
      for (const org of world.organizations) {
        const known = directory.organization(org.login);
        if (known && org.interaction_limit) state.setOrganization(known, org.interaction_limit);
      }
    },
  };
  state.reset();
  return state;
}
