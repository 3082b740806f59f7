// Interaction restrictions of repositories and organizations, endpoints 27–32 of spec
// document 1, following the state table (README "Interaction restrictions").
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createAccessHook, organizationGrant, repositoryGrant } from '../auth/authorize.js';
import type { EndpointId } from '../auth/endpoint-access.js';
import type { BodySchema } from '../body-validation.js';
import { ApiError } from '../errors.js';
import { EXPIRY_DURATIONS_MS, LIMIT_VALUES } from '../interaction-limit-state.js';
import { createRepresenter } from '../representations.js';
import { requestOrigin } from '../request-origin.js';
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
const settingOf = (body: SetBody): LimitSetting => ({ limit: body.limit, expiry: body.expiry ?? 'one_day' });

export function registerInteractionLimitRoutes(app: FastifyInstance, store: Store): void {
  const { directory, limits } = store;
  const access = (endpoint: EndpointId) => createAccessHook(directory, endpoint);
  const represent = (request: FastifyRequest) => createRepresenter(requestOrigin(request), directory);
  const refuseWhenOwnerLimited = (repository: WorldRepository) => {
    const level = limits.ownerLevelBlocking(repository);
    if (level !== null) throw new ApiError(409, 'CONFLICT', `Interaction limits are already set at the ${level} level`);
  };

  const repositoryPath = '/repos/:owner/:repo/interaction-limits';
  app.get(repositoryPath, { onRequest: access('repository-limits.get') }, async (request) => {
    const { repository } = repositoryGrant(request);
    return represent(request).interactionLimit(limits.ofRepository(repository));
  });

  app.put(repositoryPath, { onRequest: access('repository-limits.set'), schema: { body: SET_BODY } }, async (request) => {
    const { repository } = repositoryGrant(request);
    refuseWhenOwnerLimited(repository);
    const limit = limits.setRepository(repository, settingOf(request.body as SetBody));
    return represent(request).interactionLimit(limit);
  });

  app.delete(
    repositoryPath,
    { onRequest: access('repository-limits.delete'), schema: { body: DELETE_BODY } },
    async (request, reply) => {
      const { repository } = repositoryGrant(request);
      refuseWhenOwnerLimited(repository);
      limits.clearRepository(repository);
      return reply.code(204).send();
    },
  );

  const organizationPath = '/orgs/:org/interaction-limits';
  app.get(organizationPath, { onRequest: access('organization-limits.get') }, async (request) => {
    const { organization } = organizationGrant(request);
    return represent(request).interactionLimit(limits.ofOrganization(organization));
  });

  app.put(organizationPath, { onRequest: access('organization-limits.set'), schema: { body: SET_BODY } }, async (request) => {
    const { organization } = organizationGrant(request);
    const limit = limits.setOrganization(organization, settingOf(request.body as SetBody));
    return represent(request).interactionLimit(limit);
  });

  app.delete(
    organizationPath,
    { onRequest: access('organization-limits.delete'), schema: { body: DELETE_BODY } },
    async (request, reply) => {
      const { organization } = organizationGrant(request);
      limits.clearOrganization(organization);
      return reply.code(204).send();
    },
  );
}
