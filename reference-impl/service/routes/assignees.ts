// Issue assignees, endpoints 6–9 of spec document 1. Access is decided by each route's
// hook (auth/endpoint-access.ts); handlers only apply the assignee rules.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createAccessHook, repositoryGrant } from '../auth/authorize.js';
import type { BodySchema } from '../body-validation.js';
import { notFound } from '../errors.js';
import { MAX_ASSIGNEES, type IssueRecord } from '../issue-state.js';
import { paginate } from '../pagination.js';
import { assignableUsers } from '../repository-roles.js';
import { createRepresenter } from '../representations.js';
import { requestOrigin } from '../request-origin.js';
import type { Store } from '../store.js';
import type { WorldRepository } from '../world-model.js';

const ADD_BODY: BodySchema = {
  title: 'Issue',
  type: 'object',
  properties: { assignees: { type: 'array', items: { type: 'string' }, maxItems: MAX_ASSIGNEES } },
  required: ['assignees'],
  additionalProperties: false,
};

const REMOVE_BODY: BodySchema = {
  title: 'Issue',
  type: 'object',
  properties: { assignees: { type: 'array', items: { type: 'string' } } },
  required: ['assignees'],
  additionalProperties: false,
};

interface AssigneesBody {
  assignees: string[];
}

export function registerAssigneeRoutes(app: FastifyInstance, store: Store): void {
  const { directory } = store;
  const access = (endpoint: Parameters<typeof createAccessHook>[1]) => createAccessHook(directory, endpoint);
  const represent = (request: FastifyRequest) => createRepresenter(requestOrigin(request), directory);
  const assignable = (repository: WorldRepository) => new Set(assignableUsers(directory, repository).map((u) => u.login));
  const findIssue = (request: FastifyRequest, repository: WorldRepository): IssueRecord => {
    const raw = (request.params as { issue_number: string }).issue_number;
    const number = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
    const record = Number.isSafeInteger(number) ? store.issues.find(repository, number) : undefined;
    if (record === undefined) throw notFound();
    return record;
  };
  /** Names of known users in canonical spelling; unknown names are dropped, as the spec's "ignored". */
  const knownLogins = (names: string[]) =>
    names.flatMap((name) => {
      const user = directory.user(name);
      return user === undefined ? [] : [user.login];
    });

  app.get('/repos/:owner/:repo/assignees', { onRequest: access('assignees.list') }, async (request, reply) => {
    const { repository } = repositoryGrant(request);
    const page = paginate(request, assignableUsers(directory, repository));
    if (page.link !== null) reply.header('link', page.link);
    const representer = represent(request);
    return page.items.map((user) => representer.user(user));
  });

  app.get('/repos/:owner/:repo/assignees/:assignee', { onRequest: access('assignees.check') }, async (request, reply) => {
    const { repository } = repositoryGrant(request);
    const user = directory.user((request.params as { assignee: string }).assignee);
    if (user === undefined || !assignable(repository).has(user.login)) throw notFound();
    return reply.code(204).send();
  });

  app.post(
    '/repos/:owner/:repo/issues/:issue_number/assignees',
    { onRequest: access('assignees.add'), schema: { body: ADD_BODY } },
    async (request, reply) => {
      const grant = repositoryGrant(request);
      const record = findIssue(request, grant.repository);
      // Without push access the request succeeds and changes nothing (spec: "silently ignored").
      if (grant.push) {
        const allowed = assignable(grant.repository);
        const logins = knownLogins((request.body as AssigneesBody).assignees).filter((login) => allowed.has(login));
        store.issues.addAssignees(record, logins);
      }
      reply.code(201);
      return represent(request).issue(record);
    },
  );

  app.delete(
    '/repos/:owner/:repo/issues/:issue_number/assignees',
    { onRequest: access('assignees.remove'), schema: { body: REMOVE_BODY } },
    async (request) => {
      const grant = repositoryGrant(request);
      const record = findIssue(request, grant.repository);
      if (grant.push) store.issues.removeAssignees(record, knownLogins((request.body as AssigneesBody).assignees));
      return represent(request).issue(record);
    },
  );
}
