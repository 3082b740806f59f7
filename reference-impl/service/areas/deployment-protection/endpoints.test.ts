// Endpoints 1–5: an environment's custom protection rules, over the world's environments
// and apps. Rule ids are numbered from 3001 in the world's order (production 3001,
// release/v1 3002, vault's production 3003) and new ones follow.
import { expect, expectErrorBody, test } from '../../service.fixture.js';

const P = (environment: string, repo = 'widgets') =>
  `/repos/octo-org/${repo}/environments/${encodeURIComponent(environment)}/deployment_protection_rules`;

test('list: total_count and the rules, each naming its app; names match case-insensitively, a slash only encoded', async ({ api }) => {
  const production = await api.get(P('production'));
  expect(production.json()).toEqual({
    total_count: 1,
    custom_deployment_protection_rules: [
      {
        id: 3001,
        node_id: Buffer.from('DPR_3001').toString('base64'),
        enabled: true,
        app: {
          id: 7001,
          node_id: Buffer.from('A_7001').toString('base64'),
          slug: 'gatekeeper',
          integration_url: 'http://localhost/apps/gatekeeper',
        },
      },
    ],
  });
  expect((await api.get(P('PRODUCTION'))).json().total_count).toBe(1);
  expect((await api.get(P('release/v1'))).json().custom_deployment_protection_rules[0].id).toBe(3002);
  expect((await api.get('/repos/octo-org/widgets/environments/release/v1/deployment_protection_rules')).statusCode).toBe(404);
  expectErrorBody(await api.get(P('nowhere')), 404);
});

test("enable (201), get, disable (204): the rule's life; 422 for an unavailable, unknown or enabled app", async ({ api }) => {
  const enabled = await api.call('POST', P('staging'), { as: 'repo-admin', body: { integration_id: 7150 } });
  expect(enabled.statusCode).toBe(201);
  expect(enabled.json()).toMatchObject({ id: 3004, enabled: true, app: { id: 7150, slug: 'rule-app-051' } });
  expect((await api.get(`${P('staging')}/3004`)).json().app.slug).toBe('rule-app-051');
  expect((await api.get(`${P('production')}/3004`)).statusCode).toBe(404);
  for (const integration_id of [7003, 99999, 7150]) {
    const refused = await api.call('POST', P('staging'), { as: 'repo-admin', body: { integration_id } });
    expect(expectErrorBody(refused, 422).errors, String(integration_id)).toHaveLength(1);
  }
  expect((await api.call('DELETE', `${P('staging')}/3004`, { as: 'repo-admin' })).statusCode).toBe(204);
  expect((await api.call('DELETE', `${P('staging')}/3004`, { as: 'repo-admin' })).statusCode).toBe(404);
  expect((await api.get(P('staging'))).json()).toEqual({ total_count: 0, custom_deployment_protection_rules: [] });
  expect((await api.get(`${P('staging')}/abc`)).statusCode).toBe(404);
});

test('apps: two objects, the total and a page of app summaries, 30 by default and at most 100, with links', async ({ api }) => {
  const first = await api.get(P('production').concat('/apps'), { as: 'repo-admin' });
  const [total, page] = first.json();
  expect(total).toEqual({ total_count: 106 });
  expect(page.available_custom_deployment_protection_rule_integrations).toHaveLength(30);
  expect(page.available_custom_deployment_protection_rule_integrations.map((a: { slug: string }) => a.slug)).not.toContain('linter-bot');
  expect(first.headers.link).toContain('rel="next"');
  const big = await api.get(`${P('production')}/apps?per_page=500&page=2`, { as: 'repo-admin' });
  expect(big.json()[1].available_custom_deployment_protection_rule_integrations).toHaveLength(6);
});

test('a reset brings back the world: enabled rules go, disabled ones return, ids start over', async ({ api }) => {
  await api.call('POST', P('staging'), { as: 'repo-admin', body: { integration_id: 7001 } });
  await api.call('DELETE', `${P('production')}/3001`, { as: 'repo-admin' });
  await api.call('POST', '/_conformance/reset', { headers: { 'user-agent': 't' } });
  expect((await api.get(P('staging'))).json().total_count).toBe(0);
  expect((await api.get(`${P('production')}/3001`)).statusCode).toBe(200);
  expect((await api.call('POST', P('staging'), { as: 'repo-admin', body: { integration_id: 7001 } })).json().id).toBe(3004);
});
