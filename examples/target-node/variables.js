// Organization variables (spec 2, endpoints 10 to 18).
import { requireGrant, requireUser } from './auth.js';
import { HttpError, pageParams, paginate, readJsonObject, sendEmpty, sendJson, validationError } from './http-util.js';
import { repoSummary } from './representations.js';

const VISIBILITIES = ['all', 'private', 'selected'];
const READ = { scopes: ['admin:org'], permission: ['organization_actions_variables', 'read'] };
const WRITE = { scopes: ['admin:org'], permission: ['organization_actions_variables', 'write'] };
const WRITE_ON_REPO = { ...WRITE, alsoPermission: ['metadata', 'read'] };

/** The organization of the path, once the caller may act on its variables with `grant`. */
function orgFor(ctx, grant) {
  const who = requireUser(ctx);
  const org = ctx.state.orgs.get(ctx.params.org.toLowerCase());
  if (!org) throw new HttpError(404, 'Not Found');
  requireGrant(ctx, grant);
  // "callers need collaborator access to a repository": an owner, or a user with access to one of its repositories.
  const hasRepo = [...ctx.state.repos.values()].some((r) => r.ownerId === org.id && r.collaborators.has(who.id));
  if (!org.owners.has(who.id) && !hasRepo) throw new HttpError(403, 'Must have collaborator access to a repository of the organization');
  return org;
}

function variablesOf(state, org) {
  if (!state.variables.has(org.id)) state.variables.set(org.id, new Map());
  return state.variables.get(org.id);
}

function variableFor(ctx, org) {
  const v = variablesOf(ctx.state, org).get(ctx.params.name.toLowerCase());
  if (!v) throw new HttpError(404, 'Not Found');
  return v;
}

function variableJson(req, org, v) {
  const out = { name: v.name, value: v.value, created_at: v.created_at, updated_at: v.updated_at, visibility: v.visibility };
  if (v.visibility === 'selected') {
    out.selected_repositories_url = `${req.baseUrl}/orgs/${org.login}/actions/variables/${encodeURIComponent(v.name)}/repositories`;
  }
  return out;
}

// --- validation -------------------------------------------------------------------------

function checkString(body, field, required) {
  const v = body[field];
  if (v === undefined) {
    if (required) throw validationError(field, 'missing_field', `${field} is required`);
    return;
  }
  if (typeof v !== 'string') throw validationError(field, 'invalid', `${field} must be a string`);
}

function checkName(body, required) {
  checkString(body, 'name', required);
  if (body.name !== undefined && !/^[^\s/\\?#%]{1,255}$/.test(body.name)) {
    throw validationError('name', 'invalid', 'name must be 1 to 255 characters without spaces or slashes');
  }
}

function checkVisibility(body, required) {
  checkString(body, 'visibility', required);
  if (body.visibility !== undefined && !VISIBILITIES.includes(body.visibility)) {
    throw validationError('visibility', 'invalid', `visibility must be one of ${VISIBILITIES.join(', ')}`);
  }
}

function checkIdsShape(body, required) {
  const ids = body.selected_repository_ids;
  if (ids === undefined) {
    if (required) throw validationError('selected_repository_ids', 'missing_field', 'selected_repository_ids is required');
    return;
  }
  if (!Array.isArray(ids) || !ids.every((id) => Number.isSafeInteger(id))) {
    throw validationError('selected_repository_ids', 'invalid', 'selected_repository_ids must be an array of integers');
  }
}

/** The ids as a sorted set, once each names a repository of the organization. */
function repoIdSet(state, org, ids) {
  const unknown = ids.find((id) => state.repos.get(id)?.ownerId !== org.id);
  if (unknown !== undefined) throw validationError('selected_repository_ids', 'invalid', `no repository ${unknown} in ${org.login}`);
  return [...new Set(ids)].sort((a, b) => a - b);
}

function requireSelected(v) {
  if (v.visibility !== 'selected') throw new HttpError(409, "The variable's visibility is not selected");
}

// --- endpoints --------------------------------------------------------------------------

async function list(ctx) {
  const org = orgFor(ctx, READ);
  const all = [...variablesOf(ctx.state, org).values()].sort((a, b) => a.name.localeCompare(b.name));
  const { slice, headers } = paginate(ctx.req, ctx.url, all, pageParams(ctx.url, 30));
  sendJson(ctx.req, ctx.res, 200, { total_count: all.length, variables: slice.map((v) => variableJson(ctx.req, org, v)) }, headers);
}

async function create(ctx) {
  const org = orgFor(ctx, WRITE);
  const body = await readJsonObject(ctx.req);
  checkName(body, true);
  checkString(body, 'value', true);
  checkVisibility(body, true);
  checkIdsShape(body, false);
  if (body.selected_repository_ids !== undefined && body.visibility !== 'selected') {
    throw validationError('selected_repository_ids', 'invalid', 'selected_repository_ids is allowed only when visibility is selected');
  }
  const vars = variablesOf(ctx.state, org);
  if (vars.has(body.name.toLowerCase())) throw new HttpError(409, `Variable ${body.name} already exists`);
  const selected = body.visibility === 'selected' ? repoIdSet(ctx.state, org, body.selected_repository_ids ?? []) : [];
  const now = ctx.now();
  const v = { name: body.name, value: body.value, visibility: body.visibility, selected, created_at: now, updated_at: now };
  vars.set(v.name.toLowerCase(), v);
  sendJson(ctx.req, ctx.res, 201, {}, { Location: `${ctx.req.baseUrl}/orgs/${org.login}/actions/variables/${encodeURIComponent(v.name)}` });
}

async function get(ctx) {
  const org = orgFor(ctx, READ);
  sendJson(ctx.req, ctx.res, 200, variableJson(ctx.req, org, variableFor(ctx, org)));
}

async function update(ctx) {
  const org = orgFor(ctx, WRITE);
  const v = variableFor(ctx, org);
  const body = await readJsonObject(ctx.req);
  checkName(body, false);
  checkString(body, 'value', false);
  checkVisibility(body, false);
  checkIdsShape(body, false);
  const visibility = body.visibility ?? v.visibility;
  if (body.selected_repository_ids !== undefined && visibility !== 'selected') {
    throw validationError('selected_repository_ids', 'invalid', 'selected_repository_ids is allowed only when visibility is selected');
  }
  const vars = variablesOf(ctx.state, org);
  const renamed = body.name !== undefined && body.name.toLowerCase() !== v.name.toLowerCase();
  if (renamed && vars.has(body.name.toLowerCase())) throw new HttpError(409, `Variable ${body.name} already exists`);
  let selected = visibility === 'selected' ? v.selected : [];
  if (body.selected_repository_ids !== undefined) selected = repoIdSet(ctx.state, org, body.selected_repository_ids);
  vars.delete(v.name.toLowerCase());
  Object.assign(v, { name: body.name ?? v.name, value: body.value ?? v.value, visibility, selected, updated_at: ctx.now() });
  vars.set(v.name.toLowerCase(), v);
  sendEmpty(ctx.req, ctx.res);
}

async function remove(ctx) {
  const org = orgFor(ctx, WRITE);
  const v = variableFor(ctx, org);
  variablesOf(ctx.state, org).delete(v.name.toLowerCase());
  sendEmpty(ctx.req, ctx.res);
}

async function listRepos(ctx) {
  const org = orgFor(ctx, READ);
  const v = variableFor(ctx, org);
  const paging = pageParams(ctx.url, 100);
  requireSelected(v);
  const repos = v.selected.map((id) => ctx.state.repos.get(id)).filter(Boolean);
  const { slice, headers } = paginate(ctx.req, ctx.url, repos, paging);
  const body = { total_count: repos.length, repositories: slice.map((r) => repoSummary(ctx.state, ctx.req.baseUrl, r)) };
  sendJson(ctx.req, ctx.res, 200, body, headers);
}

/** The repositories a request names must be readable with `repo` when private (classic tokens). */
function requirePrivateScope(ctx, ids) {
  if (ids.some((id) => ctx.state.repos.get(id)?.private)) requireGrant(ctx, { scopes: ['repo'], permission: ['metadata', 'read'] });
}

async function setRepos(ctx) {
  const org = orgFor(ctx, WRITE);
  const v = variableFor(ctx, org);
  const body = await readJsonObject(ctx.req);
  checkIdsShape(body, true);
  requireSelected(v);
  const selected = repoIdSet(ctx.state, org, body.selected_repository_ids);
  requirePrivateScope(ctx, selected);
  Object.assign(v, { selected, updated_at: ctx.now() });
  sendEmpty(ctx.req, ctx.res);
}

function repoOfPath(ctx, org) {
  const raw = ctx.params.repository_id;
  const repo = /^\d+$/.test(raw) ? ctx.state.repos.get(Number(raw)) : undefined;
  if (!repo || repo.ownerId !== org.id) throw new HttpError(404, 'Not Found');
  requirePrivateScope(ctx, [repo.id]);
  return repo;
}

async function addRepo(ctx) {
  const org = orgFor(ctx, WRITE_ON_REPO);
  const v = variableFor(ctx, org);
  const repo = repoOfPath(ctx, org);
  requireSelected(v);
  if (!v.selected.includes(repo.id)) Object.assign(v, { selected: [...v.selected, repo.id].sort((a, b) => a - b), updated_at: ctx.now() });
  sendEmpty(ctx.req, ctx.res);
}

async function removeRepo(ctx) {
  const org = orgFor(ctx, WRITE_ON_REPO);
  const v = variableFor(ctx, org);
  const repo = repoOfPath(ctx, org);
  requireSelected(v);
  if (v.selected.includes(repo.id)) Object.assign(v, { selected: v.selected.filter((id) => id !== repo.id), updated_at: ctx.now() });
  sendEmpty(ctx.req, ctx.res);
}

const V = '/orgs/:org/actions/variables';
export const routes = [
  ['GET', V, list],
  ['POST', V, create],
  ['GET', `${V}/:name`, get],
  ['PATCH', `${V}/:name`, update],
  ['DELETE', `${V}/:name`, remove],
  ['GET', `${V}/:name/repositories`, listRepos],
  ['PUT', `${V}/:name/repositories`, setRepos],
  ['PUT', `${V}/:name/repositories/:repository_id`, addRepo],
  ['DELETE', `${V}/:name/repositories/:repository_id`, removeRepo],
];
