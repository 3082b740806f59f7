// Interaction restrictions of repositories and organizations, endpoints 27–32 of spec
// document 1, following the state table (README "Interaction restrictions").
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createAccessHook, organizationGrant, repositoryGrant } from '../auth/authorize.js';
import type { EndpointId } from '../auth/endpoint-access.js';
import type { BodySchema } from '../body-validation.js';
import { ApiError, validationFailed } from '../errors.js';
import type { Faults } from '../faults.js';
import { EXPIRY_DURATIONS_MS, LIMIT_VALUES } from '../interaction-limit-state.js';
import { representerFor } from '../representations.js';
import type { Store } from '../store.js';
import type { LimitExpiry, LimitSetting, LimitValue, WorldRepository } from '../world-model.js';

const SET_BODY: BodySchema = {
  title: 'InteractionLimit',
  type: 'object',
  properties: {
    limit: { type: 'string', enum: LIMIT_VALUES },
    expiry: { type: 'string', enum: Object.keys(EXPIRY_DURATIONS_MS) },
  },
  required: ['limit'],
  additionalProperties: false,
};

// DELETE takes no parameters; a body with fields is refused like any unknown field.
const DELETE_BODY: BodySchema = { title: 'InteractionLimit', type: 'object', additionalProperties: false };

interface SetBody {
  limit: LimitValue;
  expiry?: LimitExpiry;
}

/** `expiry` defaults to one_day on both levels (a documented choice for organizations). */
function settingOf(body: SetBody, level: 'repository' | 'organization', faults: Faults): LimitSetting {
  const refused =
    (body.limit === 'collaborators_only' && faults.on('limits.collaborators-only-refused')) ||
    ((body.expiry === 'one_month' || body.expiry === 'six_months') && faults.on('limits.long-expiry-refused'));
  if (refused) throw validationFailed([{ resource: 'InteractionLimit', field: body.limit === 'collaborators_only' ? 'limit' : 'expiry', code: 'invalid' }]);
  const fallback = level === 'organization' && faults.on('limits.org-default-one-week') ? 'one_week' : 'one_day';
  return { limit: body.limit, expiry: faults.on('limits.expiry-ignored') ? 'one_day' : (body.expiry ?? fallback) };
}

export function registerInteractionLimitRoutes(app: FastifyInstance, store: Store): void {
  const { directory, limits, faults } = store;
  const access = (endpoint: EndpointId) => createAccessHook(directory, endpoint);
  const represent = (request: FastifyRequest) => representerFor(request, directory);
  const refuseWhenOwnerLimited = (repository: WorldRepository) => {
    const level = faults.on('limits.owner-limit-ignored') ? null : limits.ownerLevelBlocking(repository);
    if (level !== null) throw new ApiError(409, 'CONFLICT', `Interaction limits are already set at the ${level} level`);
  };

  const repositoryPath = '/repos/:owner/:repo/interaction-limits';
  app.get(repositoryPath, { onRequest: access('repository-limits.get') }, async (request) => {
    const { repository } = repositoryGrant(request);
    return represent(request).interactionLimit(limits.ofRepository(repository));
  });

  app.put(repositoryPath, { onRequest: access('repository-limits.set'), schema: { body: SET_BODY } }, async (request, reply) => {
    const { repository } = repositoryGrant(request);
    refuseWhenOwnerLimited(repository);
    const setting = settingOf(request.body as SetBody, 'repository', faults);
    const active = faults.on('limits.put-keeps-active') ? limits.ofRepository(repository) : null;
    const limit = active ?? limits.setRepository(repository, setting);
    reply.code(faults.on('limits.put-201') ? 201 : 200);
    return represent(request).interactionLimit(limit);
  });

  app.delete(
    repositoryPath,
    { onRequest: access('repository-limits.delete'), schema: { body: DELETE_BODY } },
    async (request, reply) => {
      const { repository } = repositoryGrant(request);
      refuseWhenOwnerLimited(repository);
      if (!faults.on('limits.delete-ignored')) limits.clearRepository(repository);
      return faults.on('limits.delete-200') ? reply.code(200).send({}) : reply.code(204).send();
    },
  );

  const organizationPath = '/orgs/:org/interaction-limits';
  app.get(organizationPath, { onRequest: access('organization-limits.get') }, async (request) => {
    const { organization } = organizationGrant(request);
    return represent(request).interactionLimit(faults.on('limits.org-get-empty') ? null : limits.ofOrganization(organization));
  });

  app.put(organizationPath, { onRequest: access('organization-limits.set'), schema: { body: SET_BODY } }, async (request, reply) => {
    const { organization } = organizationGrant(request);
    const limit = limits.setOrganization(organization, settingOf(request.body as SetBody, 'organization', faults));
    reply.code(faults.on('limits.org-put-201') ? 201 : 200);
    return represent(request).interactionLimit(limit);
  });

  app.delete(
    organizationPath,
    { onRequest: access('organization-limits.delete'), schema: { body: DELETE_BODY } },
    async (request, reply) => {
      const { organization } = organizationGrant(request);
      if (!faults.on('limits.org-delete-ignored')) limits.clearOrganization(organization);
      return faults.on('limits.org-delete-200') ? reply.code(200).send({}) : reply.code(204).send();
    },
  );
}
