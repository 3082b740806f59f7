// The fixture world's shape, written once: these TypeBox schemas validate the world
// (world-loader.ts), their static types are the world's TypeScript types (world-model.ts),
// and suites/world.schema.json, which the harness and editors read, is generated from them
// (`npm run docs:service`; a test fails when the file differs).
import { Type, type Static, type TSchema } from 'typebox';

const Login = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9-]*$' });
const Id = Type.Integer({ minimum: 1 });
const DateTime = Type.String({ format: 'date-time' });
const FullName = Type.String({ pattern: '^[^/]+/[^/]+$' });

export const PERMISSIONS = ['read', 'triage', 'write', 'maintain', 'admin'] as const;
export const LIMIT_VALUES = ['existing_users', 'contributors_only', 'collaborators_only'] as const;
export const LIMIT_EXPIRIES = ['one_day', 'three_days', 'one_week', 'one_month', 'six_months'] as const;
export const TOKEN_KINDS = ['classic', 'oauth', 'fine-grained', 'app-installation', 'app-user', 'workflow'] as const;
export const PERMISSION_LEVELS = ['read', 'write'] as const;

const Permission = Type.Enum(PERMISSIONS);
const PermissionLevel = Type.Enum(PERMISSION_LEVELS);

/** A map from any name to `value`: a JSON Schema TypeBox's Record does not write (additionalProperties, propertyNames). */
function nameMap<T extends TSchema>(value: T, options: { description?: string; propertyNames?: object } = {}) {
  return Type.Unsafe<Record<string, Static<T>>>({ type: 'object', ...options, additionalProperties: value });
}

export const LimitSettingSchema = Type.Object(
  { limit: Type.Enum(LIMIT_VALUES), expiry: Type.Enum(LIMIT_EXPIRIES) },
  { additionalProperties: false },
);

export const UserSchema = Type.Object(
  {
    login: Login,
    id: Id,
    interaction_limit: Type.Optional(LimitSettingSchema),
    social_accounts: Type.Optional(
      Type.Array(Type.String({ pattern: '^https?://[^/\\s]+', description: 'a profile URL' }), { uniqueItems: true, maxItems: 100 }),
    ),
  },
  { additionalProperties: false },
);

const UserSeriesSchema = Type.Object(
  {
    series: Type.Object(
      { prefix: Login, count: Type.Integer({ minimum: 1, maximum: 999 }), first_id: Id },
      { additionalProperties: false, description: 'Generates logins PREFIX001..PREFIXnnn (zero-padded to 3 digits) with consecutive ids' },
    ),
  },
  { additionalProperties: false },
);

const AppSlug = Type.String({ pattern: '^[a-z0-9][a-z0-9-]*$' });

export const AppSchema = Type.Object(
  {
    id: Id,
    slug: AppSlug,
    protection_rules: Type.Boolean({ description: 'whether repositories may enable it as a custom deployment protection rule' }),
  },
  { additionalProperties: false },
);

const AppSeriesSchema = Type.Object(
  {
    series: Type.Object(
      {
        prefix: AppSlug,
        count: Type.Integer({ minimum: 1, maximum: 999 }),
        first_id: Id,
        protection_rules: Type.Optional(Type.Boolean({ description: 'whether they may be enabled as protection rules (default true)' })),
      },
      { additionalProperties: false, description: 'Apps PREFIX001..PREFIXnnn with consecutive ids' },
    ),
  },
  { additionalProperties: false },
);

export const EnvironmentSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, description: 'may hold slashes (release/v1): URL-encoded in paths' }),
    protection_rules: Type.Optional(Type.Array(Id, { uniqueItems: true, description: 'ids of the apps whose custom rule is enabled' })),
  },
  { additionalProperties: false },
);

const TeamSlug = Type.String({ pattern: '^[a-z0-9-]+$' });
/** A login, or a glob over the users' logins (`dev-*`) where a list allows many. */
const LoginOrGlob = Type.String({ pattern: '^[A-Za-z0-9*][A-Za-z0-9*-]*$', description: 'a login, or a glob such as dev-*' });

const TeamSchema = Type.Object(
  {
    slug: TeamSlug,
    name: Type.String(),
    id: Id,
    description: Type.Optional(Type.String()),
    parent: Type.Optional(Type.String({ ...TeamSlug, description: "the parent team's slug: its members are the parent's members too" })),
    members: Type.Optional(Type.Array(Login)),
  },
  { additionalProperties: false },
);

export const ASSISTANT_ACCESS = ['assign_selected', 'assign_all', 'unconfigured'] as const;
export const SUGGESTION_POLICIES = ['allow', 'block', 'unconfigured'] as const;

export const AssistantSeatSchema = Type.Object(
  {
    user: LoginOrGlob,
    team: Type.Optional(Type.String({ ...TeamSlug, description: 'assigned through this team (the user is its member)' })),
    created_at: DateTime,
    editor: Type.Optional(
      Type.String({ pattern: '^[a-z0-9_-]+/[0-9.]+$', description: 'editor/version with telemetry on; absent: no telemetry, no activity' }),
    ),
  },
  { additionalProperties: false },
);

export const AssistantSchema = Type.Object(
  {
    subscription: Type.Boolean({ description: 'the assistant subscription is enabled' }),
    billing: Type.Boolean({ description: 'billing is set up' }),
    payment_problem: Type.Optional(Type.Boolean({ description: 'the payment method has a problem: the billing endpoint answers 422' })),
    public_code_suggestions: Type.Enum(SUGGESTION_POLICIES),
    seat_management: Type.Enum(ASSISTANT_ACCESS, {
      description: 'the access setting: selected users and teams, all members, or unconfigured',
    }),
    metrics_policy: Type.Boolean({ description: 'the metrics access policy is enabled at organization level' }),
    plan_type: Type.Optional(Type.Enum(['business', 'enterprise'])),
    seats: Type.Optional(Type.Array(AssistantSeatSchema)),
  },
  { additionalProperties: false },
);

export const VARIABLE_VISIBILITIES = ['all', 'private', 'selected'] as const;
const VariableName = Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', maxLength: 255 });

export const VariableSchema = Type.Object(
  {
    name: VariableName,
    value: Type.String(),
    visibility: Type.Enum(VARIABLE_VISIBILITIES),
    selected_repositories: Type.Optional(
      Type.Array(Type.String(), { uniqueItems: true, description: "names of the organization's repositories (visibility selected)" }),
    ),
    created_at: DateTime,
  },
  { additionalProperties: false },
);

const VariableSeriesSchema = Type.Object(
  {
    series: Type.Object(
      {
        count: Type.Integer({ minimum: 1, maximum: 999 }),
        name: Type.String({
          pattern: '^[A-Za-z_][A-Za-z0-9_]*\\{n\\}[A-Za-z0-9_]*$',
          description: 'variable name; {n} is 1…count, zero-padded to 3 digits',
        }),
        value: Type.String(),
        created_at: DateTime,
      },
      { additionalProperties: false, description: 'count variables visible to all repositories' },
    ),
  },
  { additionalProperties: false },
);

export const OrganizationSchema = Type.Object(
  {
    login: Login,
    id: Id,
    owners: Type.Array(Login, { minItems: 1 }),
    members: Type.Optional(Type.Array(LoginOrGlob)),
    invitations: Type.Optional(Type.Array(Login, { description: 'users invited to join, not members yet' })),
    interaction_limit: Type.Optional(LimitSettingSchema),
    teams: Type.Optional(Type.Array(TeamSchema)),
    assistant: Type.Optional(AssistantSchema),
    variables: Type.Optional(
      Type.Array(Type.Union([VariableSchema, VariableSeriesSchema]), { description: 'organization variables for workflows' }),
    ),
  },
  { additionalProperties: false },
);

export const EnterpriseSchema = Type.Object(
  {
    slug: TeamSlug,
    id: Id,
    owners: Type.Array(Login),
    billing_managers: Type.Array(Login),
    organizations: Type.Array(Login, { description: 'its organizations' }),
    assistant_metrics: Type.Boolean({ description: 'the metrics access policy is enabled at enterprise level' }),
  },
  { additionalProperties: false },
);

export const LabelSchema = Type.Object(
  {
    id: Id,
    name: Type.String(),
    color: Type.String({ pattern: '^[0-9a-fA-F]{6}$' }),
    description: Type.Optional(Type.String()),
    default: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const MilestoneSchema = Type.Object(
  {
    id: Id,
    number: Type.Integer({ minimum: 1 }),
    title: Type.String(),
    description: Type.Optional(Type.String()),
    state: Type.Enum(['open', 'closed']),
    creator: Login,
    due_on: Type.Optional(DateTime),
  },
  { additionalProperties: false },
);

export const IssueSchema = Type.Object(
  {
    number: Type.Integer({ minimum: 1 }),
    title: Type.String(),
    body: Type.Optional(Type.String()),
    user: Login,
    pull_request: Type.Optional(Type.Boolean()),
    assignees: Type.Optional(Type.Array(Login, { maxItems: 10 })),
    labels: Type.Optional(Type.Array(Type.String())),
    milestone: Type.Optional(Type.Integer({ minimum: 1 })),
    created_at: DateTime,
  },
  { additionalProperties: false },
);

/** A path in a repository: slash-separated names, none empty, `.` or `..`. */
const RepoPath = Type.String({ pattern: '^(?!/)(?!.*//)(?!(.*/)?\\.\\.?(/|$))[^\\u0000]+(?<!/)$' });
const CommitId = Type.String({ pattern: '^[a-z0-9][a-z0-9-]*$', description: "a commit's name in the world (its SHA is Git's)" });

/** What a path holds in a commit's tree; `null` in `changes` removes it. */
export const GitEntrySchema = Type.Union([
  Type.Object({ text: Type.String(), executable: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  Type.Object({ base64: Type.String({ contentEncoding: 'base64' }) }, { additionalProperties: false }),
  Type.Object(
    {
      generated: Type.Object(
        { size: Type.Integer({ minimum: 0, maximum: 200 * 1024 * 1024 }), seed: Type.Integer({ minimum: 0 }) },
        { additionalProperties: false, description: 'pseudo-random bytes made at start-up, never stored in the world' },
      ),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      series: Type.Object(
        {
          count: Type.Integer({ minimum: 1, maximum: 10_000 }),
          name: Type.String({
            pattern: '^[^/\\u0000]*\\{n\\}[^/\\u0000]*$',
            description: 'file name; {n} is 1…count, zero-padded to the width of count',
          }),
          text: Type.String({ description: 'file text; {n} as in name' }),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false, description: 'many files in the directory this path names (a listing larger than a page)' },
  ),
  Type.Object(
    { symlink: Type.String({ minLength: 1, description: 'the link target, as git stores it' }) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      submodule: Type.Object(
        { url: Type.String({ minLength: 1 }), commit: Type.String({ pattern: '^[0-9a-f]{40}$' }) },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
]);

export const GitCommitSchema = Type.Object(
  {
    id: CommitId,
    message: Type.String({ minLength: 1 }),
    author: Login,
    date: DateTime,
    parents: Type.Optional(Type.Array(CommitId, { description: 'earlier commits of this list; none: a root commit' })),
    changes: nameMap(Type.Union([GitEntrySchema, Type.Null()]), {
      description: "path to what it holds from this commit on (relative to the first parent's tree), null to remove it",
      propertyNames: RepoPath,
    }),
  },
  { additionalProperties: false },
);

export const GitRepositorySchema = Type.Object(
  {
    default_branch: Type.String({ minLength: 1 }),
    commits: Type.Array(GitCommitSchema),
    branches: nameMap(CommitId, { description: 'branch name to commit id' }),
    tags: Type.Optional(nameMap(CommitId, { description: 'tag name to commit id (lightweight tags)' })),
  },
  { additionalProperties: false },
);

export const ArtifactSchema = Type.Object(
  {
    id: Id,
    name: Type.String({ minLength: 1 }),
    created_at: DateTime,
    retention_days: Type.Integer({ minimum: 1, maximum: 400, description: 'expires this many days after created_at' }),
    files: Type.Record(RepoPath, Type.String(), { description: 'the zip holds these files, path to text' }),
  },
  { additionalProperties: false },
);

const ArtifactSeriesSchema = Type.Object(
  {
    series: Type.Object(
      {
        count: Type.Integer({ minimum: 1, maximum: 999 }),
        first_id: Id,
        name: Type.String({ pattern: '\\{n\\}', description: 'artifact name; {n} is 1…count, zero-padded to 3 digits' }),
        created_at: DateTime,
        retention_days: Type.Integer({ minimum: 1, maximum: 400 }),
      },
      { additionalProperties: false, description: 'count artifacts with consecutive ids, each a zip of one file NAME.txt' },
    ),
  },
  { additionalProperties: false },
);

export const WorkflowRunSchema = Type.Object(
  {
    id: Id,
    head_branch: Type.String({ minLength: 1 }),
    head_sha: Type.String({ pattern: '^[0-9a-f]{40}$' }),
    artifacts: Type.Array(Type.Union([ArtifactSchema, ArtifactSeriesSchema])),
  },
  { additionalProperties: false },
);

export const RepositoryDocumentSchema = Type.Object(
  {
    owner: Login,
    name: Type.String({ pattern: '^[A-Za-z0-9._-]+$' }),
    former_names: Type.Optional(
      Type.Array(Type.String({ pattern: '^[A-Za-z0-9._-]+$' }), {
        uniqueItems: true,
        description: 'names the repository had under the same owner: requests naming one are redirected',
      }),
    ),
    id: Id,
    private: Type.Boolean(),
    collaborators: Type.Optional(nameMap(Permission, { description: 'login (or a series glob such as dev-*) to permission' })),
    interaction_limit: Type.Optional(LimitSettingSchema),
    labels: Type.Optional(Type.Array(LabelSchema)),
    milestones: Type.Optional(Type.Array(MilestoneSchema)),
    issues: Type.Optional(Type.Array(IssueSchema)),
    git: Type.Optional(GitRepositorySchema),
    environments: Type.Optional(Type.Array(EnvironmentSchema)),
    workflow_runs: Type.Optional(Type.Array(WorkflowRunSchema)),
    workflow_automation: Type.Optional(
      Type.Boolean({ description: 'workflow automation is enabled: source imports into it are refused (422)' }),
    ),
  },
  { additionalProperties: false },
);

export const IMPORT_VCS = ['subversion', 'git', 'mercurial', 'tfvc'] as const;
export const IMPORT_STEPS = ['importing', 'mapping', 'pushing'] as const;

export const ImportSourceSchema = Type.Object(
  {
    url: Type.String({
      pattern: '^https?://',
      description: 'the vcs_url an import names; a URL not listed is a source where nothing is found',
    }),
    vcs: Type.Optional(Type.Enum(IMPORT_VCS, { description: 'what detection finds; absent with project_choices' })),
    project_choices: Type.Optional(
      Type.Array(
        Type.Object(
          { vcs: Type.Enum(IMPORT_VCS), tfvc_project: Type.Optional(Type.String()), human_name: Type.String() },
          { additionalProperties: false },
        ),
        { minItems: 2, description: 'several projects at the URL: detection_found_multiple' },
      ),
    ),
    credentials: Type.Optional(
      Type.Object(
        { username: Type.String(), password: Type.String() },
        { additionalProperties: false, description: 'what the source requires' },
      ),
    ),
    commits: Type.Integer({ minimum: 1, maximum: 100_000 }),
    authors: Type.Array(Type.String({ minLength: 1 }), { description: 'author names as the source writes them' }),
    large_files: Type.Optional(
      Type.Object({ count: Type.Integer({ minimum: 1 }), size_gb: Type.Number({ exclusiveMinimum: 0 }) }, { additionalProperties: false }),
    ),
    failure: Type.Optional(
      Type.Object(
        { step: Type.Enum(IMPORT_STEPS), message: Type.String({ minLength: 1 }) },
        { additionalProperties: false, description: 'the import fails when it reaches this step' },
      ),
    ),
  },
  { additionalProperties: false },
);

const requiredFor = (kinds: readonly (typeof TOKEN_KINDS)[number][], required: string[]) => ({
  if: { properties: { kind: { enum: kinds } } },
  then: { required },
});

export const TokenSchema = Type.Object(
  {
    role: Type.String({ pattern: '^[a-z][a-z0-9-]*$', not: { const: 'anonymous' } }),
    kind: Type.Enum(TOKEN_KINDS),
    value: Type.String({ minLength: 8, pattern: '^[A-Za-z0-9_.-]+$' }),
    user: Type.Optional(Login),
    account: Type.Optional(Type.String({ ...Login, description: 'app-installation: the account the app is installed on' })),
    repository: Type.Optional(Type.String({ ...FullName, description: 'workflow: the repository of the run' })),
    scopes: Type.Optional(Type.Array(Type.String())),
    repositories: Type.Optional(Type.Union([Type.Literal('all'), Type.Array(FullName)])),
    permissions: Type.Optional(nameMap(PermissionLevel, { propertyNames: { pattern: '^[a-z_]+$' } })),
  },
  {
    additionalProperties: false,
    allOf: [
      requiredFor(['classic', 'oauth'], ['user', 'scopes']),
      requiredFor(['fine-grained', 'app-user'], ['user', 'permissions']),
      requiredFor(['app-installation'], ['account', 'permissions']),
      requiredFor(['workflow'], ['repository', 'permissions']),
    ],
  },
);

export const WorldDocumentSchema = Type.Object(
  {
    clock: Type.Object({ start: DateTime }, { additionalProperties: false }),
    users: Type.Array(Type.Union([UserSchema, UserSeriesSchema])),
    organizations: Type.Array(OrganizationSchema),
    repositories: Type.Array(RepositoryDocumentSchema),
    apps: Type.Optional(Type.Array(Type.Union([AppSchema, AppSeriesSchema]))),
    enterprises: Type.Optional(Type.Array(EnterpriseSchema)),
    import_sources: Type.Optional(Type.Array(ImportSourceSchema, { description: 'version-control hosts the source imports reach' })),
    tokens: Type.Array(TokenSchema),
  },
  { additionalProperties: false },
);

/** suites/world.schema.json: the schema above as a JSON Schema document. */
export function worldJsonSchema(): object {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'touchstone:world',
    title: 'touchstone fixture world',
    description: 'Generated from reference-impl/service/world-schema.ts by `npm run docs:service`; do not edit.',
    ...(JSON.parse(JSON.stringify(WorldDocumentSchema)) as object),
  };
}
