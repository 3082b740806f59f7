// Organization variables for workflows, endpoints 10–18 of spec document 2: name, value,
// visibility (all, private, selected) and, for selected, the repositories that see them.
//
// Decisions where the spec is silent (README "Organization variables"):
// - Names: letters, digits and underscores, not starting with a digit, at most 255
//   characters; stored and shown upper-case, matched in any case. A value is at most
//   48 KiB (UTF-8). Anything else is 422 (`invalid`).
// - Creating a variable whose name exists, or renaming onto one, is 409 (as real hosts).
// - `selected_repository_ids` with a visibility other than selected is 422; so is an id
//   that is not a repository of the organization. Leaving selected (PATCH) empties the set.
// - 17 and 18 answer 404 for a repository id that is not the organization's; adding a
//   repository already there or removing one that is not is 204 (nothing to do).
// - Lists are by name; 10 shows 10 a page by default (at most 30), 15 30 (at most 100).
// - Organization owners only, with admin:org (classic, OAuth) or the Variables organization
//   permission (organization_actions_variables); 17 and 18 on a private repository also
//   need the repo scope (a body naming private repositories does not: the spec names it
//   per repository). Metadata (read), also listed for 17 and 18, comes with any permission.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { AreaModule } from '../../area.js';
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

const ADMIN_ORG = { public: ['admin:org'], private: ['admin:org'] } as const;
const OWNER = { anonymous: false, role: 'organization-owner', scopes: ADMIN_ORG } as const;
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

/** Built-in faults of this area (suites/faults/variables.yaml says what each does and breaks). */
const VARIABLE_FAULTS = [
  'variables.create-200',
  'variables.duplicate-overwrites',
  'variables.list-per-page-100',
  'variables.selected-ids-any-visibility',
  'variables.unknown-repository-accepted',
  'variables.rename-ignored',
  'variables.delete-ignored',
  'variables.repositories-any-visibility',
  'variables.put-repositories-appends',
  'variables.add-repository-ignored',
  'variables.remove-repository-ignored',
  'variables.name-case-sensitive',
  'variables.invalid-name-accepted',
  'variables.list-bare-array',
  'variables.get-without-visibility',
] as const;

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

const create: AreaModule<(typeof VARIABLE_FAULTS)[number]>['create'] = ({ directory, clock, faults }) => {
  /** Variables per organization (lower-case login), by upper-case name. */
  let variables = new Map<string, Map<string, Variable>>();
  const load = () => {
    variables = new Map(directory.world.organizations.map((org) => [org.login.toLowerCase(), worldVariables(directory, org)]));
  };
  load();

  const variablesOf = (organization: WorldOrganization) => variables.get(organization.login.toLowerCase())!;
  const keyOf = (name: string) => (faults.on('variables.name-case-sensitive') ? name : name.toUpperCase());
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

  /** The repositories the ids name; 422 unless each is the organization's. */
  const repositoryIds = (organization: WorldOrganization, ids: readonly number[]): Set<number> => {
    const known = new Set(repositoriesOf(organization).map((repository) => repository.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0 && !faults.on('variables.unknown-repository-accepted'))
      throw invalid('selected_repository_ids', `not repositories of ${organization.login}: ${unknown.join(', ')}`);
    return new Set(ids);
  };
  const checkName = (name: string) => {
    if (!CONFIG_NAME.test(name) && !faults.on('variables.invalid-name-accepted')) throw invalid('name', CONFIG_NAME_RULE);
  };
  const checkValue = (value: string) => {
    if (Buffer.byteLength(value) > MAX_VALUE_BYTES) throw invalid('value', 'at most 48 KiB');
  };
  const requireFree = (organization: WorldOrganization, name: string) => {
    if (variablesOf(organization).has(keyOf(name)) && !faults.on('variables.duplicate-overwrites'))
      throw new ApiError(409, 'CONFLICT', `A variable named ${name.toUpperCase()} already exists`);
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

  /** The variable the path names (404), selected (409 otherwise), and the organization's repository of the path id (404). */
  const selection = (organization: WorldOrganization, params: { name: string; repository_id: string }) => {
    const variable = find(organization, params.name);
    requireSelected(variable);
    const id = pathId(params.repository_id);
    const repository = repositoriesOf(organization).find((candidate) => candidate.id === id);
    if (repository === undefined) throw notFound();
    return { variable, repository };
  };

  const REPOSITORY_WRITE = onOrganization({
    ...OWNER,
    permissions: [write('organization_actions_variables')],
    further: {
      what: 'a private repository',
      applies: (params) => privateRepository(directory, params.org, params.repository_id),
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
        const page = pageOf(request, reply, all, { defaultPerPage: 10, maxPerPage }).map((v) => represent(request, organization, v));
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
        if (ids !== undefined && visibility !== 'selected' && !faults.on('variables.selected-ids-any-visibility'))
          throw invalid('selected_repository_ids', 'only with visibility selected');
        requireFree(organization, name);
        const selected = repositoryIds(organization, ids ?? []);
        const now = clock.now();
        variablesOf(organization).set(keyOf(name), {
          name: name.toUpperCase(),
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
        if (ids !== undefined && visibility !== 'selected' && !faults.on('variables.selected-ids-any-visibility'))
          throw invalid('selected_repository_ids', 'only with visibility selected');
        const renamed = name !== undefined && keyOf(name) !== keyOf(variable.name) && !faults.on('variables.rename-ignored');
        if (renamed) requireFree(organization, name);
        const selected = ids === undefined ? variable.selected : repositoryIds(organization, ids);
        // Checked: now change.
        if (renamed) {
          variablesOf(organization).delete(keyOf(variable.name));
          variable.name = name.toUpperCase();
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
        const selected = repositoriesOf(organization)
          .filter((repository) => variable.selected.has(repository.id))
          .sort((a, b) => a.id - b.id);
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
        const { variable, repository } = selection(organization, request.params);
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
        const { variable, repository } = selection(organization, request.params);
        if (!faults.on('variables.remove-repository-ignored')) variable.selected.delete(repository.id);
        return reply.code(204).send();
      },
    }),
  ];

  return { name: 'variables', endpoints, reset: load, state: () => variables };
};

const invalid = (field: string, message: string) => validationFailed([{ resource: 'Variable', field, code: 'custom', message }]);

/** Whether the path's repository id names a private repository of the organization (17, 18 then need repo). */
function privateRepository(directory: Directory, org: string | undefined, idText: string | undefined): boolean {
  const id = pathId(idText ?? '');
  return directory.repositoriesOwnedBy(org ?? '').some((repository) => repository.id === id && repository.private);
}

/** The world's variables of an organization, series expanded, by upper-case name. */
function worldVariables(directory: Directory, organization: WorldOrganization): Map<string, Variable> {
  const repositories = directory.repositoriesOwnedBy(organization.login);
  const idOf = (name: string) => repositories.find((repository) => repository.name.toLowerCase() === name.toLowerCase())!.id;
  const variables = (organization.variables ?? []).flatMap((entry): Variable[] => {
    if ('series' in entry) {
      const { count, name, value, created_at } = entry.series;
      return Array.from({ length: count }, (_, i) => ({
        name: name.replace('{n}', String(i + 1).padStart(3, '0')).toUpperCase(),
        value,
        visibility: 'all',
        selected: new Set(),
        createdAt: Date.parse(created_at),
        updatedAt: Date.parse(created_at),
      }));
    }
    const created = Date.parse(entry.created_at);
    const selected = new Set((entry.selected_repositories ?? []).map(idOf));
    return [
      {
        name: entry.name.toUpperCase(),
        value: entry.value,
        visibility: entry.visibility,
        selected,
        createdAt: created,
        updatedAt: created,
      },
    ];
  });
  return new Map(variables.map((variable) => [variable.name, variable]));
}

export const variables = { name: 'variables', faults: VARIABLE_FAULTS, create } satisfies AreaModule;
