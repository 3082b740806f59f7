// The one table of what every endpoint of this slice needs (README "Auth model").
// authorize.ts is the only reader; routes name their row and never check access themselves.
import type { PermissionLevel } from '../world-model.js';

export type EndpointId =
  | 'assignees.list'
  | 'assignees.check'
  | 'assignees.add'
  | 'assignees.remove'
  | 'repository-limits.get'
  | 'repository-limits.set'
  | 'repository-limits.delete'
  | 'organization-limits.get'
  | 'organization-limits.set'
  | 'organization-limits.delete';

export interface PermissionNeed {
  name: string;
  level: PermissionLevel;
}

export type RoleNeed =
  /** Whoever can see the repository. */
  | 'visible'
  /** Callers without push access are let through, and the handler ignores what they asked. */
  | 'push-or-ignore'
  | 'admin'
  | 'organization-owner';

export interface EndpointAccess {
  target: 'repository' | 'organization';
  /** Anonymous callers may use it (public repositories only, and never with a body). */
  anonymous: boolean;
  /** Classic and OAuth token scopes, any of; an empty list needs no scope. */
  scopes: { public: readonly string[]; private: readonly string[] };
  /** Fine-grained, app and workflow token permissions, any of. */
  permissions: readonly PermissionNeed[];
  role: RoleNeed;
}

const REPOSITORY_READ_SCOPES = { public: [], private: ['repo'] } as const;
const REPOSITORY_WRITE_SCOPES = { public: ['repo', 'public_repo'], private: ['repo'] } as const;
const ORGANIZATION_READ_SCOPES = { public: ['read:org', 'admin:org'], private: ['read:org', 'admin:org'] } as const;
const ORGANIZATION_WRITE_SCOPES = { public: ['admin:org'], private: ['admin:org'] } as const;

const read = (name: string): PermissionNeed => ({ name, level: 'read' });
const write = (name: string): PermissionNeed => ({ name, level: 'write' });

export const ENDPOINT_ACCESS: Readonly<Record<EndpointId, EndpointAccess>> = Object.freeze({
  'assignees.list': {
    target: 'repository',
    anonymous: true,
    scopes: REPOSITORY_READ_SCOPES,
    permissions: [read('issues'), read('pull_requests')],
    role: 'visible',
  },
  'assignees.check': {
    target: 'repository',
    anonymous: true,
    scopes: REPOSITORY_READ_SCOPES,
    permissions: [read('issues'), read('pull_requests')],
    role: 'visible',
  },
  'assignees.add': {
    target: 'repository',
    anonymous: false,
    scopes: REPOSITORY_WRITE_SCOPES,
    permissions: [write('issues'), write('pull_requests')],
    role: 'push-or-ignore',
  },
  'assignees.remove': {
    target: 'repository',
    anonymous: false,
    scopes: REPOSITORY_WRITE_SCOPES,
    permissions: [write('issues'), write('pull_requests')],
    role: 'push-or-ignore',
  },
  'repository-limits.get': {
    target: 'repository',
    anonymous: false,
    scopes: REPOSITORY_READ_SCOPES,
    permissions: [read('administration')],
    role: 'admin',
  },
  'repository-limits.set': {
    target: 'repository',
    anonymous: false,
    scopes: REPOSITORY_WRITE_SCOPES,
    permissions: [write('administration')],
    role: 'admin',
  },
  'repository-limits.delete': {
    target: 'repository',
    anonymous: false,
    scopes: REPOSITORY_WRITE_SCOPES,
    permissions: [write('administration')],
    role: 'admin',
  },
  'organization-limits.get': {
    target: 'organization',
    anonymous: false,
    scopes: ORGANIZATION_READ_SCOPES,
    permissions: [read('organization_administration')],
    role: 'organization-owner',
  },
  'organization-limits.set': {
    target: 'organization',
    anonymous: false,
    scopes: ORGANIZATION_WRITE_SCOPES,
    permissions: [write('organization_administration')],
    role: 'organization-owner',
  },
  'organization-limits.delete': {
    target: 'organization',
    anonymous: false,
    scopes: ORGANIZATION_WRITE_SCOPES,
    permissions: [write('organization_administration')],
    role: 'organization-owner',
  },
});
