// @octokit/rest against the deployment protection rule endpoints, as a user calls them.
import { expect, test } from '../../octokit.fixture.js';

const environment = { owner: 'octo-org', repo: 'widgets', environment_name: 'release/v1' };

test('getAllDeploymentProtectionRules, createDeploymentProtectionRule, getCustomDeploymentProtectionRule, disable', async ({ octokit }) => {
  const client = octokit('repo-admin');
  const all = await client.rest.repos.getAllDeploymentProtectionRules(environment);
  expect(all.data.total_count).toBe(1);
  const created = await client.rest.repos.createDeploymentProtectionRule({ ...environment, integration_id: 7001 });
  expect(created.status).toBe(201);
  const rule = await client.rest.repos.getCustomDeploymentProtectionRule({ ...environment, protection_rule_id: created.data.id! });
  expect(rule.data.app?.slug).toBe('gatekeeper');
  const disabled = await client.rest.repos.disableDeploymentProtectionRule({ ...environment, protection_rule_id: created.data.id! });
  expect(disabled.status).toBe(204);
  await expect(client.rest.repos.createDeploymentProtectionRule({ ...environment, integration_id: 7003 })).rejects.toMatchObject({
    status: 422,
  });
});

test('listCustomDeploymentRuleIntegrations pages through the available apps', async ({ octokit }) => {
  const client = octokit('repo-admin');
  const page = await client.rest.repos.listCustomDeploymentRuleIntegrations({ ...environment, per_page: 100 });
  expect(page.status).toBe(200);
  expect(JSON.stringify(page.data)).toContain('"total_count":106');
});
