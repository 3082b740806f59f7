// Issue assignees, endpoints 6–9 of spec document 1: the area's state (issue-state.ts) and
// its four endpoint definitions. Access is decided by each definition's rule before the
// handler runs; handlers only apply the assignee rules.
//
// Decisions where the spec is silent (README "Issue assignees"), and the variations that
// make each otherwise (suites/variants/assignees.yaml):
// - Who "can be assigned" (endpoint 7) is not defined: the reference's assignable users are
//   those with push access, the repository's owner and its organization's owners included
//   (assignableIn below). Variations: `assignees.assignable-readers` (anyone with a role in
//   the repository, readers and organization members too); `assignees.assignable-collaborators-only`
//   (organization owners who are not collaborators of the repository are not assignable).
// - A request naming more than 10 users is refused whole with 422; variation
//   `assignees.over-ten-first-ten` adds the first of them instead and ignores the rest.
// - "adds at most 10 assignees" is read as a cap on the issue too (it holds at most 10);
//   variation `assignees.cap-per-call` caps only what one call adds.
// - An empty `assignees` list is accepted and changes nothing; variation
//   `assignees.empty-list-refused` answers it with 422.
// - pull_request.url names the pull request in the API; variation `assignees.pull-request-url-web`
//   gives its web address (the spec defines no pulls endpoint to point at).
// - A caller who sees the repository but lacks Issues (read) and Pull requests (read) gets 403
//   from endpoints 6 and 7; variation `assignees.denied-as-404` answers 404, as if the
//   repository were not there.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AreaModule } from '../../area.js';
import { onRepository, read, REPOSITORY_READ_SCOPES, REPOSITORY_WRITE_SCOPES, write } from '../../auth/endpoint-access.js';
import { defineEndpoint } from '../../endpoint.js';
import { notFound, validationFailed } from '../../errors.js';
import { pageOf } from '../../pagination.js';
import { representerFor } from '../../representations.js';
import { assignableUsers, roleOf } from '../../repository-roles.js';
import type { WorldRepository, WorldUser } from '../../world-model.js';
import { representIssue } from './issue-representation.js';
import { createIssueState, MAX_ASSIGNEES, type IssueRecord } from './issue-state.js';

// The 10-per-call limit is checked by the handler, not the schema: it is where the
// assignees.more-than-ten fault switches it off.
const ASSIGNEES_BODY = Type.Object({ assignees: Type.Array(Type.String()) }, { title: 'Issue', additionalProperties: false });

const READ = onRepository({
  anonymous: true,
  scopes: REPOSITORY_READ_SCOPES,
  permissions: [read('issues'), read('pull_requests')],
  role: 'visible',
  // 403 or 404 for a caller who sees the repository but lacks the permission: the spec does not say.
  variations: [{ variant: 'assignees.denied-as-404', forbiddenAs: 404 }],
});
const WRITE = onRepository({
  anonymous: false,
  scopes: REPOSITORY_WRITE_SCOPES,
  permissions: [write('issues'), write('pull_requests')],
  role: 'push-or-ignore',
});

const create: AreaModule['create'] = ({ directory, clock, faults, variants }) => {
  const issues = createIssueState(directory, clock);
  const issueOf = (request: FastifyRequest, record: IssueRecord) =>
    representIssue(representerFor(request, directory), directory, { faults, variants }, record);
  /**
   * The users who can be assigned, by id: the one place the reference decides it (the spec
   * does not say). Push access by default; the variations read "can be assigned" otherwise.
   */
  const assignableIn = (repository: WorldRepository): readonly WorldUser[] => {
    if (variants.on('assignees.assignable-readers'))
      return directory.users.filter((user) => roleOf(directory, user.login, repository) !== null);
    const pushers = assignableUsers(directory, repository);
    if (!variants.on('assignees.assignable-collaborators-only')) return pushers;
    const owners = directory.organization(repository.owner)?.owners ?? [];
    return pushers.filter((user) => !owners.includes(user.login) || repository.collaborators[user.login] !== undefined);
  };
  const assignable = (repository: WorldRepository) => new Set(assignableIn(repository).map((u) => u.login));
  /** An empty list changes nothing and is accepted, unless the variation refuses it like a schema's minItems. */
  const requireNames = (assignees: string[]) => {
    if (assignees.length === 0 && variants.on('assignees.empty-list-refused'))
      throw validationFailed([{ resource: 'Issue', field: 'assignees', code: 'invalid' }]);
  };
  const findIssue = (repository: WorldRepository, raw: string): IssueRecord => {
    const number = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
    const record = Number.isSafeInteger(number) ? issues.find(repository, number) : undefined;
    if (record === undefined) {
      throw faults.on('assignees.unknown-issue-422')
        ? validationFailed([{ resource: 'Issue', field: 'issue_number', code: 'invalid' }])
        : notFound();
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

  const endpoints = [
    defineEndpoint({
      spec: { document: 1, number: 6 },
      id: 'assignees.list',
      summary: 'List assignees',
      method: 'GET',
      path: '/repos/:owner/:repo/assignees',
      responses: { 200: 'user[]' },
      access: READ,
      handler: (request, reply, { repository }) => {
        const users = assignableIn(repository);
        const listed = faults.on('assignees.list-without-owners')
          ? users.filter((user) => roleOf(directory, user.login, repository) !== 'admin')
          : users;
        const representer = representerFor(request, directory);
        return pageOf(request, reply, listed).map((user) => representer.user(user));
      },
    }),
    defineEndpoint({
      spec: { document: 1, number: 7 },
      id: 'assignees.check',
      summary: 'Check if a user can be assigned',
      method: 'GET',
      path: '/repos/:owner/:repo/assignees/:assignee',
      responses: { 204: 'empty' },
      access: READ,
      handler: (request, reply, { repository }) => {
        const user = directory.user(request.params.assignee);
        if (user === undefined || (!assignable(repository).has(user.login) && !faults.on('assignees.check-anyone'))) throw notFound();
        return faults.on('assignees.check-200') ? reply.code(200).send({ assignable: true }) : reply.code(204).send();
      },
    }),
    defineEndpoint({
      spec: { document: 1, number: 8 },
      id: 'assignees.add',
      summary: 'Add assignees to an issue',
      method: 'POST',
      path: '/repos/:owner/:repo/issues/:issue_number/assignees',
      responses: { 201: 'issue' },
      access: WRITE,
      body: ASSIGNEES_BODY,
      handler: (request, reply, grant) => {
        const { assignees } = request.body;
        const unlimited = faults.on('assignees.more-than-ten');
        // Like a schema's minItems and maxItems, before the issue is looked up (README "order of checks").
        requireNames(assignees);
        if (assignees.length > MAX_ASSIGNEES && !unlimited && !variants.on('assignees.over-ten-first-ten'))
          throw validationFailed([{ resource: 'Issue', field: 'assignees', code: 'invalid' }]);
        const record = findIssue(grant.repository, request.params.issue_number);
        // Without push access the request succeeds and changes nothing (spec: "silently ignored").
        if (applies(grant.push)) {
          const allowed = assignable(grant.repository);
          const logins = knownLogins(assignees).filter((login) => allowed.has(login));
          if (faults.on('assignees.add-replaces')) issues.removeAssignees(record, record.assignees);
          // How many the issue may hold once this call is done: 10 in all, or 10 more than now when the cap is per call.
          const cap = unlimited
            ? Number.POSITIVE_INFINITY
            : variants.on('assignees.cap-per-call')
              ? record.assignees.length + MAX_ASSIGNEES
              : MAX_ASSIGNEES;
          issues.addAssignees(record, logins, cap);
        }
        reply.code(faults.on('assignees.add-200') ? 200 : 201);
        return issueOf(request, record);
      },
    }),
    defineEndpoint({
      spec: { document: 1, number: 9 },
      id: 'assignees.remove',
      summary: 'Remove assignees from an issue',
      method: 'DELETE',
      path: '/repos/:owner/:repo/issues/:issue_number/assignees',
      responses: { 200: 'issue' },
      access: WRITE,
      body: ASSIGNEES_BODY,
      handler: (request, reply, grant) => {
        requireNames(request.body.assignees);
        const record = findIssue(grant.repository, request.params.issue_number);
        if (applies(grant.push) && !faults.on('assignees.remove-ignored'))
          issues.removeAssignees(record, knownLogins(request.body.assignees));
        if (faults.on('assignees.remove-204')) return reply.code(204).send();
        return issueOf(request, record);
      },
    }),
  ];
  return { name: 'assignees', endpoints, reset: () => issues.reset(), state: () => issues.snapshot() };
};

export const assignees = { name: 'assignees', create } satisfies AreaModule;
