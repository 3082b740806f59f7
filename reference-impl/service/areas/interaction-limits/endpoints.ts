// Interaction restrictions of repositories and organizations, endpoints 27–32 of spec
// document 1: the area's state (limit-state.ts, the spec's state table) and its six
// endpoint definitions (README "Interaction restrictions").
//
// Decisions where the spec is silent, each with the variation that makes it otherwise
// (suites/variants/interaction-limits.yaml):
// - one_month is 30 days and six_months 180 (the spec names the durations only);
//   limits.calendar-months adds calendar months (2026-07-01 + one_month = 2026-08-01).
// - A limit is gone at the instant expires_at; limits.active-at-expires-at keeps it
//   through that instant, gone only after.
// - The organization endpoint takes the repository endpoint's expiry values, one_day by
//   default ("allowed values and default: not shown"); limits.org-default-one-week
//   defaults to one week there.
// - An expiry outside the five values is refused (422, field expiry) and sets nothing;
//   limits.unknown-expiry-default applies the default, one_day, instead.
// - Deleting the organization's limit removes the limits its PUT wrote into the
//   organization's repositories; limits.org-delete-keeps-repository-limits leaves them
//   until they expire or are deleted.
// - DELETE with no limit set answers 204 (endpoint 29's and 32's only success);
//   limits.delete-none-404 answers 404, there being nothing to delete.
// - An authenticated caller without the role or permission gets 403; limits.denied-as-404
//   answers 404, as if the limits were not there.
// - Classic tokens need repo or public_repo to change a public repository's limits (none
//   to read them), repo for a private one (the spec names no scope for a public one);
//   limits.public-repository-no-scope asks no scope on a public repository,
//   limits.repo-scope-only asks repo there too.
// - GET with no limit answers `{}` (an empty JSON object is "empty"); expires_at is written
//   `2026-07-02T00:00:00Z`, limits.expires-at-offset writes `2026-07-02T00:00:00.000+00:00`.
import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { AreaModule } from '../../area.js';
import {
  onOrganization,
  onRepository,
  ORGANIZATION_READ_SCOPES,
  ORGANIZATION_WRITE_SCOPES,
  read,
  REPOSITORY_READ_SCOPES,
  REPOSITORY_WRITE_SCOPES,
  write,
} from '../../auth/endpoint-access.js';
import { defineEndpoint } from '../../endpoint.js';
import { ApiError, notFound, validationFailed } from '../../errors.js';
import type { Faults } from '../../faults.js';
import { representerFor } from '../../representations.js';
import type { Variants } from '../../variants.js';
import type { LimitExpiry, LimitSetting, WorldRepository } from '../../world-model.js';
import { LIMIT_EXPIRIES, LIMIT_VALUES } from '../../world-schema.js';
import { createInteractionLimitState, type ActiveLimit } from './limit-state.js';
import { representLimit } from './representation.js';

const SET_BODY = Type.Object(
  {
    limit: Type.Enum(LIMIT_VALUES),
    // Any string: whether one outside LIMIT_EXPIRIES is refused is decided in settingOf (a variation reads it otherwise).
    expiry: Type.Optional(Type.String({ description: `one of ${LIMIT_EXPIRIES.join(', ')}` })),
  },
  { title: 'InteractionLimit', additionalProperties: false },
);

// DELETE takes no parameters; a body with fields is refused like any unknown field.
const DELETE_BODY = Type.Object({}, { title: 'InteractionLimit', additionalProperties: false });

const REPOSITORY_ADMIN = { anonymous: false, role: 'admin' } as const;
const ORGANIZATION_OWNER = { anonymous: false, role: 'organization-owner' } as const;
const DENIED_AS_404 = { variant: 'limits.denied-as-404', forbiddenAs: 404 } as const;
const REPOSITORY_READ = onRepository({
  ...REPOSITORY_ADMIN,
  scopes: REPOSITORY_READ_SCOPES,
  permissions: [read('administration')],
  variations: [DENIED_AS_404, { variant: 'limits.repo-scope-only', scopes: { public: ['repo'], private: ['repo'] } }],
});
const REPOSITORY_WRITE = onRepository({
  ...REPOSITORY_ADMIN,
  scopes: REPOSITORY_WRITE_SCOPES,
  permissions: [write('administration')],
  variations: [
    DENIED_AS_404,
    { variant: 'limits.public-repository-no-scope', scopes: { public: [], private: ['repo'] } },
    { variant: 'limits.repo-scope-only', scopes: { public: ['repo'], private: ['repo'] } },
  ],
});
const ORGANIZATION_READ = onOrganization({
  ...ORGANIZATION_OWNER,
  scopes: ORGANIZATION_READ_SCOPES,
  permissions: [read('organization_administration')],
  variations: [DENIED_AS_404],
});
const ORGANIZATION_WRITE = onOrganization({
  ...ORGANIZATION_OWNER,
  scopes: ORGANIZATION_WRITE_SCOPES,
  permissions: [write('organization_administration')],
  variations: [DENIED_AS_404],
});

const REPOSITORY_PATH = '/repos/:owner/:repo/interaction-limits';
const ORGANIZATION_PATH = '/orgs/:org/interaction-limits';

const isExpiry = (value: string): value is LimitExpiry => (LIMIT_EXPIRIES as readonly string[]).includes(value);

/** `expiry` defaults to one_day on both levels (a documented choice for organizations); one not listed is refused. */
function settingOf(body: Static<typeof SET_BODY>, level: 'repository' | 'organization', faults: Faults, variants: Variants): LimitSetting {
  const refused =
    (body.limit === 'collaborators_only' && faults.on('limits.collaborators-only-refused')) ||
    ((body.expiry === 'one_month' || body.expiry === 'six_months') && faults.on('limits.long-expiry-refused'));
  if (refused)
    throw validationFailed([
      { resource: 'InteractionLimit', field: body.limit === 'collaborators_only' ? 'limit' : 'expiry', code: 'invalid' },
    ]);
  const unknown = body.expiry !== undefined && !isExpiry(body.expiry);
  if (unknown && !variants.on('limits.unknown-expiry-default'))
    throw validationFailed([{ resource: 'InteractionLimit', field: 'expiry', code: 'invalid' }]);
  const fallback = level === 'organization' && variants.on('limits.org-default-one-week') ? 'one_week' : 'one_day';
  const expiry = body.expiry !== undefined && isExpiry(body.expiry) ? body.expiry : fallback;
  return { limit: body.limit, expiry: faults.on('limits.expiry-ignored') ? 'one_day' : expiry };
}

const create: AreaModule['create'] = ({ directory, clock, faults, variants }) => {
  const limits = createInteractionLimitState(directory, clock, faults, variants);
  const limitOf = (request: FastifyRequest, limit: ActiveLimit | null) =>
    representLimit(representerFor(request, directory), { faults, variants }, limit);
  /** DELETE with nothing to delete: 204 like any other (limits.delete-none-404: 404). */
  const refuseWhenNothingToDelete = (limit: ActiveLimit | null) => {
    if (limit === null && variants.on('limits.delete-none-404')) throw notFound();
  };
  const refuseWhenOwnerLimited = (repository: WorldRepository) => {
    const level = faults.on('limits.owner-limit-ignored') ? null : limits.ownerLevelBlocking(repository);
    if (level !== null) throw new ApiError(409, 'CONFLICT', `Interaction limits are already set at the ${level} level`);
  };

  const endpoints = [
    defineEndpoint({
      spec: { document: 1, number: 27 },
      id: 'repository-limits.get',
      summary: 'Get interaction restrictions for a repository',
      method: 'GET',
      path: REPOSITORY_PATH,
      responses: { 200: ['interaction-limit', 'empty'] },
      access: REPOSITORY_READ,
      handler: (request, _reply, { repository }) => limitOf(request, limits.ofRepository(repository)),
    }),
    defineEndpoint({
      spec: { document: 1, number: 28 },
      id: 'repository-limits.set',
      summary: 'Set interaction restrictions for a repository',
      method: 'PUT',
      path: REPOSITORY_PATH,
      responses: { 200: 'interaction-limit' },
      access: REPOSITORY_WRITE,
      body: SET_BODY,
      handler: (request, reply, { repository }) => {
        refuseWhenOwnerLimited(repository);
        const setting = settingOf(request.body, 'repository', faults, variants);
        const active = faults.on('limits.put-keeps-active') ? limits.ofRepository(repository) : null;
        const limit = active ?? limits.setRepository(repository, setting);
        reply.code(faults.on('limits.put-201') ? 201 : 200);
        return limitOf(request, limit);
      },
    }),
    defineEndpoint({
      spec: { document: 1, number: 29 },
      id: 'repository-limits.delete',
      summary: 'Remove interaction restrictions from a repository',
      method: 'DELETE',
      path: REPOSITORY_PATH,
      responses: { 204: 'empty' },
      access: REPOSITORY_WRITE,
      body: DELETE_BODY,
      handler: (_request, reply, { repository }) => {
        refuseWhenOwnerLimited(repository);
        refuseWhenNothingToDelete(limits.ofRepository(repository));
        if (!faults.on('limits.delete-ignored')) limits.clearRepository(repository);
        return faults.on('limits.delete-200') ? reply.code(200).send({}) : reply.code(204).send();
      },
    }),
    defineEndpoint({
      spec: { document: 1, number: 30 },
      id: 'organization-limits.get',
      summary: 'Get interaction restrictions for an organization',
      method: 'GET',
      path: ORGANIZATION_PATH,
      responses: { 200: ['interaction-limit', 'empty'] },
      access: ORGANIZATION_READ,
      handler: (request, _reply, { organization }) =>
        limitOf(request, faults.on('limits.org-get-empty') ? null : limits.ofOrganization(organization)),
    }),
    defineEndpoint({
      spec: { document: 1, number: 31 },
      id: 'organization-limits.set',
      summary: 'Set interaction restrictions for an organization',
      method: 'PUT',
      path: ORGANIZATION_PATH,
      responses: { 200: 'interaction-limit' },
      access: ORGANIZATION_WRITE,
      body: SET_BODY,
      handler: (request, reply, { organization }) => {
        const limit = limits.setOrganization(organization, settingOf(request.body, 'organization', faults, variants));
        reply.code(faults.on('limits.org-put-201') ? 201 : 200);
        return limitOf(request, limit);
      },
    }),
    defineEndpoint({
      spec: { document: 1, number: 32 },
      id: 'organization-limits.delete',
      summary: 'Remove interaction restrictions from an organization',
      method: 'DELETE',
      path: ORGANIZATION_PATH,
      responses: { 204: 'empty' },
      access: ORGANIZATION_WRITE,
      body: DELETE_BODY,
      handler: (_request, reply, { organization }) => {
        refuseWhenNothingToDelete(limits.ofOrganization(organization));
        if (!faults.on('limits.org-delete-ignored')) limits.clearOrganization(organization);
        return faults.on('limits.org-delete-200') ? reply.code(200).send({}) : reply.code(204).send();
      },
    }),
  ];
  return { name: 'interaction-limits', endpoints, reset: () => limits.reset(), state: () => limits.snapshot() };
};

export const interactionLimits = {
  name: 'interaction-limits',
  create,
} satisfies AreaModule;
