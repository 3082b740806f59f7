// Decides, from the endpoint's row in endpoint-access.ts, whether a caller may go on,
// in a fixed order: authentication (401), visibility (404), token scope or permission
// (403), role (403). Visibility comes before permissions so a private repository
// never shows through a 403.
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { fullName, type Directory } from '../directory.js';
import { ApiError, notFound } from '../errors.js';
import { atLeast, roleOf } from '../repository-roles.js';
import type { Permission, WorldOrganization, WorldRepository } from '../world-model.js';
import { ANONYMOUS, type Caller, type Permissions } from './credentials.js';
import { ENDPOINT_ACCESS, type EndpointAccess, type EndpointId, type PermissionNeed } from './endpoint-access.js';

export type Grant =
  | { target: 'repository'; repository: WorldRepository; role: Permission | null; push: boolean }
  | { target: 'organization'; organization: WorldOrganization };

interface Reach {
  visible: boolean;
  role: Permission | null;
}

export function createAccessHook(directory: Directory, endpoint: EndpointId): onRequestAsyncHookHandler {
  const access = ENDPOINT_ACCESS[endpoint];
  return async (request) => {
    request.grant = authorize(directory, request.caller ?? ANONYMOUS, access, request);
  };
}

type RepositoryGrant = Extract<Grant, { target: 'repository' }>;
type OrganizationGrant = Extract<Grant, { target: 'organization' }>;

/** The grant of a repository route's access hook; a route without one is a wiring bug. */
export function repositoryGrant(request: FastifyRequest): RepositoryGrant {
  if (request.grant?.target !== 'repository') throw new Error(`no repository grant on ${request.url}`);
  return request.grant;
}

export function organizationGrant(request: FastifyRequest): OrganizationGrant {
  if (request.grant?.target !== 'organization') throw new Error(`no organization grant on ${request.url}`);
  return request.grant;
}

export function authorize(directory: Directory, caller: Caller, access: EndpointAccess, request: FastifyRequest): Grant {
  if (caller.kind === 'anonymous' && (!access.anonymous || carriesBody(request))) {
    throw new ApiError(401, 'REQUIRES_AUTHENTICATION', 'Requires authentication');
  }
  const params = request.params as Record<string, string | undefined>;
  return access.target === 'organization'
    ? authorizeOrganization(directory, caller, access, params.org ?? '')
    : authorizeRepository(directory, caller, access, params.owner ?? '', params.repo ?? '');
}

function authorizeRepository(directory: Directory, caller: Caller, access: EndpointAccess, owner: string, name: string): Grant {
  const repository = directory.repository(owner, name);
  if (repository === undefined) throw notFound();
  const reach = reachOf(directory, caller, repository);
  if (!reach.visible) throw notFound();
  requireCredentials(caller, access, repository.private);
  if (access.role === 'admin' && reach.role !== 'admin') {
    throw new ApiError(403, 'FORBIDDEN', 'Must have admin rights to Repository.');
  }
  return { target: 'repository', repository, role: reach.role, push: atLeast(reach.role, 'write') };
}

function authorizeOrganization(directory: Directory, caller: Caller, access: EndpointAccess, login: string): Grant {
  const organization = directory.organization(login);
  if (organization === undefined) throw notFound();
  requireCredentials(caller, access, false);
  if (!isOrganizationOwner(caller, organization)) {
    throw new ApiError(403, 'FORBIDDEN', 'Must be an organization owner.');
  }
  return { target: 'organization', organization };
}

function reachOf(directory: Directory, caller: Caller, repository: WorldRepository): Reach {
  const key = fullName(repository).toLowerCase();
  switch (caller.kind) {
    case 'anonymous':
      return { visible: !repository.private, role: null };
    case 'classic':
    case 'oauth': {
      const role = roleOf(directory, caller.user.login, repository);
      // Without the repo scope a classic token cannot even see private repositories.
      return { visible: !repository.private || (role !== null && caller.scopes.has('repo')), role };
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
        repository.owner.toLowerCase() === caller.account.toLowerCase() &&
        (caller.repositories === 'all' || caller.repositories.has(key));
      return { visible: installed, role: installed ? 'admin' : null };
    }
    case 'workflow': {
      const own = caller.repository === key;
      return { visible: own, role: own ? 'write' : null };
    }
  }
}

function requireCredentials(caller: Caller, access: EndpointAccess, privateTarget: boolean): void {
  switch (caller.kind) {
    case 'anonymous':
      return;
    case 'classic':
    case 'oauth': {
      const needed = privateTarget ? access.scopes.private : access.scopes.public;
      if (needed.length > 0 && !needed.some((scope) => caller.scopes.has(scope))) {
        const by = caller.kind === 'classic' ? 'personal access token' : 'OAuth app token';
        throw new ApiError(403, 'FORBIDDEN', `Resource not accessible by ${by}: needs the ${needed.join(' or ')} scope`);
      }
      return;
    }
    default: {
      if (!access.permissions.some((need) => grants(caller.permissions, need))) {
        const by = caller.kind === 'fine-grained' ? 'personal access token' : 'integration';
        const needs = access.permissions.map((need) => `${need.name}:${need.level}`).join(' or ');
        throw new ApiError(403, 'FORBIDDEN', `Resource not accessible by ${by}: needs the ${needs} permission`);
      }
    }
  }
}

function grants(permissions: Permissions, need: PermissionNeed): boolean {
  const held = permissions[need.name];
  if (held === 'write') return true;
  if (held === 'read') return need.level === 'read';
  // Any repository permission implies metadata:read.
  return need.name === 'metadata' && need.level === 'read' && Object.keys(permissions).length > 0;
}

function isOrganizationOwner(caller: Caller, organization: WorldOrganization): boolean {
  switch (caller.kind) {
    case 'classic':
    case 'oauth':
    case 'fine-grained':
    case 'app-user':
      return organization.owners.includes(caller.user.login);
    case 'app-installation':
      return caller.account.toLowerCase() === organization.login.toLowerCase();
    default:
      return false;
  }
}

function carriesBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) !== 0);
}
