// Types of the fixture world, all derived from its schema (world-schema.ts):
// `WorldDocument` as written, `World` once series are expanded and globs resolved.
import type { Static } from 'typebox';
import type {
  AppSchema,
  AssistantSeatSchema,
  EnterpriseSchema,
  ArtifactSchema,
  WorkflowRunSchema,
  EnvironmentSchema,
  GitCommitSchema,
  GitEntrySchema,
  GitRepositorySchema,
  ImportSourceSchema,
  IssueSchema,
  LabelSchema,
  LIMIT_EXPIRIES,
  LIMIT_VALUES,
  LimitSettingSchema,
  MilestoneSchema,
  OrganizationSchema,
  PERMISSION_LEVELS,
  PERMISSIONS,
  RepositoryDocumentSchema,
  TOKEN_KINDS,
  TokenSchema,
  UserSchema,
  VariableSchema,
  WorldDocumentSchema,
} from './world-schema.js';

export type Permission = (typeof PERMISSIONS)[number];
export type LimitValue = (typeof LIMIT_VALUES)[number];
export type LimitExpiry = (typeof LIMIT_EXPIRIES)[number];
export type TokenKind = (typeof TOKEN_KINDS)[number];
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

export type LimitSetting = Static<typeof LimitSettingSchema>;
export type WorldUser = Static<typeof UserSchema>;
export type WorldOrganization = Static<typeof OrganizationSchema>;
export type WorldTeam = NonNullable<WorldOrganization['teams']>[number];
export type WorldAssistant = NonNullable<WorldOrganization['assistant']>;
/** A seat as the world writes it; once loaded, `user` is one login. */
export type WorldAssistantSeat = Static<typeof AssistantSeatSchema>;
export type WorldEnterprise = Static<typeof EnterpriseSchema>;
export type WorldVariable = Static<typeof VariableSchema>;
export type WorldImportSource = Static<typeof ImportSourceSchema>;
export type WorldLabel = Static<typeof LabelSchema>;
export type WorldMilestone = Static<typeof MilestoneSchema>;
export type WorldIssue = Static<typeof IssueSchema>;
export type WorldRepositoryDocument = Static<typeof RepositoryDocumentSchema>;
export type WorldGitRepository = Static<typeof GitRepositorySchema>;
export type WorldGitCommit = Static<typeof GitCommitSchema>;
export type WorldGitEntry = Static<typeof GitEntrySchema>;
export type WorldToken = Static<typeof TokenSchema>;
export type WorldDocument = Static<typeof WorldDocumentSchema>;
export type UserSeries = Exclude<WorldDocument['users'][number], WorldUser>;
export type WorldApp = Static<typeof AppSchema>;
export type AppSeries = Exclude<NonNullable<WorldDocument['apps']>[number], WorldApp>;
export type WorldEnvironment = Static<typeof EnvironmentSchema>;
export type WorldArtifact = Static<typeof ArtifactSchema>;
export type WorldWorkflowRun = Static<typeof WorkflowRunSchema>;

/** A repository whose collaborators are explicit logins (globs resolved, canonical case). */
export interface WorldRepository extends Omit<WorldRepositoryDocument, 'collaborators'> {
  collaborators: Record<string, Permission>;
}

export interface World {
  /** The file it came from, for messages. */
  source: string;
  clock: { start: string };
  users: WorldUser[];
  /** Organizations with member and seat globs resolved to one login each. */
  organizations: WorldOrganization[];
  repositories: WorldRepository[];
  /** Apps, series expanded. */
  apps: WorldApp[];
  enterprises: WorldEnterprise[];
  importSources: WorldImportSource[];
  tokens: WorldToken[];
}
