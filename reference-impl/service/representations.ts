// What every area's representations build on: the request's origin (every URL is absolute
// on it), timestamps, node ids, and the User object, which every area shows. API URLs live
// under ORIGIN/users, ORIGIN/repos …; "html" URLs directly under ORIGIN, as on the real
// service where both share one host here. Each area shapes its own resources
// (areas/<name>/representation.ts) from these.
//
// Decision where the spec is silent: objects carry the fields the spec lists and no others.
// The spec never says a field list is complete (but for a created blob: "Creation returns
// only {url, sha}"), so the representations.extra-fields variation adds one more field to
// every object answered that has fields, as services add fields over time; an empty object
// ("the response is empty") stays empty.
import type { FastifyRequest } from 'fastify';
import { boundedMemo } from '../../lib/bounded-memo.js';
import { formatTimestamp } from './clock.js';
import type { Directory } from './directory.js';
import type { Faults } from './faults.js';
import { requestOrigin } from './request-origin.js';
import type { WorldUser } from './world-model.js';

export interface Representer {
  readonly origin: string;
  user(user: WorldUser): Record<string, unknown>;
  /** The world's user of that login; the world loader checked every login it holds. */
  userByLogin(login: string): WorldUser;
  /** The User object of an account: a user, or an organization (`type` Organization), as repository owners are shown. */
  account(login: string): Record<string, unknown>;
  /** An instant as the API writes it (ISO 8601 UTC with seconds). */
  timestamp(epochMs: number): string;
  /** The legacy global node id of a resource of that type and id. */
  nodeId(type: string, id: number): string;
}

const OFFSET_MS = 2 * 3_600_000;

/** The same instant in UTC+02:00 rather than UTC: the representations.timestamps-local-offset fault. */
function withLocalOffset(epochMs: number): string {
  return formatTimestamp(epochMs + OFFSET_MS).replace(/Z$/, '+02:00');
}

// A representer holds nothing of a request but its origin, so a service keeps one per origin
// (at most 32: origins come from the Host header, client input) and a request builds none
// (building one is a dozen closures). A directory and its faults belong to one service.
const representers = new WeakMap<Directory, (origin: string) => Representer>();

/** The representer for one request: URLs on its origin, and the service's faults. */
export function representerFor(request: FastifyRequest, directory: Directory): Representer {
  let forOrigin = representers.get(directory);
  if (forOrigin === undefined) {
    const { faults } = request;
    representers.set(directory, (forOrigin = boundedMemo(32, (origin: string) => createRepresenter(origin, directory, faults))));
  }
  return forOrigin(requestOrigin(request));
}

/** The legacy global node id: base64 of "0<length of type>:<Type><id>". */
function nodeId(type: string, id: number): string {
  return encodeNodeId(`0${type.length}:${type}${id}`);
}

// The world's resources are shown again and again; ids of created ones are few.
const encodeNodeId = boundedMemo(16_384, (plain: string) => Buffer.from(plain).toString('base64'));

export function createRepresenter(origin: string, directory: Directory, faults: Faults): Representer {
  const timestamp = (epochMs: number) =>
    faults.on('representations.timestamps-local-offset') ? withLocalOffset(epochMs) : formatTimestamp(epochMs);
  const userByLogin = (login: string): WorldUser => {
    const user = directory.user(login);
    // The world loader checked every login it holds; reaching this is our bug.
    if (user === undefined) throw new Error(`representations: unknown user ${login}`);
    return user;
  };

  const build = ({ login, id }: Pick<WorldUser, 'login' | 'id'>) => {
    const api = `${origin}/users/${login}`;
    return {
      login,
      id,
      ...(!faults.on('representations.user-without-node-id') && { node_id: nodeId('User', id) }),
      avatar_url: `${origin}/avatars/u/${id}?v=4`,
      gravatar_id: '',
      url: api,
      html_url: `${origin}/${login}`,
      followers_url: `${api}/followers`,
      following_url: `${api}/following{/other_user}`,
      gists_url: `${api}/gists{/gist_id}`,
      starred_url: `${api}/starred{/owner}{/repo}`,
      subscriptions_url: `${api}/subscriptions`,
      organizations_url: `${api}/orgs`,
      repos_url: `${api}/repos`,
      events_url: `${api}/events{/privacy}`,
      received_events_url: `${api}/received_events`,
      type: 'User',
      site_admin: false,
    };
  };
  // A world user's User object is the same in every answer at this origin (the world's users
  // never change): built once, frozen, as answers embed it and none may change it.
  const shown = new WeakMap<WorldUser, Readonly<Record<string, unknown>>>();
  const user = (worldUser: WorldUser) => {
    if (faults.on('representations.user-without-node-id')) return build(worldUser);
    let object = shown.get(worldUser);
    if (object === undefined) shown.set(worldUser, (object = Object.freeze(build(worldUser))));
    return object;
  };

  const account = (login: string) => {
    const organization = directory.organization(login);
    if (organization === undefined) return user(userByLogin(login));
    return {
      ...build(organization),
      node_id: nodeId('Organization', organization.id),
      type: 'Organization',
    };
  };

  return { origin, user, userByLogin, account, timestamp, nodeId };
}

/** The field the representations.extra-fields variation adds: a name and value the spec does not know. */
export const EXTRA_FIELD = { name: 'service_extension', value: 'a field the spec does not list' } as const;

/** Endpoints whose answer the spec gives exactly, so nothing is added to it ("Creation returns only {url, sha}"). */
const EXACT_ANSWERS: ReadonlySet<string> = new Set(['git.create-blob']);

/**
 * A JSON answer with EXTRA_FIELD added to each of its objects that has fields, nested ones
 * included, when the representations.extra-fields variation is on; otherwise (and for text that
 * is not JSON) the answer unchanged.
 */
export function withExtraFields(payload: string, request: FastifyRequest): string {
  if (!request.variants.on('representations.extra-fields')) return payload;
  if (EXACT_ANSWERS.has(request.routeOptions.config?.endpoint ?? '')) return payload;
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return payload;
  }
  return JSON.stringify(extended(value));
}

function extended(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(extended);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, inner]) => [key, extended(inner)] as const);
  return entries.length === 0 ? {} : { ...Object.fromEntries(entries), [EXTRA_FIELD.name]: EXTRA_FIELD.value };
}
