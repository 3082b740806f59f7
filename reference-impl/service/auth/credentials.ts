// Turns the Authorization header into the caller a request acts as. A header that is
// present but not a known token is always 401, even where anonymous access is allowed:
// a client with a broken token should hear about it rather than silently see less.
//
// Decisions where the spec is silent (suites/requirements/conventions.yaml, auth.*):
// - an unknown token, or a scheme other than Bearer and token, on an endpoint open to
//   anonymous callers: 401 Bad credentials (auth.bad-credentials-401, MAY). Variation
//   auth.bad-credentials-ignored: such a header is ignored and the request goes on as
//   anonymous (public data served, 401 Requires authentication where a caller is needed).
import type { Directory } from '../directory.js';
import type { Faults } from '../faults.js';
import type { Variants } from '../variants.js';
import { ApiError } from '../errors.js';
import type { PermissionLevel, WorldToken, WorldUser } from '../world-model.js';

export type Permissions = Readonly<Record<string, PermissionLevel>>;
/** `all`, or lower-cased `owner/name` entries. */
export type RepositorySelection = 'all' | ReadonlySet<string>;

export type Caller =
  | { kind: 'anonymous' }
  | { kind: 'classic' | 'oauth'; token: WorldToken; user: WorldUser; scopes: ReadonlySet<string> }
  | { kind: 'fine-grained'; token: WorldToken; user: WorldUser; repositories: RepositorySelection; permissions: Permissions }
  | { kind: 'app-user'; token: WorldToken; user: WorldUser; permissions: Permissions }
  | { kind: 'app-installation'; token: WorldToken; account: string; repositories: RepositorySelection; permissions: Permissions }
  | { kind: 'workflow'; token: WorldToken; repository: string; permissions: Permissions };

export const ANONYMOUS: Caller = Object.freeze({ kind: 'anonymous' });

const badCredentials = () => new ApiError(401, 'BAD_CREDENTIALS', 'Bad credentials');

export function parseAuthorization(header: string | undefined, directory: Directory, faults: Faults, variants: Variants): Caller {
  if (header === undefined) return ANONYMOUS;
  // What a header naming no usable token gets: 401, or (the variation) no credentials at all.
  const unusable = (): Caller => {
    if (variants.on('auth.bad-credentials-ignored')) return ANONYMOUS;
    throw badCredentials();
  };
  const match = /^(\S+)\s+(\S+)$/.exec(header.trim());
  if (match === null) return unusable();
  const [, scheme, value] = match;
  const lower = scheme.toLowerCase();
  // A scheme refused by a fault is refused outright: the faults break the spec's schemes, which
  // the variation (about headers the spec does not name) leaves alone.
  if ((lower === 'bearer' && faults.on('auth.bearer-refused')) || (lower === 'token' && faults.on('auth.token-scheme-refused')))
    throw badCredentials();
  if (lower !== 'bearer' && lower !== 'token') return unusable();
  const token = directory.token(value);
  if (token === undefined) return unusable();
  if (token.kind === 'workflow' && faults.on('auth.workflow-token-refused')) throw badCredentials();
  return callerOf(token, directory);
}

function callerOf(token: WorldToken, directory: Directory): Caller {
  const user = token.user === undefined ? undefined : directory.user(token.user);
  const permissions = token.permissions ?? {};
  switch (token.kind) {
    case 'classic':
    case 'oauth':
      return { kind: token.kind, token, user: requireUser(user), scopes: new Set(token.scopes ?? []) };
    case 'fine-grained':
      return { kind: 'fine-grained', token, user: requireUser(user), repositories: selectionOf(token), permissions };
    case 'app-user':
      return { kind: 'app-user', token, user: requireUser(user), permissions };
    case 'app-installation':
      return { kind: 'app-installation', token, account: token.account ?? '', repositories: selectionOf(token), permissions };
    case 'workflow':
      return { kind: 'workflow', token, repository: (token.repository ?? '').toLowerCase(), permissions };
  }
}

function selectionOf(token: WorldToken): RepositorySelection {
  return Array.isArray(token.repositories) ? new Set(token.repositories.map((name) => name.toLowerCase())) : 'all';
}

/** The world loader guarantees user tokens name a known user; this only narrows the type. */
function requireUser(user: WorldUser | undefined): WorldUser {
  if (user === undefined) throw badCredentials();
  return user;
}
