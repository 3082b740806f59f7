// Interaction restrictions of repositories and organizations, endpoints 27–32 of spec
// document 1: the area's state (limit-state.ts, the spec's state table) and its six
// endpoint definitions (README "Interaction restrictions").
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
import { ApiError, validationFailed } from '../../errors.js';
import type { Faults } from '../../faults.js';
import { representerFor } from '../../representations.js';
import type { LimitSetting, WorldRepository } from '../../world-model.js';
import { LIMIT_EXPIRIES, LIMIT_VALUES } from '../../world-schema.js';
import { createInteractionLimitState, type ActiveLimit } from './limit-state.js';
import { representLimit } from './representation.js';

const SET_BODY = Type.Object(
  {
    limit: Type.Enum(LIMIT_VALUES),
    expiry: Type.Optional(Type.Enum(LIMIT_EXPIRIES)),
  },
  { title: 'InteractionLimit', additionalProperties: false },
);

// DELETE takes no parameters; a body with fields is refused like any unknown field.
const DELETE_BODY = Type.Object({}, { title: 'InteractionLimit', additionalProperties: false });

const REPOSITORY_ADMIN = { anonymous: false, role: 'admin' } as const;
const ORGANIZATION_OWNER = { anonymous: false, role: 'organization-owner' } as const;
const REPOSITORY_READ = onRepository({ ...REPOSITORY_ADMIN, scopes: REPOSITORY_READ_SCOPES, permissions: [read('administration')] });
const REPOSITORY_WRITE = onRepository({ ...REPOSITORY_ADMIN, scopes: REPOSITORY_WRITE_SCOPES, permissions: [write('administration')] });
const ORGANIZATION_READ = onOrganization({
  ...ORGANIZATION_OWNER,
  scopes: ORGANIZATION_READ_SCOPES,
  permissions: [read('organization_administration')],
});
const ORGANIZATION_WRITE = onOrganization({
  ...ORGANIZATION_OWNER,
  scopes: ORGANIZATION_WRITE_SCOPES,
  permissions: [write('organization_administration')],
});

const REPOSITORY_PATH = '/repos/:owner/:repo/interaction-limits';
const ORGANIZATION_PATH = '/orgs/:org/interaction-limits';

/** `expiry` defaults to one_day on both levels (a documented choice for organizations). */
function settingOf(body: Static<typeof SET_BODY>, level: 'repository' | 'organization', faults: Faults): LimitSetting {
  const refused =
    (body.limit === 'collaborators_only' && faults.on('limits.collaborators-only-refused')) ||
    ((body.expiry === 'one_month' || body.expiry === 'six_months') && faults.on('limits.long-expiry-refused'));
  if (refused)
    throw validationFailed([
      { resource: 'InteractionLimit', field: body.limit === 'collaborators_only' ? 'limit' : 'expiry', code: 'invalid' },
    ]);
  const fallback = level === 'organization' && faults.on('limits.org-default-one-week') ? 'one_week' : 'one_day';
  return { limit: body.limit, expiry: faults.on('limits.expiry-ignored') ? 'one_day' : (body.expiry ?? fallback) };
}

/** Built-in faults of this area (suites/faults/interaction-limits.yaml says what each does and breaks). */
const LIMIT_FAULTS = [
  'representations.limit-without-origin',
  'representations.limit-none-as-null',
  'limits.put-201',
  'limits.put-keeps-active',
  'limits.collaborators-only-refused',
  'limits.long-expiry-refused',
  'limits.expiry-ignored',
  'limits.delete-ignored',
  'limits.delete-200',
  'limits.never-expire',
  'limits.owner-limit-ignored',
  'limits.org-put-skips-repositories',
  'limits.org-get-empty',
  'limits.org-put-201',
  'limits.org-delete-ignored',
  'limits.org-delete-200',
  'limits.org-default-one-week',
] as const;

const create: AreaModule['create'] = ({ directory, clock, faults }) => {
  const limits = createInteractionLimitState(directory, clock, faults);
  const limitOf = (request: FastifyRequest, limit: ActiveLimit | null) => representLimit(representerFor(request, directory), faults, limit);
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
        const setting = settingOf(request.body, 'repository', faults);
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
        const limit = limits.setOrganization(organization, settingOf(request.body, 'organization', faults));
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
        if (!faults.on('limits.org-delete-ignored')) limits.clearOrganization(organization);
        return faults.on('limits.org-delete-200') ? reply.code(200).send({}) : reply.code(204).send();
      },
    }),
  ];
  return { name: 'interaction-limits', endpoints, reset: () => limits.reset(), state: () => limits.snapshot() };
};

export const interactionLimits = { name: 'interaction-limits', faults: LIMIT_FAULTS, create } satisfies AreaModule;
