import type { LightMyRequestResponse as Response } from 'fastify';
import { EXTRA_FIELD } from './representations.js';
import { expect, expectErrorBody, test } from './service.fixture.js';
import type { ReferenceService } from './service.js';
import { SERVICE_VARIANTS, type ServiceVariant } from './variants.js';

// The variations of the shared code (variants.ts, CORE_VARIANTS; suites/variants/conventions.yaml):
// each one's effect when on, and the reference's own choice when it is off. Each test reads the
// same request both ways, switching through the control API as the harness does.

const WIDGETS = '/repos/octo-org/widgets';
const ASSIGNEES = `${WIDGETS}/assignees`;
const LIMITS = `${WIDGETS}/interaction-limits`;
const ASSIGN = `${WIDGETS}/issues/1/assignees`;
const CROWD = '/repos/octo-org/crowd/assignees';

async function switchOn(service: ReferenceService, ...variants: ServiceVariant[]): Promise<void> {
  const response = await service.app.inject({ method: 'POST', url: '/_conformance/variants', payload: { variants } });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual({ active: variants });
}

/** The same request with the variation off, then on: the two answers. */
async function offAndOn(
  service: ReferenceService,
  variant: ServiceVariant,
  request: () => Promise<Response>,
): Promise<[Response, Response]> {
  const off = await request();
  await switchOn(service, variant);
  const on = await request();
  await switchOn(service);
  return [off, on];
}

const withToken = (authorization: string) => ({ headers: { authorization } });

test('every variation of the shared code is known to the service and off by default', async ({ api }) => {
  const capabilities = (await api.get('/_conformance/capabilities')).json() as { variants: string[] };
  for (const variant of ['auth.bad-credentials-ignored', 'errors.problem-details', 'pagination.past-end-404', 'etag.weak'])
    expect(capabilities.variants).toContain(variant);
  expect(SERVICE_VARIANTS).toContain('representations.extra-fields');
  expect((await api.get('/_conformance/variants')).json()).toEqual({ active: [] });
});

test.describe('credentials and access', () => {
  test('auth.bad-credentials-ignored: an unknown token or scheme is served as anonymous; a protected endpoint still needs a caller', async ({
    api,
    service,
  }) => {
    for (const authorization of ['Bearer nope_not_a_token', 'Basic dXNlcjpwYXNz', 'Bearer']) {
      const [off, on] = await offAndOn(service, 'auth.bad-credentials-ignored', () => api.get(ASSIGNEES, withToken(authorization)));
      expectErrorBody(off, 401, /^Bad credentials$/);
      expect(on.statusCode, authorization).toBe(200);
    }
    await switchOn(service, 'auth.bad-credentials-ignored');
    expectErrorBody(await api.get(LIMITS, withToken('Bearer nope_not_a_token')), 401, 'Requires authentication');
    // A known token is still the caller it names.
    expect((await api.get(LIMITS, withToken('Bearer ts_classic_repo_admin_0002'))).statusCode).toBe(200);
  });

  test('auth.private-repository-403: a private repository the caller cannot see is 401 anonymously, 403 otherwise, instead of 404', async ({
    api,
    service,
  }) => {
    const vault = '/repos/octo-org/vault/assignees';
    const [anonymousOff, anonymousOn] = await offAndOn(service, 'auth.private-repository-403', () => api.get(vault));
    expectErrorBody(anonymousOff, 404);
    expectErrorBody(anonymousOn, 401, 'Requires authentication');
    const [outsiderOff, outsiderOn] = await offAndOn(service, 'auth.private-repository-403', () => api.get(vault, { as: 'outsider' }));
    expectErrorBody(outsiderOff, 404);
    expectErrorBody(outsiderOn, 403);
    await switchOn(service, 'auth.private-repository-403');
    // What does not exist is still not found, and who may see the repository still sees it.
    expectErrorBody(await api.get('/repos/octo-org/no-such-repository/assignees', { as: 'outsider' }), 404);
    expect((await api.get(vault, { as: 'repo-reader' })).statusCode).toBe(200);
  });
});

test.describe('request conventions', () => {
  test('user-agent.missing-400: a missing or empty User-Agent is 400 instead of 403', async ({ api, service }) => {
    for (const agent of [undefined, '', '  ']) {
      const [off, on] = await offAndOn(service, 'user-agent.missing-400', () => api.get(ASSIGNEES, { headers: { 'user-agent': agent } }));
      expectErrorBody(off, 403);
      expectErrorBody(on, 400, 'Missing User-Agent header');
    }
  });

  test('version.header-required: an omitted version is 400; the current one is still served', async ({ api, service }) => {
    const [off, on] = await offAndOn(service, 'version.header-required', () =>
      api.get(ASSIGNEES, { headers: { 'x-service-api-version': undefined } }),
    );
    expect(off.statusCode).toBe(200);
    expectErrorBody(on, 400, 'The x-service-api-version header is required');
    await switchOn(service, 'version.header-required');
    expect((await api.get(ASSIGNEES)).statusCode).toBe(200);
  });

  test('version.unknown-served-as-current: any version is served as 2022-11-28', async ({ api, service }) => {
    const [off, on] = await offAndOn(service, 'version.unknown-served-as-current', () =>
      api.get(ASSIGNEES, { headers: { 'x-service-api-version': '1999-01-01' } }),
    );
    expectErrorBody(off, 400, 'API version 1999-01-01 is not supported');
    expect(on.statusCode).toBe(200);
    expect(on.headers['x-service-api-version']).toBe('2022-11-28');
  });

  test('media.unsupported-accept-ignored: an Accept naming nothing supported gets JSON', async ({ api, service }) => {
    const [off, on] = await offAndOn(service, 'media.unsupported-accept-ignored', () =>
      api.get(ASSIGNEES, { headers: { accept: 'text/xml' } }),
    );
    expectErrorBody(off, 415);
    expect(on.statusCode).toBe(200);
    expect(on.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  test('media.unsupported-accept-406: an Accept naming nothing supported gets 406', async ({ api, service }) => {
    const [off, on] = await offAndOn(service, 'media.unsupported-accept-406', () =>
      api.get(ASSIGNEES, { headers: { accept: 'text/xml' } }),
    );
    expectErrorBody(off, 415);
    expectErrorBody(on, 406);
    await switchOn(service, 'media.unsupported-accept-406');
    expect((await api.get(ASSIGNEES, { headers: { accept: 'text/html, application/json' } })).statusCode).toBe(200);
  });

  test('media.json-without-charset: JSON answers and errors are labelled application/json alone', async ({ api, service }) => {
    const [off, on] = await offAndOn(service, 'media.json-without-charset', () => api.get(ASSIGNEES));
    expect(off.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(on.headers['content-type']).toBe('application/json');
    await switchOn(service, 'media.json-without-charset');
    for (const error of [await api.get('/no/such/route'), await api.get(ASSIGNEES, { headers: { 'user-agent': undefined } })])
      expect(error.headers['content-type']).toBe('application/json');
  });

  test('media.vendor-content-type: JSON asked for as application/vnd.service+json is labelled so', async ({ api, service }) => {
    const [off, on] = await offAndOn(service, 'media.vendor-content-type', () => api.get(ASSIGNEES));
    expect(off.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(on.headers['content-type']).toBe('application/vnd.service+json; charset=utf-8');
    await switchOn(service, 'media.vendor-content-type');
    for (const accept of [undefined, 'application/json', '*/*'])
      expect((await api.get(ASSIGNEES, { headers: { accept } })).headers['content-type'], String(accept)).toBe(
        'application/json; charset=utf-8',
      );
    expect((await api.get('/no/such/route')).headers['content-type']).toBe('application/vnd.service+json; charset=utf-8');
  });

  test('conventions.extra-headers: rate-limit, media-type and caching headers besides the spec’s', async ({ api, service }) => {
    const [off, on] = await offAndOn(service, 'conventions.extra-headers', () => api.get(ASSIGNEES));
    for (const header of ['x-ratelimit-limit', 'x-service-media-type', 'cache-control', 'vary'])
      expect(off.headers[header]).toBeUndefined();
    expect(on.headers).toMatchObject({
      'x-ratelimit-limit': '60',
      'x-ratelimit-resource': 'core',
      'x-service-media-type': 'service.v2022-11-28; format=json',
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, max-age=60, s-maxage=60',
    });
    expect(on.body).toBe(off.body);
    await switchOn(service, 'conventions.extra-headers');
    expect((await api.get(ASSIGNEES, { as: 'repo-admin' })).headers['x-ratelimit-limit']).toBe('5000');
    expect((await api.get('/no/such/route')).headers['x-ratelimit-limit']).toBe('60');
    expect((await api.get('/_conformance/capabilities')).headers['x-ratelimit-limit']).toBeUndefined();
  });
});

test.describe('errors', () => {
  test('errors.message-only: error bodies hold message (and errors[]) alone', async ({ api, service }) => {
    const [off, on] = await offAndOn(service, 'errors.message-only', () => api.get('/no/such/route'));
    expectErrorBody(off, 404, 'Not Found');
    expect(on.json()).toEqual({ message: 'Not Found' });
    await switchOn(service, 'errors.message-only');
    const invalid = await api.call('PUT', LIMITS, { as: 'repo-admin', body: { limit: 'nobody' } });
    expect(invalid.json()).toEqual({
      message: 'Validation Failed',
      errors: [{ resource: 'InteractionLimit', field: 'limit', code: 'invalid' }],
    });
  });

  test('errors.problem-details: RFC 9457 problem details, labelled application/problem+json', async ({ api, service }) => {
    const [off, on] = await offAndOn(service, 'errors.problem-details', () => api.get('/no/such/route'));
    expectErrorBody(off, 404);
    expect(on.statusCode).toBe(404);
    expect(on.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(on.json()).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'Not Found' });
    await switchOn(service, 'errors.problem-details');
    const invalid = await api.call('PUT', LIMITS, { as: 'repo-admin', body: { limit: 'nobody', extra: 1 } });
    expect(invalid.json()).toMatchObject({ status: 422, errors: { limit: ['invalid'], extra: ['invalid'] } });
    const notObject = await api.call('PUT', LIMITS, { as: 'repo-admin', raw: '[]' });
    expect(notObject.json()).toMatchObject({ errors: { $: ['Body should be a JSON object'] } });
    // Answers that are no errors keep their shape.
    expect((await api.get(ASSIGNEES)).headers['content-type']).toBe('application/json; charset=utf-8');
  });

  test('errors.other-messages: the same statuses, other words', async ({ api, service }) => {
    const requests = [
      () => api.get('/no/such/route'),
      () => api.get(ASSIGNEES, withToken('Bearer nope_not_a_token')),
      () => api.call('PUT', LIMITS, { as: 'repo-admin', raw: '[]' }),
    ];
    for (const request of requests) {
      const [off, on] = await offAndOn(service, 'errors.other-messages', request);
      expect(on.statusCode).toBe(off.statusCode);
      const [before, after] = [off.json() as { message: string; errors?: unknown[] }, on.json() as { message: string; errors?: unknown[] }];
      expect(after.message).not.toBe(before.message);
      expect(after.message.length).toBeGreaterThan(0);
      expect(JSON.stringify(after.errors ?? [])).not.toContain('Body should be a JSON object');
    }
  });

  test('errors.malformed-json-422: a body that is not JSON is 422 instead of 400', async ({ api, service }) => {
    const [off, on] = await offAndOn(service, 'errors.malformed-json-422', () =>
      api.call('PUT', LIMITS, { as: 'repo-admin', raw: '{bad' }),
    );
    expectErrorBody(off, 400, 'Problems parsing JSON');
    expect(expectErrorBody(on, 422).errors).toEqual([{ resource: 'Body', field: '', code: 'custom', message: 'Problems parsing JSON' }]);
    expect((await api.get(LIMITS, { as: 'repo-admin' })).json()).toEqual({});
  });

  test('errors.unknown-fields-ignored: unknown fields are dropped and the rest is served', async ({ api, service }) => {
    const [off, on] = await offAndOn(service, 'errors.unknown-fields-ignored', () =>
      api.call('PUT', LIMITS, { as: 'repo-admin', body: { limit: 'existing_users', limt: 'collaborators_only' } }),
    );
    expect(expectErrorBody(off, 422).errors).toEqual([{ resource: 'InteractionLimit', field: 'limt', code: 'invalid' }]);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ limit: 'existing_users', origin: 'repository' });
    await switchOn(service, 'errors.unknown-fields-ignored');
    // What is wrong besides is still refused.
    const wrong = await api.call('PUT', LIMITS, { as: 'repo-admin', body: { limit: 'nobody', extra: 1 } });
    expect(expectErrorBody(wrong, 422).errors).toEqual([{ resource: 'InteractionLimit', field: 'limit', code: 'invalid' }]);
  });

  test('errors.lenient-body-types: a string becomes a one-element array; what no conversion fixes is refused', async ({ api, service }) => {
    const [off, on] = await offAndOn(service, 'errors.lenient-body-types', () =>
      api.call('POST', ASSIGN, { as: 'repo-admin', body: { assignees: 'defunkt' } }),
    );
    expectErrorBody(off, 422);
    expect(on.statusCode).toBe(201);
    expect(on.json().assignees.map((u: { login: string }) => u.login)).toEqual(['defunkt']);
    await switchOn(service, 'errors.lenient-body-types');
    const nested = await api.call('POST', `${WIDGETS}/issues/3/assignees`, { as: 'repo-admin', body: { assignees: [['wanstrath']] } });
    expect(nested.statusCode).toBe(201);
    expect(nested.json().assignees.map((u: { login: string }) => u.login)).toContain('wanstrath');
    expectErrorBody(await api.call('PUT', LIMITS, { as: 'repo-admin', body: { limit: 5 } }), 422);
    expectErrorBody(await api.call('PUT', LIMITS, { as: 'repo-admin', raw: '["existing_users"]' }), 422);
  });

  test('errors.oversized-body-400: a body over the limit is 400 instead of 413', async ({ api, service }) => {
    const raw = JSON.stringify({ limit: 'existing_users', padding: 'x'.repeat(2 * 1024 * 1024) });
    const [off, on] = await offAndOn(service, 'errors.oversized-body-400', () => api.call('PUT', LIMITS, { as: 'repo-admin', raw }));
    expectErrorBody(off, 413);
    expectErrorBody(on, 400);
    expect((await api.get(LIMITS, { as: 'repo-admin' })).json()).toEqual({});
  });
});

test.describe('representations, conditional requests, pagination', () => {
  test('representations.extra-fields: every object with fields gets one more; empty answers stay empty', async ({ api, service }) => {
    const [off, on] = await offAndOn(service, 'representations.extra-fields', () =>
      api.call('POST', ASSIGN, { as: 'repo-admin', body: { assignees: ['defunkt'] } }),
    );
    const [before, after] = [off.json() as Record<string, unknown>, on.json() as Record<string, unknown>];
    expect(before[EXTRA_FIELD.name]).toBeUndefined();
    expect(after[EXTRA_FIELD.name]).toBe(EXTRA_FIELD.value);
    expect((after.user as Record<string, unknown>)[EXTRA_FIELD.name]).toBe(EXTRA_FIELD.value);
    expect((after.assignees as Record<string, unknown>[])[0][EXTRA_FIELD.name]).toBe(EXTRA_FIELD.value);
    const { [EXTRA_FIELD.name]: _extra, ...listed } = after;
    expect(Object.keys(listed).sort()).toEqual(Object.keys(before).sort());
    await switchOn(service, 'representations.extra-fields');
    expect((await api.get(LIMITS, { as: 'repo-admin' })).body).toBe('{}');
    expect((await api.get('/no/such/route')).json()).toMatchObject({ message: 'Not Found', [EXTRA_FIELD.name]: EXTRA_FIELD.value });
  });

  test('representations.extra-fields: a created blob stays exactly {url, sha}', async ({ api, service }) => {
    await switchOn(service, 'representations.extra-fields');
    const blob = await api.call('POST', `${WIDGETS}/git/blobs`, { as: 'repo-admin', body: { content: 'hello' } });
    expect(blob.statusCode).toBe(201);
    expect(Object.keys(blob.json()).sort()).toEqual(['sha', 'url']);
  });

  test('etag.weak: weak tags; If-None-Match with either form gets 304', async ({ api, service }) => {
    const [off, on] = await offAndOn(service, 'etag.weak', () => api.get(ASSIGNEES));
    expect(off.headers.etag).toMatch(/^"[0-9a-f]+"$/);
    expect(on.headers.etag).toBe(`W/${String(off.headers.etag)}`);
    await switchOn(service, 'etag.weak');
    for (const tag of [String(on.headers.etag), String(off.headers.etag)])
      expect((await api.get(ASSIGNEES, { headers: { 'if-none-match': tag } })).statusCode, tag).toBe(304);
  });

  test('etag.no-conditional-requests: no ETag, and If-None-Match never gives 304', async ({ api, service }) => {
    const { etag } = (await api.get(ASSIGNEES)).headers;
    const [off, on] = await offAndOn(service, 'etag.no-conditional-requests', () =>
      api.get(ASSIGNEES, { headers: { 'if-none-match': String(etag) } }),
    );
    expect(off.statusCode).toBe(304);
    expect(on.statusCode).toBe(200);
    expect(on.headers.etag).toBeUndefined();
    expect(on.json()).toHaveLength(4);
    await switchOn(service, 'etag.no-conditional-requests');
    expect((await api.get(ASSIGNEES, { headers: { 'if-none-match': '*' } })).statusCode).toBe(200);
  });

  test('pagination.past-end-404: a page past the last one is 404', async ({ api, service }) => {
    const [off, on] = await offAndOn(service, 'pagination.past-end-404', () => api.get(`${CROWD}?page=9`));
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual([]);
    expectErrorBody(on, 404);
    await switchOn(service, 'pagination.past-end-404');
    expect((await api.get(`${CROWD}?page=4`)).json()).toHaveLength(17);
  });

  test('pagination.invalid-parameters-ignored: an invalid per_page or page falls back to the default', async ({ api, service }) => {
    for (const query of ['per_page=abc', 'per_page=0', 'page=-1', 'page=x1']) {
      const [off, on] = await offAndOn(service, 'pagination.invalid-parameters-ignored', () => api.get(`${CROWD}?${query}`));
      expectErrorBody(off, 422);
      expect(on.statusCode, query).toBe(200);
      expect(on.json()).toHaveLength(30);
    }
  });

  test('pagination.invalid-parameters-400: an invalid per_page or page is 400', async ({ api, service }) => {
    const [off, on] = await offAndOn(service, 'pagination.invalid-parameters-400', () => api.get(`${CROWD}?per_page=abc`));
    expectErrorBody(off, 422);
    expectErrorBody(on, 400, 'per_page must be a positive integer');
  });
});

test('a reset keeps the variations the service started with, and only those', async ({ api, service }) => {
  await switchOn(service, 'etag.weak');
  expect((await service.app.inject({ method: 'POST', url: '/_conformance/reset' })).statusCode).toBeLessThan(300);
  expect((await api.get('/_conformance/variants')).json()).toEqual({ active: [] });
});
