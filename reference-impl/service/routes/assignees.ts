// Issue assignees, endpoints 6–9 of spec document 1. Access is decided by each route's
// hook (auth/endpoint-access.ts); handlers only apply the assignee rules.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createAccessHook, repositoryGrant } from '../auth/authorize.js';
import type { BodySchema } from '../body-validation.js';
import { notFound, validationFailed } from '../errors.js';
import { MAX_ASSIGNEES, type IssueRecord } from '../issue-state.js';
import { paginate } from '../pagination.js';
import { assignableUsers, roleOf } from '../repository-roles.js';
import { representerFor } from '../representations.js';
import type { Store } from '../store.js';
import type { WorldRepository } from '../world-model.js';

// The 10-per-call limit is checked by the handler, not the schema: it is where the
// assignees.more-than-ten fault switches it off.
const ASSIGNEES_BODY: BodySchema = {
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
  const { directory, faults } = store;
  const access = (endpoint: Parameters<typeof createAccessHook>[1]) => createAccessHook(directory, endpoint);
  const represent = (request: FastifyRequest) => representerFor(request, directory);
  const assignable = (repository: WorldRepository) => new Set(assignableUsers(directory, repository).map((u) => u.login));
  const findIssue = (request: FastifyRequest, repository: WorldRepository): IssueRecord => {
    const raw = (request.params as { issue_number: string }).issue_number;
    const number = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
    const record = Number.isSafeInteger(number) ? store.issues.find(repository, number) : undefined;
    if (record === undefined) {
      throw faults.on('assignees.unknown-issue-422') ? validationFailed([{ resource: 'Issue', field: 'issue_number', code: 'invalid' }]) : notFound();
    }
    return record;
  };
  /** Push access decides whether a write is applied (spec: otherwise "silently ignored"). */
  const applies = (push: boolean) => push || faults.on('assignees.push-not-required');
  /** Names of known users in canonical spelling; unknown names are dropped, as the spec's "ignored". */
  const knownLogins = (names: string[]) =>
    names.flatMap((name) => {
      const user = directory.user(name);
      return user === undefined ? [] : [user.login];
    });

  app.get('/repos/:owner/:repo/assignees', { onRequest: access('assignees.list') }, async (request, reply) => {
    const { repository } = repositoryGrant(request);
    const users = assignableUsers(directory, repository);
    const listed = faults.on('assignees.list-without-owners') ? users.filter((user) => roleOf(directory, user.login, repository) !== 'admin') : users;
    const page = paginate(request, listed);
    if (page.link !== null) reply.header('link', page.link);
    const representer = represent(request);
    return page.items.map((user) => representer.user(user));
  });

  app.get('/repos/:owner/:repo/assignees/:assignee', { onRequest: access('assignees.check') }, async (request, reply) => {
    const { repository } = repositoryGrant(request);
    const user = directory.user((request.params as { assignee: string }).assignee);
    if (user === undefined || (!assignable(repository).has(user.login) && !faults.on('assignees.check-anyone'))) throw notFound();
    return faults.on('assignees.check-200') ? reply.code(200).send({ assignable: true }) : reply.code(204).send();
  });

  app.post(
    '/repos/:owner/:repo/issues/:issue_number/assignees',
    { onRequest: access('assignees.add'), schema: { body: ASSIGNEES_BODY } },
    async (request, reply) => {
      const grant = repositoryGrant(request);
      const { assignees } = request.body as AssigneesBody;
      const cap = faults.on('assignees.more-than-ten') ? Number.POSITIVE_INFINITY : MAX_ASSIGNEES;
      // Like a schema's maxItems, before the issue is looked up (README "order of checks").
      if (assignees.length > cap) throw validationFailed([{ resource: 'Issue', field: 'assignees', code: 'invalid' }]);
      const record = findIssue(request, grant.repository);
      // Without push access the request succeeds and changes nothing (spec: "silently ignored").
      if (applies(grant.push)) {
        const allowed = assignable(grant.repository);
        const logins = knownLogins(assignees).filter((login) => allowed.has(login));
        if (faults.on('assignees.add-replaces')) store.issues.removeAssignees(record, record.assignees);
        store.issues.addAssignees(record, logins, cap);
      }
      reply.code(faults.on('assignees.add-200') ? 200 : 201);
      return represent(request).issue(record);
    },
  );

  app.delete(
    '/repos/:owner/:repo/issues/:issue_number/assignees',
    { onRequest: access('assignees.remove'), schema: { body: ASSIGNEES_BODY } },
    async (request, reply) => {
      const grant = repositoryGrant(request);
      const record = findIssue(request, grant.repository);
      if (applies(grant.push) && !faults.on('assignees.remove-ignored')) store.issues.removeAssignees(record, knownLogins((request.body as AssigneesBody).assignees));
      if (faults.on('assignees.remove-204')) return reply.code(204).send();
      return represent(request).issue(record);
    },
  );
}
