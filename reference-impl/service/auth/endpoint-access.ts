// The vocabulary of access rules (README "Auth model"): each endpoint definition
// (endpoint.ts) carries its rule, built from the pieces below; authorize.ts is the only
// reader, and handlers never check access themselves.
import type { PermissionLevel, TokenKind } from '../world-model.js';

export interface PermissionNeed {
  name: string;
  level: PermissionLevel;
}

export type RoleNeed =
  /** Whoever can see the repository. */
  | 'visible'
  /** Callers without push access are let through, and the handler ignores what they asked. */
  | 'push-or-ignore'
  /** Push (write) access or more: 403 otherwise. */
  | 'push'
  | 'admin'
  | 'organization-owner'
  /** An organization owner, or an owner or billing manager of the organization's enterprise (assistant metrics). */
  | 'organization-billing-viewer'
  /** A token of a user, acting on that user's own account (`/user/...`). */
  | 'self';

export interface EndpointAccess {
  /** What the path names: a repository, an organization, the caller's own account (`/user`), a user (`/users/:username`). */
  target: 'repository' | 'organization' | 'user' | 'account';
  /** Anonymous callers may use it (public repositories only, and never with a body). */
  anonymous: boolean;
  /** Classic and OAuth token scopes, any of; an empty list needs no scope. */
  scopes: { public: readonly string[]; private: readonly string[] };
  /** Fine-grained, app and workflow token permissions, any of; an empty list needs none. */
  permissions: readonly PermissionNeed[];
  role: RoleNeed;
  /** Only these kinds of token are accepted (403 for the others), as the source imports take classic tokens only. */
  tokenKinds?: readonly TokenKind[];
  /**
   * A further need of some requests only, which the caller must meet besides the rule above:
   * a file in the workflow directory also needs the workflow scope or the Workflows permission.
   */
  further?: FurtherNeed;
}

export interface FurtherNeed {
  /** Whether the request, by its path parameters, has this need. */
  applies(params: Readonly<Record<string, string | undefined>>): boolean;
  /** What it is about, for the README and the 403 message. */
  what: string;
  /** Classic and OAuth token scopes, any of. */
  scopes: readonly string[];
  /** Fine-grained, app and workflow token permissions, any of. */
  permissions: readonly PermissionNeed[];
}

export const REPOSITORY_READ_SCOPES = { public: [], private: ['repo'] } as const;
export const REPOSITORY_WRITE_SCOPES = { public: ['repo', 'public_repo'], private: ['repo'] } as const;
export const ORGANIZATION_READ_SCOPES = { public: ['read:org', 'admin:org'], private: ['read:org', 'admin:org'] } as const;
export const ORGANIZATION_WRITE_SCOPES = { public: ['admin:org'], private: ['admin:org'] } as const;

export const read = (name: string): PermissionNeed => ({ name, level: 'read' });
export const write = (name: string): PermissionNeed => ({ name, level: 'write' });

/** An access rule on a repository (`/repos/:owner/:repo/...`): its handler gets a repository grant. */
export const onRepository = (rule: Omit<EndpointAccess, 'target'>) => ({ target: 'repository' as const, ...rule });
/** An access rule on an organization (`/orgs/:org/...`): its handler gets an organization grant. */
export const onOrganization = (rule: Omit<EndpointAccess, 'target'>) => ({ target: 'organization' as const, ...rule });
/** An access rule on the caller's own account (`/user/...`): its handler gets the user. */
export const onUser = (rule: Omit<EndpointAccess, 'target' | 'role'>) => ({ target: 'user' as const, role: 'self' as const, ...rule });
/** An access rule on a user named in the path (`/users/:username/...`): its handler gets that user. */
export const onAccount = (rule: Omit<EndpointAccess, 'target'>) => ({ target: 'account' as const, ...rule });
