// Organization variables for workflows, endpoints 10–18 of spec document 2: name, value,
// visibility (all, private, selected) and, for selected, the repositories that see them.
//
// Decisions where the spec is silent (README "Organization variables"), with the built-in
// variation that makes each otherwise (suites/variants/variables.yaml):
// - Names: letters, digits and underscores, not starting with a digit, at most 255
//   characters; stored and shown upper-case, matched in any case. A value is at most
//   48 KiB (UTF-8). Anything else is 422 (`invalid`). ("name string" says no more:
//   variables.names-any-string takes any name of 1 to 255 characters, variables.names-as-sent
//   keeps names as sent and matches them exactly.)
// - Creating a variable whose name exists, or renaming onto one, is 409 (as real hosts;
//   variables.duplicate-name-overwrites replaces the one there).
// - `selected_repository_ids` with a visibility other than selected is 422 on POST (the spec
//   refuses it there: "allowed only when visibility is selected"; variables.selected-ids-400
//   answers 400, the other status a stranger may pick); the reference holds PATCH to the same
//   rule (variables.update-ids-ignored takes them there and ignores them). An id that is not
//   a repository of the organization is 422 (variables.unknown-repositories-accepted ignores
//   it). Leaving selected (PATCH) empties the set.
// - 17 and 18 answer 404 for a repository id that is not the organization's; adding a
//   repository already there or removing one that is not is 204 (nothing to do).
// - Lists are by name; 10 shows 10 a page by default (at most 30: spec 2 leaves the default
//   "not shown", variables.list-default-per-page-30 takes spec 1's general 30), 15 by id,
//   30 a page (at most 100; variables.repositories-by-name lists them by name).
// - Organization owners only, with admin:org (classic, OAuth) or the Variables organization
//   permission (organization_actions_variables). The spec says "callers need collaborator
//   access to a repository": variables.collaborators-manage lets in any caller with
//   collaborator access to one of the organization's repositories. 17 and 18 on a private
//   repository also need the repo scope (a body naming private repositories does not: the
//   spec names it per repository); without it they are 403 (variables.private-repository-hidden
//   answers 404, as for a repository the token cannot see). Metadata (read), also listed for
//   17 and 18, comes with any permission (the core variation auth.metadata-explicit asks it
//   granted).
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { AreaModule } from '../../area.js';
import type { Caller } from '../../auth/credentials.js';
import { onOrganization, read, write } from '../../auth/endpoint-access.js';
import { defineEndpoint } from '../../endpoint.js';
import { ApiError, notFound, validationFailed } from '../../errors.js';
import { pageOf } from '../../pagination.js';
import { pathId } from '../../query.js';
import { representerFor } from '../../representations.js';
import { CONFIG_NAME, CONFIG_NAME_RULE } from '../../config-names.js';
import type { Directory } from '../../directory.js';
import type { WorldOrganization } from '../../world-model.js';
import { VARIABLE_VISIBILITIES } from '../../world-schema.js';
import { repositorySummary } from './repository-summary.js';
import { expandVariables } from '../../world-expansion.js';

const ADMIN_ORG = { public: ['admin:org'], private: ['admin:org'] } as const;
/** Owners; with variables.collaborators-manage, whoever collaborates on one of the organization's repositories. */
const OWNER = {
  anonymous: false,
  role: 'organization-owner',
  scopes: ADMIN_ORG,
  variations: [{ variant: 'variables.collaborators-manage', role: 'organization-collaborator' }],
} as const;
const VARIABLES_READ = onOrganization({ ...OWNER, permissions: [read('organization_actions_variables')] });
const VARIABLES_WRITE = onOrganization({ ...OWNER, permissions: [write('organization_actions_variables')] });

const MAX_VALUE_BYTES = 48 * 1024;
const Visibility = Type.Enum(VARIABLE_VISIBILITIES);
const RepositoryIds = Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000 });

const CREATE_BODY = Type.Object(
  { name: Type.String(), value: Type.String(), visibility: Visibility, selected_repository_ids: Type.Optional(RepositoryIds) },
  { title: 'Variable', additionalProperties: false },
);
const UPDATE_BODY = Type.Object(
  {
    name: Type.Optional(Type.String()),
    value: Type.Optional(Type.String()),
    visibility: Type.Optional(Visibility),
    selected_repository_ids: Type.Optional(RepositoryIds),
  },
  { title: 'Variable', additionalProperties: false },
);
const SET_REPOSITORIES_BODY = Type.Object({ selected_repository_ids: RepositoryIds }, { title: 'Variable', additionalProperties: false });

interface Variable {
  name: string;
  value: string;
  visibility: (typeof VARIABLE_VISIBILITIES)[number];
  /** Repository ids, for visibility selected. */
  selected: Set<number>;
  createdAt: number;
  updatedAt: number;
}

const PREFIX = '/orgs/:org/actions/variables';

const create: AreaModule['create'] = ({ directory, clock, faults, variants }) => {
  /** Variables per organization (lower-case login), by upper-case name. */
  let variables = new Map<string, Map<string, Variable>>();
  const load = () => {
    variables = new Map(directory.world.organizations.map((org) => [org.login.toLowerCase(), worldVariables(directory, org)]));
  };
  load();

  const variablesOf = (organization: WorldOrganization) => variables.get(organization.login.toLowerCase())!;
  /** A name as stored and shown, and so as looked up: upper-case, or as sent (variables.names-as-sent). */
  const keyOf = (name: string) => (variants.on('variables.names-as-sent') ? name : name.toUpperCase());
  const find = (organization: WorldOrganization, name: string) => {
    const variable = variablesOf(organization).get(keyOf(name));
    if (variable === undefined) throw notFound();
    return variable;
  };
  /** 409 unless the variable's visibility is selected (15–18). */
  const requireSelected = (variable: Variable) => {
    if (variable.visibility !== 'selected' && !faults.on('variables.repositories-any-visibility'))
      throw new ApiError(409, 'CONFLICT', "The variable's visibility is not selected");
  };
  const repositoriesOf = (organization: WorldOrganization) => directory.repositoriesOwnedBy(organization.login);

  /** The repositories the ids name; 422 unless each is the organization's (variables.unknown-repositories-accepted drops the others). */
  const repositoryIds = (organization: WorldOrganization, ids: readonly number[]): Set<number> => {
    const known = new Set(repositoriesOf(organization).map((repository) => repository.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0 && !variants.on('variables.unknown-repositories-accepted'))
      throw invalid('selected_repository_ids', `not repositories of ${organization.login}: ${unknown.join(', ')}`);
    return new Set(ids.filter((id) => known.has(id)));
  };
  /** 422 unless visibility is selected: "allowed only when visibility is selected" (spec 2, endpoint 11). */
  const requireSelectedForIds = (visibility: string) => {
    if (visibility === 'selected' || faults.on('variables.selected-ids-any-visibility')) return;
    if (variants.on('variables.selected-ids-400'))
      throw new ApiError(400, 'BAD_REQUEST', 'selected_repository_ids is allowed only when visibility is selected');
    throw invalid('selected_repository_ids', 'only with visibility selected');
  };
  const checkName = (name: string) => {
    const valid = variants.on('variables.names-any-string') ? name.length > 0 && name.length <= 255 : CONFIG_NAME.test(name);
    if (!valid) throw invalid('name', variants.on('variables.names-any-string') ? '1 to 255 characters' : CONFIG_NAME_RULE);
  };
  const checkValue = (value: string) => {
    if (Buffer.byteLength(value) > MAX_VALUE_BYTES) throw invalid('value', 'at most 48 KiB');
  };
  /** 409 when the name is taken; with variables.duplicate-name-overwrites the variable there makes way. */
  const requireFree = (organization: WorldOrganization, name: string) => {
    if (!variablesOf(organization).has(keyOf(name))) return;
    if (!variants.on('variables.duplicate-name-overwrites'))
      throw new ApiError(409, 'CONFLICT', `A variable named ${keyOf(name)} already exists`);
    variablesOf(organization).delete(keyOf(name));
  };

  function represent(request: FastifyRequest, organization: WorldOrganization, variable: Variable) {
    const representer = representerFor(request, directory);
    return {
      name: variable.name,
      value: variable.value,
      created_at: representer.timestamp(variable.createdAt),
      updated_at: representer.timestamp(variable.updatedAt),
      visibility: variable.visibility,
      ...(variable.visibility === 'selected' && {
        selected_repositories_url: `${representer.origin}/orgs/${organization.login}/actions/variables/${variable.name}/repositories`,
      }),
    };
  }

  /**
   * The variable the path names (404), selected (409 otherwise), and the organization's
   * repository of the path id (404; with variables.private-repository-hidden also a private
   * one the caller's classic or OAuth token, without repo, cannot reach).
   */
  const selection = (request: FastifyRequest, organization: WorldOrganization, params: { name: string; repository_id: string }) => {
    const variable = find(organization, params.name);
    requireSelected(variable);
    const id = pathId(params.repository_id);
    const repository = repositoriesOf(organization).find((candidate) => candidate.id === id);
    if (repository === undefined) throw notFound();
    if (variants.on('variables.private-repository-hidden') && repository.private && !reachesPrivate(request.caller)) throw notFound();
    return { variable, repository };
  };

  // A private repository in the path needs repo besides admin:org: 403 without it, or, with
  // variables.private-repository-hidden, the repository is not found (selection above).
  // Fine-grained tokens "also" need Metadata (read): held with any permission, or only when
  // granted with the core variation auth.metadata-explicit (auth/authorize.ts).
  const REPOSITORY_WRITE = onOrganization({
    ...OWNER,
    permissions: [write('organization_actions_variables')],
    alsoPermissions: [read('metadata')],
    further: {
      what: 'a private repository',
      applies: (params) =>
        !variants.on('variables.private-repository-hidden') && privateRepository(directory, params.org, params.repository_id),
      scopes: ['repo'],
      permissions: [write('organization_actions_variables')],
    },
  });

  const endpoints = [
    defineEndpoint({
      spec: { document: 2, number: 10 },
      id: 'variables.list',
      summary: 'List organization variables',
      method: 'GET',
      path: PREFIX,
      responses: { 200: 'variable-list' },
      access: VARIABLES_READ,
      handler: (request, reply, { organization }) => {
        const all = [...variablesOf(organization).values()].sort((a, b) => a.name.localeCompare(b.name));
        const maxPerPage = faults.on('variables.list-per-page-100') ? 100 : 30;
        const defaultPerPage = variants.on('variables.list-default-per-page-30') ? 30 : 10;
        const page = pageOf(request, reply, all, { defaultPerPage, maxPerPage }).map((v) => represent(request, organization, v));
        return faults.on('variables.list-bare-array') ? page : { total_count: all.length, variables: page };
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 11 },
      id: 'variables.create',
      summary: 'Create an organization variable',
      method: 'POST',
      path: PREFIX,
      responses: { 201: 'empty' },
      access: VARIABLES_WRITE,
      body: CREATE_BODY,
      handler: (request, reply, { organization }) => {
        const { name, value, visibility, selected_repository_ids: ids } = request.body;
        checkName(name);
        checkValue(value);
        if (ids !== undefined) requireSelectedForIds(visibility);
        const selected = repositoryIds(organization, ids ?? []);
        requireFree(organization, name);
        const now = clock.now();
        variablesOf(organization).set(keyOf(name), {
          name: keyOf(name),
          value,
          visibility,
          selected,
          createdAt: now,
          updatedAt: now,
        });
        return reply.code(faults.on('variables.create-200') ? 200 : 201).send();
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 12 },
      id: 'variables.get',
      summary: 'Get an organization variable',
      method: 'GET',
      path: `${PREFIX}/:name`,
      responses: { 200: 'variable' },
      access: VARIABLES_READ,
      handler: (request, _reply, { organization }) => {
        const variable = represent(request, organization, find(organization, request.params.name));
        // undefined leaves the field out of the JSON.
        return faults.on('variables.get-without-visibility') ? { ...variable, visibility: undefined } : variable;
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 13 },
      id: 'variables.update',
      summary: 'Update an organization variable',
      method: 'PATCH',
      path: `${PREFIX}/:name`,
      responses: { 204: 'empty' },
      access: VARIABLES_WRITE,
      body: UPDATE_BODY,
      handler: (request, reply, { organization }) => {
        const variable = find(organization, request.params.name);
        const { name, value, visibility = variable.visibility, selected_repository_ids: ids } = request.body;
        if (name !== undefined) checkName(name);
        if (value !== undefined) checkValue(value);
        // The spec's rule is written for POST; the reference holds PATCH to it too, unless
        // variables.update-ids-ignored takes the ids and ignores them (the set stays empty).
        if (ids !== undefined && !variants.on('variables.update-ids-ignored')) requireSelectedForIds(visibility);
        const renamed = name !== undefined && keyOf(name) !== keyOf(variable.name) && !faults.on('variables.rename-ignored');
        const selected = ids === undefined ? variable.selected : repositoryIds(organization, ids);
        if (renamed) requireFree(organization, name);
        // Checked: now change.
        if (renamed) {
          variablesOf(organization).delete(keyOf(variable.name));
          variable.name = keyOf(name);
          variablesOf(organization).set(keyOf(name), variable);
        }
        if (value !== undefined) variable.value = value;
        variable.visibility = visibility;
        variable.selected = visibility === 'selected' ? selected : new Set();
        variable.updatedAt = clock.now();
        return reply.code(204).send();
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 14 },
      id: 'variables.delete',
      summary: 'Delete an organization variable',
      method: 'DELETE',
      path: `${PREFIX}/:name`,
      responses: { 204: 'empty' },
      access: VARIABLES_WRITE,
      handler: (request, reply, { organization }) => {
        const variable = find(organization, request.params.name);
        if (!faults.on('variables.delete-ignored')) variablesOf(organization).delete(keyOf(variable.name));
        return reply.code(204).send();
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 15 },
      id: 'variables.repositories',
      summary: 'List selected repositories for an organization variable',
      method: 'GET',
      path: `${PREFIX}/:name/repositories`,
      responses: { 200: 'variable-repositories' },
      access: VARIABLES_READ,
      handler: (request, reply, { organization }) => {
        const variable = find(organization, request.params.name);
        requireSelected(variable);
        const byName = variants.on('variables.repositories-by-name');
        const selected = repositoriesOf(organization)
          .filter((repository) => variable.selected.has(repository.id))
          .sort((a, b) => (byName ? a.name.localeCompare(b.name) : a.id - b.id));
        const representer = representerFor(request, directory);
        const page = pageOf(request, reply, selected).map((repository) => repositorySummary(representer, repository));
        return faults.on('variables.list-bare-array') ? page : { total_count: selected.length, repositories: page };
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 16 },
      id: 'variables.set-repositories',
      summary: 'Set selected repositories for an organization variable',
      method: 'PUT',
      path: `${PREFIX}/:name/repositories`,
      responses: { 204: 'empty' },
      access: VARIABLES_WRITE,
      body: SET_REPOSITORIES_BODY,
      handler: (request, reply, { organization }) => {
        const variable = find(organization, request.params.name);
        requireSelected(variable);
        const ids = repositoryIds(organization, request.body.selected_repository_ids);
        variable.selected = faults.on('variables.put-repositories-appends') ? new Set([...variable.selected, ...ids]) : ids;
        variable.updatedAt = clock.now();
        return reply.code(204).send();
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 17 },
      id: 'variables.add-repository',
      summary: 'Add selected repository to an organization variable',
      method: 'PUT',
      path: `${PREFIX}/:name/repositories/:repository_id`,
      responses: { 204: 'empty' },
      access: REPOSITORY_WRITE,
      handler: (request, reply, { organization }) => {
        const { variable, repository } = selection(request, organization, request.params);
        if (!faults.on('variables.add-repository-ignored')) variable.selected.add(repository.id);
        return reply.code(204).send();
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 18 },
      id: 'variables.remove-repository',
      summary: 'Remove selected repository from an organization variable',
      method: 'DELETE',
      path: `${PREFIX}/:name/repositories/:repository_id`,
      responses: { 204: 'empty' },
      access: REPOSITORY_WRITE,
      handler: (request, reply, { organization }) => {
        const { variable, repository } = selection(request, organization, request.params);
        if (!faults.on('variables.remove-repository-ignored')) variable.selected.delete(repository.id);
        return reply.code(204).send();
      },
    }),
  ];

  return { name: 'variables', endpoints, reset: load, state: () => variables };
};

const invalid = (field: string, message: string) => validationFailed([{ resource: 'Variable', field, code: 'custom', message }]);

/** Whether a caller's token reaches private repositories: a classic or OAuth token needs repo for that. */
function reachesPrivate(caller: Caller | null): boolean {
  return caller === null || !(caller.kind === 'classic' || caller.kind === 'oauth') || caller.scopes.has('repo');
}

/** Whether the path's repository id names a private repository of the organization (17, 18 then need repo). */
function privateRepository(directory: Directory, org: string | undefined, idText: string | undefined): boolean {
  const id = pathId(idText ?? '');
  return directory.repositoriesOwnedBy(org ?? '').some((repository) => repository.id === id && repository.private);
}

/** The world's variables of an organization, series expanded, by upper-case name. */
function worldVariables(directory: Directory, organization: WorldOrganization): Map<string, Variable> {
  const repositories = directory.repositoriesOwnedBy(organization.login);
  const idOf = (name: string) => repositories.find((repository) => repository.name.toLowerCase() === name.toLowerCase())!.id;
  const variables = expandVariables(organization).map((entry): Variable => {
    const created = Date.parse(entry.created_at);
    return {
      name: entry.name,
      value: entry.value,
      visibility: entry.visibility,
      selected: new Set((entry.selected_repositories ?? []).map(idOf)),
      createdAt: created,
      updatedAt: created,
    };
  });
  return new Map(variables.map((variable) => [variable.name, variable]));
}

export const variables = { name: 'variables', create } satisfies AreaModule;
