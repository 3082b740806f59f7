import { expect, expectErrorBody, test, type Api } from './service.fixture.js';

// Bad input of every kind is a 4xx with the error body, and leaves the state as it was.

const LIMITS = '/repos/octo-org/widgets/interaction-limits';
const ASSIGN = '/repos/octo-org/widgets/issues/3/assignees';

async function expectUnchanged(api: Api) {
  expect((await api.get(LIMITS, { as: 'repo-admin' })).json()).toEqual({});
  const issue = await api.call('POST', ASSIGN, { as: 'repo-admin', body: { assignees: [] } });
  expect(issue.json().assignees.map((u: { login: string }) => u.login)).toEqual(['monalisa', 'defunkt']);
}

test.describe('request bodies', () => {
  for (const raw of ['{bad', '{"limit": "existing_users"', "{'limit': 'existing_users'}", '{"limit": existing_users}', '\ufeff{}']) {
    test(`malformed JSON ${JSON.stringify(raw)}: 400 Problems parsing JSON`, async ({ api }) => {
      expectErrorBody(await api.call('PUT', LIMITS, { as: 'repo-admin', raw }), 400, /^Problems parsing JSON$/);
      expectErrorBody(await api.call('POST', ASSIGN, { as: 'repo-admin', raw: raw.replace('limit', 'assignees') }), 400);
      await expectUnchanged(api);
    });
  }

  for (const raw of ['[]', '"existing_users"', '42', 'true', '[{"limit": "existing_users"}]']) {
    test(`a body that is not an object (${raw}): 422 with errors[]`, async ({ api }) => {
      const error = expectErrorBody(await api.call('PUT', LIMITS, { as: 'repo-admin', raw }), 422, 'Validation Failed');
      expect(error.errors).toEqual([{ resource: 'InteractionLimit', field: '', code: 'custom', message: 'Body should be a JSON object' }]);
      await expectUnchanged(api);
    });
  }

  for (const raw of ['', '   ', 'null']) {
    test(`an empty body (${JSON.stringify(raw)}) reports the missing field`, async ({ api }) => {
      const error = expectErrorBody(await api.call('PUT', LIMITS, { as: 'repo-admin', raw }), 422);
      expect(error.errors).toEqual([{ resource: 'InteractionLimit', field: 'limit', code: 'missing_field' }]);
      await expectUnchanged(api);
    });
  }

  test('wrong types and unknown fields are named, all at once', async ({ api }) => {
    const error = expectErrorBody(
      await api.call('PUT', LIMITS, { as: 'repo-admin', body: { limit: ['existing_users'], expiry: 7, extra: 1, __proto__x: 2 } }),
      422,
    );
    expect(error.errors).toEqual(
      expect.arrayContaining([
        { resource: 'InteractionLimit', field: 'limit', code: 'invalid' },
        { resource: 'InteractionLimit', field: 'expiry', code: 'invalid' },
        { resource: 'InteractionLimit', field: 'extra', code: 'invalid' },
        { resource: 'InteractionLimit', field: '__proto__x', code: 'invalid' },
      ]),
    );
    await expectUnchanged(api);
  });

  test('a __proto__ key is an unknown field, not a prototype', async ({ api }) => {
    const error = expectErrorBody(
      await api.call('PUT', LIMITS, { as: 'repo-admin', raw: '{"limit":"existing_users","__proto__":{"expiry":"six_months"}}' }),
      422,
    );
    expect(error.errors).toEqual([{ resource: 'InteractionLimit', field: '__proto__', code: 'invalid' }]);
    await expectUnchanged(api);
  });

  test('types are never coerced: a number-looking string or a lone string is not an array', async ({ api }) => {
    const error = expectErrorBody(await api.call('POST', ASSIGN, { as: 'repo-admin', body: { assignees: 'hubot' } }), 422);
    expect(error.errors).toEqual([{ resource: 'Issue', field: 'assignees', code: 'invalid' }]);
    await expectUnchanged(api);
  });

  test('a body over 1 MiB: 413, nothing changed', async ({ api }) => {
    const raw = JSON.stringify({ limit: 'existing_users', padding: 'x'.repeat(1024 * 1024) });
    expectErrorBody(await api.call('PUT', LIMITS, { as: 'repo-admin', raw }), 413);
    const assignees = JSON.stringify({ assignees: Array.from({ length: 150_000 }, () => 'hubot') });
    expectErrorBody(await api.call('DELETE', ASSIGN, { as: 'repo-admin', raw: assignees }), 413);
    await expectUnchanged(api);
  });

  test('a body just under 1 MiB is read (and then validated)', async ({ api }) => {
    const raw = JSON.stringify({ limit: 'existing_users', padding: 'x'.repeat(1024 * 1024 - 100) });
    const error = expectErrorBody(await api.call('PUT', LIMITS, { as: 'repo-admin', raw }), 422);
    expect(error.errors).toEqual([{ resource: 'InteractionLimit', field: 'padding', code: 'invalid' }]);
  });

  for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml']) {
    test(`Content-Type ${contentType}: 415, nothing changed`, async ({ api }) => {
      const response = await api.call('PUT', LIMITS, {
        as: 'repo-admin',
        raw: '{"limit":"existing_users"}',
        headers: { 'content-type': contentType },
      });
      expectErrorBody(response, 415, "Unsupported 'Content-Type' header");
      await expectUnchanged(api);
    });
  }

  test('an empty body is no body whatever its Content-Type (fetch labels an empty string text/plain)', async ({ api }) => {
    const response = await api.call('PUT', LIMITS, { as: 'repo-admin', raw: '', headers: { 'content-type': 'text/plain;charset=UTF-8' } });
    expect(expectErrorBody(response, 422).errors).toEqual([{ resource: 'InteractionLimit', field: 'limit', code: 'missing_field' }]);
  });

  for (const contentType of [undefined, 'application/json; charset=utf-8', 'application/vnd.service+json', 'Application/JSON']) {
    test(`Content-Type ${String(contentType)} is read as JSON`, async ({ api }) => {
      const response = await api.call('PUT', LIMITS, {
        as: 'repo-admin',
        raw: '{"limit":"existing_users"}',
        headers: { 'content-type': contentType },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ limit: 'existing_users' });
    });
  }

  test('a deeply nested body is refused cleanly', async ({ api }) => {
    const raw = `{"assignees":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    const response = await api.call('POST', ASSIGN, { as: 'repo-admin', raw });
    expect([400, 422]).toContain(response.statusCode);
    expectErrorBody(response, response.statusCode);
    await expectUnchanged(api);
  });
});

test.describe('URLs and headers', () => {
  test('an undecodable path: 400 with the error body', async ({ api }) => {
    expectErrorBody(await api.get('/repos/%E0%A4%A/widgets/assignees'), 400);
  });

  test('an overlong path segment: 404', async ({ api }) => {
    expectErrorBody(await api.get(`/repos/${'a'.repeat(500)}/widgets/assignees`), 404);
  });

  test('odd but decodable names are simply not found', async ({ api }) => {
    for (const owner of ['%00', '..', '%2F', 'octo-org%2Fwidgets', '%F0%9F%98%80', '__proto__', 'constructor']) {
      expectErrorBody(await api.get(`/repos/${owner}/widgets/assignees`), 404);
      expectErrorBody(await api.get(`/orgs/${owner}/interaction-limits`, { as: 'org-owner' }), 404);
    }
  });

  test('a hostile Host header does not leak into URLs', async ({ api }) => {
    for (const host of ['evil.test/path?x=', 'a b', 'x:99999', '[zz]']) {
      const response = await api.get('/repos/octo-org/crowd/assignees', { headers: { host } });
      expect(response.statusCode, host).toBe(200);
      expect(String(response.headers.link)).toContain('<http://localhost/repos/octo-org/crowd/assignees?page=2>');
    }
  });

  test('no input reaches a 500', async ({ api }) => {
    const paths = [
      '/repos/octo-org/widgets/assignees',
      '/repos/octo-org/widgets/assignees/hubot',
      '/repos/octo-org/widgets/issues/1/assignees',
      '/repos/octo-org/widgets/interaction-limits',
      '/orgs/octo-org/interaction-limits',
      '/_conformance/clock',
      '/_conformance/reset',
    ];
    const bodies = [
      undefined,
      '',
      '{}',
      '[]',
      'null',
      '{"assignees":[null]}',
      '{"limit":{}}',
      '{"set":1e400}',
      '{"advance_seconds":1e308}',
      '\u0000',
      '{"a":',
    ];
    const queries = ['', '?per_page=1e3', '?page=%00', '?per_page[]=1', '?page=1&page=2'];
    // The 5xx answers are gathered and compared once: one Playwright expect per request (5,390)
    // would cost more in the runner's step bookkeeping than the requests do.
    const failures: string[] = [];
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']) {
        for (const raw of bodies) {
          for (const query of queries) {
            for (const as of ['anonymous', 'org-owner']) {
              const response = await api.call(method, path + query, { as, raw: method === 'GET' || method === 'HEAD' ? undefined : raw });
              if (response.statusCode >= 500) failures.push(`${method} ${path}${query} ${String(raw)} as ${as} → ${response.statusCode}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
