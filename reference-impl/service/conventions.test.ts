import { expect, expectErrorBody, test } from './service.fixture.js';

// Shared request conventions: User-Agent, X-Service-Api-Version, Accept, response headers.

const ASSIGNEES = '/repos/octo-org/widgets/assignees';
const UA_MESSAGE = 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header';

test.describe('User-Agent', () => {
  for (const [name, value] of [
    ['missing', undefined],
    ['empty', ''],
    ['whitespace-only', '   '],
  ] as const) {
    test(`${name}: 403 with the administrative-rules message`, async ({ api }) => {
      expectErrorBody(await api.get(ASSIGNEES, { headers: { 'user-agent': value } }), 403, UA_MESSAGE);
    });
  }

  test('is checked before anything else: unknown routes, bad versions, bad credentials, bad Accept', async ({ api }) => {
    const headers = {
      'user-agent': undefined,
      'x-service-api-version': '1999-01-01',
      accept: 'text/html',
      authorization: 'Bearer nope_nope',
    };
    expectErrorBody(await api.get('/no/such/route', { headers }), 403, UA_MESSAGE);
    expectErrorBody(await api.call('PUT', '/repos/octo-org/widgets/interaction-limits', { headers, raw: '{bad' }), 403, UA_MESSAGE);
  });

  test('the control API does not need one', async ({ api }) => {
    const response = await api.get('/_conformance/capabilities', { headers: { 'user-agent': undefined } });
    expect(response.statusCode).toBe(200);
  });
});

test.describe('X-Service-Api-Version', () => {
  test('2022-11-28 and omitted are accepted; responses name the version', async ({ api }) => {
    for (const version of ['2022-11-28', undefined]) {
      const response = await api.get(ASSIGNEES, { headers: { 'x-service-api-version': version } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-service-api-version']).toBe('2022-11-28');
    }
  });

  for (const version of ['2023-01-01', 'latest', '']) {
    test(`${JSON.stringify(version)}: 400 naming the version`, async ({ api }) => {
      expectErrorBody(
        await api.get(ASSIGNEES, { headers: { 'x-service-api-version': version } }),
        400,
        `API version ${version} is not supported`,
      );
    });
  }

  test('error responses carry the version header too', async ({ api }) => {
    const response = await api.get('/no/such/route');
    expect(response.statusCode).toBe(404);
    expect(response.headers['x-service-api-version']).toBe('2022-11-28');
  });
});

test.describe('Accept', () => {
  for (const accept of [
    undefined,
    '*/*',
    'application/*',
    'application/json',
    'application/vnd.service+json',
    'APPLICATION/VND.SERVICE+JSON',
    'application/vnd.service.raw+json',
    'application/vnd.service.full+json; q=0.5',
    'text/html, application/json;q=0.1',
  ]) {
    test(`accepted: ${String(accept)}`, async ({ api }) => {
      const response = await api.get(ASSIGNEES, { headers: { accept } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    });
  }

  for (const accept of ['text/html', 'application/xml', 'image/*', 'application/vnd.other+json', '']) {
    test(`refused with 415: ${JSON.stringify(accept)}`, async ({ api }) => {
      expectErrorBody(await api.get(ASSIGNEES, { headers: { accept } }), 415, "Unsupported 'Accept' header");
    });
  }

  test('a write with an unacceptable Accept changes nothing', async ({ api }) => {
    const put = await api.call('PUT', '/repos/octo-org/widgets/interaction-limits', {
      as: 'repo-admin',
      body: { limit: 'existing_users' },
      headers: { accept: 'text/plain' },
    });
    expectErrorBody(put, 415);
    expect((await api.get('/repos/octo-org/widgets/interaction-limits', { as: 'repo-admin' })).json()).toEqual({});
  });
});

test.describe('routes', () => {
  test('unknown route: 404 Not Found with the error body', async ({ api }) => {
    expectErrorBody(await api.get('/repos/octo-org/widgets/nothing-here'), 404, /^Not Found$/);
  });

  test('unknown route: 404 before the body is read, whatever the body (not 415, 400 or 413)', async ({ api }) => {
    const route = '/repos/octo-org/widgets/nothing-here';
    const asForm = { as: 'repo-admin', raw: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    expectErrorBody(await api.call('POST', route, asForm), 404);
    expectErrorBody(await api.call('POST', route, { as: 'repo-admin', raw: '{"not json' }), 404);
    expectErrorBody(await api.call('PUT', route, { as: 'repo-admin', raw: `{"x":"${'a'.repeat(2 * 1024 * 1024)}"}` }), 404);
    // A known path with another method is no route either.
    expectErrorBody(await api.call('PATCH', ASSIGNEES, { as: 'repo-admin', raw: '{"not json' }), 404);
  });

  test('known path, wrong method: 404 as well', async ({ api }) => {
    expectErrorBody(await api.call('PATCH', ASSIGNEES, { as: 'repo-admin', body: {} }), 404);
    expectErrorBody(
      await api.call('POST', '/repos/octo-org/widgets/interaction-limits', { as: 'repo-admin', body: { limit: 'existing_users' } }),
      404,
    );
    expectErrorBody(await api.call('PUT', '/repos/octo-org/widgets/assignees/hubot', { as: 'repo-admin' }), 404);
  });

  test('HEAD on a GET endpoint: the headers of GET without a body', async ({ api }) => {
    const get = await api.get(ASSIGNEES);
    const head = await api.call('HEAD', ASSIGNEES);
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe(get.headers.etag);
  });
});
