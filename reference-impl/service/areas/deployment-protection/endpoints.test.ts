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

// Variations: other readings of what the spec leaves open (suites/variants/deployment-protection.yaml).
// Each is off by default (the tests above, and the first lines of each test below) and switched
// on here through the control API.
const slugs = (page: { slug: string }[]) => page.map((app) => app.slug);

test.describe('variations', () => {
  test('protection.unavailable-app-404: an unknown or unavailable app is 404, nothing enabled; a duplicate stays 422', async ({ api }) => {
    expectErrorBody(await api.call('POST', P('staging'), { as: 'repo-admin', body: { integration_id: 7003 } }), 422);
    await api.vary('protection.unavailable-app-404');
    for (const integration_id of [7003, 99999])
      expectErrorBody(await api.call('POST', P('staging'), { as: 'repo-admin', body: { integration_id } }), 404);
    expect((await api.get(P('staging'))).json().total_count).toBe(0);
    expectErrorBody(await api.call('POST', P('production'), { as: 'repo-admin', body: { integration_id: 7001 } }), 422);
  });

  test('protection.duplicate-rules-accepted: enabling an enabled app makes a second rule', async ({ api }) => {
    expectErrorBody(await api.call('POST', P('production'), { as: 'repo-admin', body: { integration_id: 7001 } }), 422);
    await api.vary('protection.duplicate-rules-accepted');
    const again = await api.call('POST', P('production'), { as: 'repo-admin', body: { integration_id: 7001 } });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ id: 3004, app: { id: 7001 } });
    const listed = (await api.get(P('production'))).json();
    expect(listed.total_count).toBe(2);
    expect(listed.custom_deployment_protection_rules.map((rule: { id: number }) => rule.id)).toEqual([3001, 3004]);
    // Unavailable apps are still refused.
    expectErrorBody(await api.call('POST', P('production'), { as: 'repo-admin', body: { integration_id: 7003 } }), 422);
  });

  test('protection.apps-exclude-enabled: apps enabled on the environment are not listed as available there', async ({ api }) => {
    expect((await api.get(`${P('production')}/apps`, { as: 'repo-admin' })).json()[0]).toEqual({ total_count: 106 });
    await api.vary('protection.apps-exclude-enabled');
    const [total, page] = (await api.get(`${P('production')}/apps`, { as: 'repo-admin' })).json();
    expect(total).toEqual({ total_count: 105 });
    expect(slugs(page.available_custom_deployment_protection_rule_integrations).slice(0, 2)).toEqual(['release-guard', 'rule-app-001']);
    expect((await api.get(`${P('staging')}/apps`, { as: 'repo-admin' })).json()[0]).toEqual({ total_count: 106 });
    await api.call('DELETE', `${P('production')}/3001`, { as: 'repo-admin' });
    expect((await api.get(`${P('production')}/apps`, { as: 'repo-admin' })).json()[0]).toEqual({ total_count: 106 });
  });

  test('protection.apps-default-per-page-100: 100 apps a page without per_page; per_page still chooses', async ({ api }) => {
    await api.vary('protection.apps-default-per-page-100');
    const first = await api.get(`${P('staging')}/apps`, { as: 'repo-admin' });
    expect(first.json()[1].available_custom_deployment_protection_rule_integrations).toHaveLength(100);
    expect(first.headers.link).toContain('rel="next"');
    const chosen = await api.get(`${P('staging')}/apps?per_page=10`, { as: 'repo-admin' });
    expect(chosen.json()[1].available_custom_deployment_protection_rule_integrations).toHaveLength(10);
  });

  test("protection.public-read-without-actions: any token reads a public repository's rules; a private one still needs Actions", async ({
    api,
  }) => {
    expectErrorBody(await api.get(P('production'), { as: 'fine-grained-metadata-only' }), 403);
    await api.vary('protection.public-read-without-actions');
    expect((await api.get(P('production'), { as: 'fine-grained-metadata-only' })).json().total_count).toBe(1);
    expect((await api.get(`${P('production')}/3001`, { as: 'fine-grained-contents-reader' })).statusCode).toBe(200);
    const vault = await api.get(P('production', 'vault'), { as: 'fine-grained-metadata-only' });
    expect([403, 404]).toContain(vault.statusCode);
  });

  test('protection.denied-as-404: callers without admin rights or Administration get 404 on 2, 3 and 5; reads unchanged', async ({
    api,
  }) => {
    expectErrorBody(await api.get(`${P('production')}/apps`, { as: 'repo-writer' }), 403);
    await api.vary('protection.denied-as-404');
    expectErrorBody(await api.get(`${P('production')}/apps`, { as: 'repo-writer' }), 404);
    expectErrorBody(await api.call('POST', P('staging'), { as: 'reader-fine-grained', body: { integration_id: 7001 } }), 404);
    expectErrorBody(await api.call('DELETE', `${P('production')}/3001`, { as: 'repo-maintainer' }), 404);
    expectErrorBody(await api.get(`${P('production')}/apps`), 401);
    expect((await api.get(`${P('production')}/apps`, { as: 'repo-admin' })).statusCode).toBe(200);
    expectErrorBody(await api.get(P('production'), { as: 'fine-grained-metadata-only' }), 403);
  });
});
