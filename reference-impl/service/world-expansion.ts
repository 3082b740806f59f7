// Turns the compact forms of the world into explicit data: user series into users,
// collaborator, member and seat globs (`dev-*`) into the logins they match.
import { WorldError } from './errors.js';
import type {
  AppSeries,
  Permission,
  UserSeries,
  WorldApp,
  WorldDocument,
  WorldOrganization,
  WorldRepository,
  WorldUser,
  WorldVariable,
} from './world-model.js';

export function worldProblem(source: string, pointer: (string | number)[], message: string): WorldError {
  const path = pointer.map((part) => `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  return new WorldError(`${source}: ${path || '/'}: ${message}`);
}

export function expandUsers(document: WorldDocument): WorldUser[] {
  return document.users.flatMap((entry) => (isSeries(entry) ? seriesUsers(entry) : [entry]));
}

function isSeries(entry: WorldUser | UserSeries): entry is UserSeries {
  return 'series' in entry;
}

/** Apps as listed, series made into PREFIX001… with consecutive ids (available for protection rules unless they say not). */
export function expandApps(document: WorldDocument): WorldApp[] {
  return (document.apps ?? []).flatMap((entry) => ('series' in entry ? seriesApps(entry) : [entry]));
}

function seriesApps({ series }: AppSeries): WorldApp[] {
  return Array.from({ length: series.count }, (_, index) => ({
    slug: `${series.prefix}${String(index + 1).padStart(3, '0')}`,
    id: series.first_id + index,
    protection_rules: series.protection_rules ?? true,
  }));
}

function seriesUsers({ series }: UserSeries): WorldUser[] {
  return Array.from({ length: series.count }, (_, index) => ({
    login: `${series.prefix}${String(index + 1).padStart(3, '0')}`,
    id: series.first_id + index,
  }));
}

/**
 * Globs are resolved first and explicit logins after, so a login named on its own
 * overrides what a glob gave it. A glob that matches nobody is an error: it is
 * almost certainly a typo in the world.
 */
export function resolveCollaborators(document: WorldDocument, users: WorldUser[], source: string): WorldRepository[] {
  const resolve = loginResolver(users, source);
  return document.repositories.map((repository, index) => {
    const resolved: Record<string, Permission> = {};
    const entries = Object.entries(repository.collaborators ?? {});
    const at = (login: string) => ['repositories', index, 'collaborators', login];
    for (const [pattern, permission] of entries.filter(([key]) => key.includes('*')))
      for (const login of resolve(pattern, at(pattern))) resolved[login] = permission;
    for (const [login, permission] of entries.filter(([key]) => !key.includes('*'))) resolved[resolve(login, at(login))[0]] = permission;
    return { ...repository, collaborators: resolved };
  });
}

/** Organizations whose member globs name their logins, and whose assistant seats hold one login each. */
export function resolveOrganizations(document: WorldDocument, users: WorldUser[], source: string): WorldOrganization[] {
  const resolve = loginResolver(users, source);
  return document.organizations.map((organization, o) => {
    const members = organization.members?.flatMap((pattern, i) => resolve(pattern, ['organizations', o, 'members', i]));
    const { assistant } = organization;
    if (!assistant?.seats) return { ...organization, members };
    const seats = assistant.seats.flatMap((seat, i) =>
      resolve(seat.user, ['organizations', o, 'assistant', 'seats', i, 'user']).map((user) => ({ ...seat, user })),
    );
    return { ...organization, members, assistant: { ...assistant, seats } };
  });
}

/** Resolves a login (to its canonical spelling) or a glob (to every login it matches); nothing found is an error at `pointer`. */
function loginResolver(users: WorldUser[], source: string) {
  const byLogin = new Map(users.map((user) => [user.login.toLowerCase(), user.login]));
  return (pattern: string, pointer: (string | number)[]): string[] => {
    if (!pattern.includes('*')) {
      const canonical = byLogin.get(pattern.toLowerCase());
      if (canonical === undefined) throw worldProblem(source, pointer, `unknown user "${pattern}"`);
      return [canonical];
    }
    const matcher = globMatcher(pattern);
    const matches = users.filter((user) => matcher.test(user.login)).map((user) => user.login);
    if (matches.length === 0) throw worldProblem(source, pointer, 'the glob matches no user');
    return matches;
  };
}

function globMatcher(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 'i');
}

/**
 * An organization's variables, series expanded: NAME with its {n} counting from 1, zero-padded
 * to 3 digits, visible to every repository. Names are upper case, as the service stores them.
 */
export function expandVariables(organization: WorldOrganization): WorldVariable[] {
  return (organization.variables ?? []).flatMap((entry): WorldVariable[] => {
    if (!('series' in entry)) return [{ ...entry, name: entry.name.toUpperCase() }];
    const { count, name, value, created_at } = entry.series;
    return Array.from({ length: count }, (_, i) => ({
      name: name.replace('{n}', String(i + 1).padStart(3, '0')).toUpperCase(),
      value,
      visibility: 'all',
      created_at,
    }));
  });
}
