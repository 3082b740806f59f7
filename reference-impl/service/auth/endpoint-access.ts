// The vocabulary of access rules (README "Auth model"): each endpoint definition
// (endpoint.ts) carries its rule, built from the pieces below; authorize.ts is the only
// reader, and handlers never check access themselves.
import type { ServiceVariant } from '../variants.js';
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
  /** An organization owner, or a member with collaborator access to one of its repositories or more. */
  | 'organization-collaborator'
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
  /** Fine-grained, app and workflow token permissions needed besides one of `permissions`, all of them (17, 18: "also Metadata"). */
  alsoPermissions?: readonly PermissionNeed[];
  /** The permissions needed on a public repository, when not `permissions` (as `scopes` has public and private). */
  publicPermissions?: readonly PermissionNeed[];
  role: RoleNeed;
  /** 404 answers a caller who may see the resource but not do this, as if it were not there (default 403). */
  forbiddenAs?: 404;
  /** Only these kinds of token are accepted (403 for the others), as the source imports take classic tokens only. */
  tokenKinds?: readonly TokenKind[];
  /** The status for a token of another kind than `tokenKinds`: 403 (default), or 401 (not taken as authentication). */
  tokenKindRefusal?: 401 | 403;
  /**
   * A further need of some requests only, which the caller must meet besides the rule above:
   * a file in the workflow directory also needs the workflow scope or the Workflows permission.
   */
  further?: FurtherNeed;
  /**
   * The rule as built-in variations read it where the spec leaves access open (variants.ts):
   * with one of them on, its parts replace the rule's. Declared here, beside the rule, so the
   * docs and the OpenAPI document can say so, and authorize.ts stays the only reader.
   */
  variations?: readonly AccessVariation[];
}

export interface AccessVariation
  extends Partial<
    Pick<
      EndpointAccess,
      | 'role'
      | 'anonymous'
      | 'scopes'
      | 'permissions'
      | 'alsoPermissions'
      | 'publicPermissions'
      | 'forbiddenAs'
      | 'tokenKinds'
      | 'tokenKindRefusal'
    >
  > {
  variant: ServiceVariant;
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
/**
 * Reading Actions data of a repository (artifacts, deployment protection rules): whoever can
 * see the repository, with Actions (read) for fine-grained, app and workflow tokens. Spec 1
 * also says "public data without authentication", which `variant` reads as public data
 * needing no permission at all.
 */
export const actionsRead = (variant: ServiceVariant) =>
  onRepository({
    anonymous: true,
    scopes: REPOSITORY_READ_SCOPES,
    permissions: [read('actions')],
    role: 'visible',
    variations: [{ variant, publicPermissions: [] }],
  });
/** An access rule on an organization (`/orgs/:org/...`): its handler gets an organization grant. */
export const onOrganization = (rule: Omit<EndpointAccess, 'target'>) => ({ target: 'organization' as const, ...rule });
/** An access rule on the caller's own account (`/user/...`): its handler gets the user. */
export const onUser = (rule: Omit<EndpointAccess, 'target' | 'role'>) => ({ target: 'user' as const, role: 'self' as const, ...rule });
/** An access rule on a user named in the path (`/users/:username/...`): its handler gets that user. */
export const onAccount = (rule: Omit<EndpointAccess, 'target'>) => ({ target: 'account' as const, ...rule });
