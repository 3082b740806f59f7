// Shapes of the fixture world (suites/world.yaml, schema suites/world.schema.json):
// `WorldDocument` as written, `World` once series are expanded and globs resolved.

export type Permission = 'read' | 'triage' | 'write' | 'maintain' | 'admin';
export type LimitValue = 'existing_users' | 'contributors_only' | 'collaborators_only';
export type LimitExpiry = 'one_day' | 'three_days' | 'one_week' | 'one_month' | 'six_months';
export type TokenKind = 'classic' | 'oauth' | 'fine-grained' | 'app-installation' | 'app-user' | 'workflow';
export type PermissionLevel = 'read' | 'write';

export interface LimitSetting {
  limit: LimitValue;
  expiry: LimitExpiry;
}

export interface WorldUser {
  login: string;
  id: number;
  interaction_limit?: LimitSetting;
}

export interface UserSeries {
  series: { prefix: string; count: number; first_id: number };
}

export interface WorldTeam {
  slug: string;
  name: string;
  id: number;
  members?: string[];
}

export interface WorldOrganization {
  login: string;
  id: number;
  owners: string[];
  members?: string[];
  interaction_limit?: LimitSetting;
  teams?: WorldTeam[];
}

export interface WorldLabel {
  id: number;
  name: string;
  color: string;
  description?: string;
  default?: boolean;
}

export interface WorldMilestone {
  id: number;
  number: number;
  title: string;
  description?: string;
  state: 'open' | 'closed';
  creator: string;
  due_on?: string;
}

export interface WorldIssue {
  number: number;
  title: string;
  body?: string;
  user: string;
  pull_request?: boolean;
  assignees?: string[];
  labels?: string[];
  milestone?: number;
  created_at: string;
}

export interface WorldRepositoryDocument {
  owner: string;
  name: string;
  id: number;
  private: boolean;
  /** login, or a glob such as `dev-*`, to permission. */
  collaborators?: Record<string, Permission>;
  interaction_limit?: LimitSetting;
  labels?: WorldLabel[];
  milestones?: WorldMilestone[];
  issues?: WorldIssue[];
}

export interface WorldToken {
  role: string;
  kind: TokenKind;
  value: string;
  user?: string;
  account?: string;
  repository?: string;
  scopes?: string[];
  repositories?: 'all' | string[];
  permissions?: Record<string, PermissionLevel>;
}

export interface WorldDocument {
  clock: { start: string };
  users: (WorldUser | UserSeries)[];
  organizations: WorldOrganization[];
  repositories: WorldRepositoryDocument[];
  tokens: WorldToken[];
}

/** A repository whose collaborators are explicit logins (globs resolved, canonical case). */
export interface WorldRepository extends Omit<WorldRepositoryDocument, 'collaborators'> {
  collaborators: Record<string, Permission>;
}

export interface World {
  /** The file it came from, for messages. */
  source: string;
  clock: { start: string };
  users: WorldUser[];
  organizations: WorldOrganization[];
  repositories: WorldRepository[];
  tokens: WorldToken[];
}
