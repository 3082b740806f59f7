// Custom deployment protection rules, endpoints 1–5 of spec document 1: per environment of
// a repository (the world's `environments`), the apps enabled as rules, out of the world's
// apps available for them.
//
// Decisions where the spec is silent (README "Deployment protection rules"), each with the
// variation that makes it otherwise where one exists (suites/variants/deployment-protection.yaml):
// - Environment names match case-insensitively (as repository names do); a name with a
//   slash is reached URL-encoded (`release%2Fv1`), as the spec asks; a raw slash is another
//   path (404), which the suites do not judge (the spec tells clients only).
// - An unknown environment is 404 on every endpoint (the convention for an unknown resource).
// - Enabling an app that is unknown or not available for protection rules is refused with
//   422 (`integration_id`, `custom`); protection.unavailable-app-404 answers 404 instead.
//   Enabling an app already enabled on the environment is 422 (`already_exists`);
//   protection.duplicate-rules-accepted enables it again, a second rule (201).
// - The apps listing (3) lists every available app, enabled or not, by id;
//   protection.apps-exclude-enabled leaves out those already enabled on the environment.
//   per_page defaults to 30 (the spec: "not shown") and is at most 100;
//   protection.apps-default-per-page-100 defaults to 100.
// - Reading rules with a fine-grained token needs Actions (read), on a public repository
//   too; protection.public-read-without-actions lets any token read what anonymous callers
//   may ("public data without authentication"), a private repository still needing it.
// - An authenticated caller without admin rights or Administration gets 403 on 2, 3 and 5;
//   protection.denied-as-404 answers 404 instead.
// - Rule ids: the world's rules are numbered from 3001 in the order the world lists them;
//   new rules take the next; a reset returns to the world's.
// - node_id: Base64 of `DPR_<id>` for a rule and `A_<id>` for an app; integration_url is
//   ORIGIN/apps/SLUG.
import { Type } from 'typebox';
import type { AreaModule } from '../../area.js';
import { actionsRead, onRepository, read, REPOSITORY_READ_SCOPES, REPOSITORY_WRITE_SCOPES, write } from '../../auth/endpoint-access.js';
import { fullName } from '../../directory.js';
import { defineEndpoint } from '../../endpoint.js';
import { ApiError, notFound, validationFailed } from '../../errors.js';
import { pageOf } from '../../pagination.js';
import { pathId } from '../../query.js';
import { representerFor } from '../../representations.js';
import type { WorldApp, WorldRepository } from '../../world-model.js';

const RULES_READ = actionsRead('protection.public-read-without-actions');
const DENIED_AS_404 = { variant: 'protection.denied-as-404', forbiddenAs: 404 } as const;
const RULES_ADMIN_READ = onRepository({
  anonymous: false,
  scopes: REPOSITORY_READ_SCOPES,
  permissions: [read('administration')],
  role: 'admin',
  variations: [DENIED_AS_404],
});
const RULES_ADMIN_WRITE = onRepository({
  anonymous: false,
  scopes: REPOSITORY_WRITE_SCOPES,
  permissions: [write('administration')],
  role: 'admin',
  variations: [DENIED_AS_404],
});

const ENABLE_BODY = Type.Object(
  { integration_id: Type.Integer({ minimum: 1 }) },
  { title: 'DeploymentProtectionRule', additionalProperties: false },
);

const FIRST_RULE_ID = 3001;

interface Rule {
  id: number;
  app: WorldApp;
}

const PREFIX = '/repos/:owner/:repo/environments/:environment_name/deployment_protection_rules';

const create: AreaModule['create'] = ({ directory, faults, variants }) => {
  const apps = new Map(directory.world.apps.map((app) => [app.id, app]));
  const available = [...apps.values()].filter((app) => app.protection_rules).sort((a, b) => a.id - b.id);
  /** Rules per environment, keyed `owner/repo\nenvironment` (lower case). */
  let rules = new Map<string, Rule[]>();
  let nextId = FIRST_RULE_ID;
  const load = () => {
    rules = new Map();
    nextId = FIRST_RULE_ID;
    for (const repository of directory.world.repositories)
      for (const environment of repository.environments ?? [])
        rules.set(
          keyOf(repository, environment.name),
          (environment.protection_rules ?? []).map((id) => ({ id: nextId++, app: apps.get(id)! })),
        );
  };
  load();

  /** The environment's rules; 404 for an environment the repository does not have. */
  const rulesOf = (repository: WorldRepository, name: string): Rule[] => {
    const found = rules.get(keyOf(repository, name));
    if (!found) throw new ApiError(404, 'NOT_FOUND', 'Not Found');
    return found;
  };
  /** The environment the path names, decoded by the router (`release%2Fv1` is release/v1); the fault keeps the slash encoded. */
  const environmentOf = (params: Record<string, string>) =>
    faults.on('protection.encoded-slash-refused') ? params.environment_name.replaceAll('/', '%2F') : params.environment_name;

  const endpoints = [
    defineEndpoint({
      spec: { document: 1, number: 1 },
      id: 'protection.list',
      summary: 'Get all deployment protection rules for an environment',
      method: 'GET',
      path: PREFIX,
      responses: { 200: 'deployment-protection-rules' },
      access: RULES_READ,
      handler: (request, _reply, { repository }) => {
        const list = rulesOf(repository, environmentOf(request.params)).map((rule) => representRule(request, rule));
        if (faults.on('protection.list-bare-array')) return list;
        return { total_count: list.length, custom_deployment_protection_rules: list };
      },
    }),
    defineEndpoint({
      spec: { document: 1, number: 2 },
      id: 'protection.enable',
      summary: 'Create a custom deployment protection rule on an environment',
      method: 'POST',
      path: PREFIX,
      responses: { 201: 'deployment-protection-rule' },
      access: RULES_ADMIN_WRITE,
      body: ENABLE_BODY,
      handler: (request, reply, { repository }) => {
        const list = rulesOf(repository, environmentOf(request.params));
        const app = apps.get(request.body.integration_id);
        const invalid = (message: string) =>
          validationFailed([{ resource: 'DeploymentProtectionRule', field: 'integration_id', code: 'custom', message }]);
        if (!app || (!app.protection_rules && !faults.on('protection.enable-unavailable-app'))) {
          if (variants.on('protection.unavailable-app-404')) throw notFound();
          throw invalid('not an app available for custom deployment protection rules');
        }
        if (list.some((rule) => rule.app.id === app.id) && !variants.on('protection.duplicate-rules-accepted'))
          throw invalid('already_exists');
        const rule = { id: nextId++, app };
        list.push(rule);
        reply.code(faults.on('protection.enable-200') ? 200 : 201);
        return representRule(request, rule);
      },
    }),
    defineEndpoint({
      spec: { document: 1, number: 3 },
      id: 'protection.apps',
      summary: 'List custom deployment rule integrations available for an environment',
      method: 'GET',
      path: `${PREFIX}/apps`,
      responses: { 200: 'json' },
      access: RULES_ADMIN_READ,
      handler: (request, reply, { repository }) => {
        const enabled = new Set(rulesOf(repository, environmentOf(request.params)).map((rule) => rule.app.id));
        const listed = variants.on('protection.apps-exclude-enabled') ? available.filter((app) => !enabled.has(app.id)) : available;
        const defaultPerPage = variants.on('protection.apps-default-per-page-100') ? 100 : 30;
        const summaries = pageOf(request, reply, listed, { defaultPerPage }).map((app) => representApp(request, app));
        if (faults.on('protection.apps-flat-list')) return summaries;
        return [{ total_count: listed.length }, { available_custom_deployment_protection_rule_integrations: summaries }];
      },
    }),
    defineEndpoint({
      spec: { document: 1, number: 4 },
      id: 'protection.get',
      summary: 'Get a custom deployment protection rule',
      method: 'GET',
      path: `${PREFIX}/:protection_rule_id`,
      responses: { 200: 'deployment-protection-rule' },
      access: RULES_READ,
      handler: (request, _reply, { repository }) => {
        const rule = findRule(request.params.protection_rule_id, repository, environmentOf(request.params));
        return representRule(request, rule);
      },
    }),
    defineEndpoint({
      spec: { document: 1, number: 5 },
      id: 'protection.disable',
      summary: 'Disable a custom protection rule for an environment',
      method: 'DELETE',
      path: `${PREFIX}/:protection_rule_id`,
      responses: { 204: 'empty' },
      access: RULES_ADMIN_WRITE,
      handler: (request, reply, { repository }) => {
        const name = environmentOf(request.params);
        const rule = findRule(request.params.protection_rule_id, repository, name);
        const list = rulesOf(repository, name);
        if (!faults.on('protection.delete-ignored')) list.splice(list.indexOf(rule), 1);
        return reply.code(204).send();
      },
    }),
  ];

  /** The environment's rule with this id; 404 otherwise (or, with the fault, any environment's). */
  function findRule(idText: string, repository: WorldRepository, environment: string): Rule {
    const id = pathId(idText);
    const pool = faults.on('protection.get-other-environment') ? [...rules.values()].flat() : rulesOf(repository, environment);
    const rule = pool.find((r) => r.id === id);
    if (!rule) throw notFound();
    return rule;
  }

  function representApp(request: Parameters<typeof representerFor>[0], app: WorldApp) {
    return {
      id: app.id,
      node_id: Buffer.from(`A_${app.id}`).toString('base64'),
      slug: app.slug,
      integration_url: `${representerFor(request, directory).origin}/apps/${app.slug}`,
    };
  }

  function representRule(request: Parameters<typeof representerFor>[0], rule: Rule) {
    return { id: rule.id, node_id: Buffer.from(`DPR_${rule.id}`).toString('base64'), enabled: true, app: representApp(request, rule.app) };
  }

  return { name: 'deployment-protection', endpoints, reset: load, state: () => rules };
};

const keyOf = (repository: WorldRepository, environment: string) => `${fullName(repository)}\n${environment}`.toLowerCase();

export const deploymentProtection = {
  name: 'deployment-protection',
  create,
} satisfies AreaModule;
