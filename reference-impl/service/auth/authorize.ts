// Decides, from the endpoint's access rule (endpoint-access.ts), whether a caller may go on,
// in a fixed order: authentication (401), visibility (404), token scope or permission
// (403), role (403). Visibility comes before permissions so a private repository
// never shows through a 403 (unless the auth.private-repository-403 variation says why
// instead: 401 anonymously, 403 otherwise; the spec does not ask for hiding).
import type { FastifyRequest } from 'fastify';
import { fullName, type Directory } from '../directory.js';
import { ApiError, Moved, notFound } from '../errors.js';
import { requestOrigin } from '../request-origin.js';
import type { Faults } from '../faults.js';
import { atLeast, roleOf } from '../repository-roles.js';
import type { Permission, WorldOrganization, WorldRepository, WorldUser } from '../world-model.js';
import { ANONYMOUS, type Caller, type Permissions } from './credentials.js';
import type { EndpointAccess, PermissionNeed } from './endpoint-access.js';

export type Grant =
  | { target: 'repository'; repository: WorldRepository; role: Permission | null; push: boolean }
  | { target: 'organization'; organization: WorldOrganization }
  | { target: 'user'; user: WorldUser }
  | { target: 'account'; user: WorldUser };

interface Reach {
  visible: boolean;
  role: Permission | null;
}

export function createAccessCheck(directory: Directory, access: EndpointAccess): (request: FastifyRequest) => void {
  return (request) => {
    request.grant = authorize(directory, request.caller ?? ANONYMOUS, access, request);
  };
}

/** The rule as the variations switched on read it: the first of its variations that is on replaces its parts. */
function ruleOf(access: EndpointAccess, request: FastifyRequest): EndpointAccess {
  const variation = access.variations?.find((v) => request.variants.on(v.variant));
  if (variation === undefined) return access;
  const { variant: _variant, ...parts } = variation;
  return { ...access, ...parts };
}

export function authorize(directory: Directory, caller: Caller, rule: EndpointAccess, request: FastifyRequest): Grant {
  const access = ruleOf(rule, request);
  if (access.forbiddenAs !== 404) return decide(directory, caller, access, request);
  // The rule answers a caller who may see the resource but not do this as if it were not there.
  try {
    return decide(directory, caller, access, request);
  } catch (error) {
    throw error instanceof ApiError && error.statusCode === 403 ? notFound() : error;
  }
}

function decide(directory: Directory, caller: Caller, access: EndpointAccess, request: FastifyRequest): Grant {
  const { faults } = request;
  const anonymousAllowed = access.anonymous && !faults.on('auth.anonymous-refused');
  if (caller.kind === 'anonymous' && (!anonymousAllowed || carriesBody(request)) && !faults.on('auth.anonymous-not-challenged')) {
    throw faults.on('auth.required-as-403')
      ? new ApiError(403, 'FORBIDDEN', 'Requires authentication')
      : new ApiError(401, 'REQUIRES_AUTHENTICATION', 'Requires authentication');
  }
  const params = request.params as Record<string, string | undefined>;
  switch (access.target) {
    case 'organization':
      requireAlso(caller, access, request);
      return authorizeOrganization(directory, caller, access, params, faults);
    case 'repository':
      return authorizeRepository(directory, caller, access, params.owner ?? '', params.repo ?? '', request);
    case 'user': {
      // The caller's own account: a token of a user (an app installation or a workflow has none).
      if (!('user' in caller)) throw forbidden('Resource not accessible by integration', faults);
      requireCredentials(caller, access, false, faults);
      return { target: 'user', user: caller.user };
    }
    case 'account': {
      const user = directory.user(params.username ?? '');
      if (user === undefined) throw notFound();
      requireCredentials(caller, access, false, faults);
      return { target: 'account', user };
    }
  }
}

function authorizeRepository(
  directory: Directory,
  caller: Caller,
  access: EndpointAccess,
  owner: string,
  name: string,
  request: FastifyRequest,
): Grant {
  const { faults } = request;
  const found = directory.repository(owner, name);
  if (found === undefined) redirectIfRenamed(directory, caller, owner, name, request);
  const repository =
    found === undefined && faults.on('repos.unknown-repository-empty') && request.method === 'GET' ? emptyRepository(owner, name) : found;
  if (repository === undefined) throw notFound();
  if (faults.on('names.case-sensitive') && (repository.owner !== owner || repository.name !== name)) throw notFound();
  const reach = reachOf(directory, caller, repository, faults.on('auth.scopes-ignored'));
  if (!reach.visible) throw hidden(caller, request);
  if (access.tokenKinds && caller.kind !== 'anonymous' && !access.tokenKinds.includes(caller.kind) && !faults.on('auth.token-kind-ignored'))
    throw (access.tokenKindRefusal === 401 ? unauthorized : forbidden)(
      `Resource not accessible by a ${caller.kind} token: this endpoint takes ${access.tokenKinds.join(' or ')} tokens only`,
      faults,
    );
  requireCredentials(caller, access, repository.private, faults);
  requireAlso(caller, access, request);
  requireFurther(caller, access, request.params as Record<string, string | undefined>, repository.private, faults);
  if (access.role === 'admin' && reach.role !== 'admin' && !faults.on('auth.admin-role-not-required')) {
    throw forbidden('Must have admin rights to Repository.', faults);
  }
  if (access.role === 'push' && !atLeast(reach.role, 'write') && !faults.on('auth.push-role-not-required')) {
    throw forbidden('Must have push access to Repository.', faults);
  }
  return { target: 'repository', repository, role: reach.role, push: atLeast(reach.role, 'write') };
}

/**
 * A former name of a repository the caller can see answers with the same URL under its
 * name now: 302 for GET and HEAD, 307 for other methods (which keeps method and body, as
 * real hosts redirect writes). One the caller cannot see stays unknown (404). A choice: the
 * spec never mentions renamed repositories (the repos.former-names-unknown variation answers 404).
 */
function redirectIfRenamed(directory: Directory, caller: Caller, owner: string, name: string, request: FastifyRequest): void {
  const renamed = directory.renamed(owner, name);
  if (!renamed || !reachOf(directory, caller, renamed, false).visible || request.variants.on('repos.former-names-unknown')) return;
  // The URL after /repos/OWNER/NAME/, query included.
  const rest = request.url.split('/').slice(4).join('/');
  const location = `${requestOrigin(request)}/repos/${renamed.owner}/${renamed.name}/${rest}`;
  const safe = request.method === 'GET' || request.method === 'HEAD';
  throw new Moved(safe ? 302 : 307, location, `Moved: this repository is now ${fullName(renamed)}`);
}

/**
 * What a caller gets for a private repository it cannot see: 404, as for one that does not
 * exist, so its existence does not leak (auth.hidden-404, a choice: the spec only says "404 |
 * resource not found"). With the auth.private-repository-403 variation the service says why
 * instead: 401 to an anonymous caller (authentication required), 403 to any other.
 */
function hidden(caller: Caller, request: FastifyRequest): ApiError {
  if (!request.variants.on('auth.private-repository-403')) return notFound();
  return caller.kind === 'anonymous'
    ? new ApiError(401, 'REQUIRES_AUTHENTICATION', 'Requires authentication')
    : new ApiError(403, 'FORBIDDEN', 'Resource not accessible: this token has no access to the repository');
}

/** What the repos.unknown-repository-empty fault serves for a repository that does not exist. */
function emptyRepository(owner: string, name: string): WorldRepository {
  return { owner, name, id: 0, private: false, collaborators: {} };
}

function authorizeOrganization(
  directory: Directory,
  caller: Caller,
  access: EndpointAccess,
  params: Record<string, string | undefined>,
  faults: Faults,
): Grant {
  const login = params.org ?? '';
  const organization = directory.organization(login);
  if (organization === undefined) throw notFound();
  if (faults.on('names.case-sensitive') && organization.login !== login) throw notFound();
  requireCredentials(caller, access, false, faults);
  requireFurther(caller, access, params, false, faults);
  if (isOrganizationOwner(caller, organization) || faults.on('auth.org-ownership-not-required'))
    return { target: 'organization', organization };
  if (access.role === 'organization-collaborator') {
    if (collaboratesIn(directory, caller, organization)) return { target: 'organization', organization };
    throw forbidden('Must be an organization owner or have collaborator access to one of its repositories.', faults);
  }
  if (access.role === 'organization-billing-viewer' && !faults.on('auth.enterprise-viewers-refused')) {
    const enterprise = directory.enterpriseOf(organization.login);
    const login = 'user' in caller ? caller.user.login : undefined;
    if (login !== undefined && (enterprise?.owners.includes(login) || enterprise?.billing_managers.includes(login)))
      return { target: 'organization', organization };
    throw forbidden('Must be an organization owner, or an owner or billing manager of its enterprise.', faults);
  }
  throw forbidden('Must be an organization owner.', faults);
}

/** A token the rule does not take as authentication at all: 401, as for none (`tokenKindRefusal: 401`). */
function unauthorized(message: string): ApiError {
  return new ApiError(401, 'REQUIRES_AUTHENTICATION', message);
}

/** A visible resource the caller may not use this way: 403 (404 with the auth.forbidden-as-404 fault). */
function forbidden(message: string, faults: Faults): ApiError {
  return faults.on('auth.forbidden-as-404') ? notFound() : new ApiError(403, 'FORBIDDEN', message);
}

/** Whether the caller sees the repository, and its role there; `scopesIgnored`: the auth.scopes-ignored fault. */
function reachOf(directory: Directory, caller: Caller, repository: WorldRepository, scopesIgnored: boolean): Reach {
  const key = fullName(repository).toLowerCase();
  switch (caller.kind) {
    case 'anonymous':
      return { visible: !repository.private, role: null };
    case 'classic':
    case 'oauth': {
      const role = roleOf(directory, caller.user.login, repository);
      // Without the repo scope a classic token cannot even see private repositories.
      return { visible: !repository.private || (role !== null && (caller.scopes.has('repo') || scopesIgnored)), role };
    }
    case 'fine-grained': {
      const role = roleOf(directory, caller.user.login, repository);
      const selected = caller.repositories === 'all' || caller.repositories.has(key);
      return { visible: selected && (!repository.private || role !== null), role };
    }
    case 'app-user': {
      const role = roleOf(directory, caller.user.login, repository);
      return { visible: !repository.private || role !== null, role };
    }
    case 'app-installation': {
      const installed =
        repository.owner.toLowerCase() === caller.account.toLowerCase() && (caller.repositories === 'all' || caller.repositories.has(key));
      return { visible: installed, role: installed ? 'admin' : null };
    }
    case 'workflow': {
      const own = caller.repository === key;
      return { visible: own, role: own ? 'write' : null };
    }
  }
}

/** The rule's further need, when the request has it (a workflow file, a private repository named in the path). */
function requireFurther(
  caller: Caller,
  access: EndpointAccess,
  params: Record<string, string | undefined>,
  privateTarget: boolean,
  faults: Faults,
) {
  if (!access.further?.applies(params) || faults.on('auth.further-need-ignored')) return;
  const { what, scopes, permissions } = access.further;
  requireCredentials(caller, { ...access, scopes: { public: scopes, private: scopes }, permissions }, privateTarget, faults, what);
}

function requireCredentials(caller: Caller, access: EndpointAccess, privateTarget: boolean, faults: Faults, what?: string): void {
  const forWhat = what === undefined ? '' : ` for ${what}`;
  switch (caller.kind) {
    case 'anonymous':
      return;
    case 'classic':
    case 'oauth': {
      if (faults.on('auth.scopes-ignored')) return;
      const needed = privateTarget ? access.scopes.private : access.scopes.public;
      if (needed.length > 0 && !needed.some((scope) => caller.scopes.has(scope))) {
        const by = caller.kind === 'classic' ? 'personal access token' : 'OAuth app token';
        throw forbidden(`Resource not accessible by ${by}: needs the ${needed.join(' or ')} scope${forWhat}`, faults);
      }
      return;
    }
    default: {
      if (faults.on('auth.permissions-ignored')) return;
      const readCanWrite = faults.on('auth.read-permission-can-write');
      const permissions = !privateTarget && access.publicPermissions !== undefined ? access.publicPermissions : access.permissions;
      const granted = permissions.some((need) => grants(caller.permissions, readCanWrite ? { ...need, level: 'read' } : need));
      if (permissions.length > 0 && !granted) {
        const by = caller.kind === 'fine-grained' ? 'personal access token' : 'integration';
        const needs = permissions.map((need) => `${need.name}:${need.level}`).join(' or ');
        throw forbidden(`Resource not accessible by ${by}: needs the ${needs} permission${forWhat}`, faults);
      }
    }
  }
}

/**
 * The rule's permissions needed besides one of its any-of list, each of them ("17 and 18 also
 * Metadata repository permission read"). Any permission implies metadata:read, as on real
 * hosts; the auth.metadata-explicit variation reads "also Metadata" literally: held only when granted.
 */
function requireAlso(caller: Caller, access: EndpointAccess, request: FastifyRequest): void {
  if (!access.alsoPermissions || !('permissions' in caller) || request.faults.on('auth.permissions-ignored')) return;
  const implied = !request.variants.on('auth.metadata-explicit');
  const missing = access.alsoPermissions.filter((need) => !grants(caller.permissions, need, implied));
  if (missing.length > 0) {
    const by = caller.kind === 'fine-grained' ? 'personal access token' : 'integration';
    const needs = missing.map((need) => `${need.name}:${need.level}`).join(' and ');
    throw forbidden(`Resource not accessible by ${by}: needs the ${needs} permission too`, request.faults);
  }
}

function grants(permissions: Permissions, need: PermissionNeed, metadataImplied = true): boolean {
  const held = permissions[need.name];
  if (held === 'write') return true;
  if (held === 'read') return need.level === 'read';
  // Any repository permission implies metadata:read.
  return metadataImplied && need.name === 'metadata' && need.level === 'read' && Object.keys(permissions).length > 0;
}

/**
 * A token of a user who owns the organization. An app installation acts as the app, not as a
 * person, so it is no owner ("only organization owners", spec 2), whatever it was granted.
 */
function isOrganizationOwner(caller: Caller, organization: WorldOrganization): boolean {
  return 'user' in caller && organization.owners.includes(caller.user.login);
}

/** A user with collaborator access (any role) to a repository the organization owns. */
function collaboratesIn(directory: Directory, caller: Caller, organization: WorldOrganization): boolean {
  if (!('user' in caller)) return false;
  const login = caller.user.login;
  return directory.repositoriesOwnedBy(organization.login).some((repository) => roleOf(directory, login, repository) !== null);
}

function carriesBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) !== 0);
}
