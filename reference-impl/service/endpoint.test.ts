// Endpoint definitions are the only way to add a route, and each carries a complete access rule.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { Type } from 'typebox';
import { AREAS } from './areas/index.js';
import { onRepository, REPOSITORY_READ_SCOPES } from './auth/endpoint-access.js';
import { createDirectory } from './directory.js';
import { defineEndpoint, registerEndpoints, type Endpoint } from './endpoint.js';
import { createReferenceService } from './service.js';
import { createStore } from './store.js';
import { loadWorld } from './world-loader.js';

const world = loadWorld();
const RULE = onRepository({ anonymous: true, scopes: REPOSITORY_READ_SCOPES, permissions: [], role: 'visible' });
const probe = (overrides: Partial<Endpoint> = {}): Endpoint => ({
  ...defineEndpoint({
    spec: { document: 1, number: 99 },
    id: 'probe.get',
    summary: 'probe',
    method: 'GET',
    path: '/repos/:owner/:repo/probe',
    responses: { 200: 'json' },
    access: RULE,
    handler: async () => ({}),
  }),
  ...overrides,
});

test('a route added without an endpoint definition is refused when it is registered', async () => {
  const service = createReferenceService({ world });
  try {
    expect(() => service.app.get('/repos/:owner/:repo/open-to-anyone', async () => ({}))).toThrow(
      /not registered from an endpoint definition.*no access rule/,
    );
  } finally {
    await service.close();
  }
});

test('a definition without a complete access rule, or defined twice, is refused at start-up', async () => {
  const service = createReferenceService({ world });
  const directory = createDirectory(world);
  try {
    const noRule = probe({ access: undefined as unknown as Endpoint['access'] });
    expect(() => registerEndpoints(service.app, directory, [noRule])).toThrow('endpoint probe.get has no complete access rule');
    const noRole = probe({ access: { ...RULE, role: undefined as unknown as 'visible' } });
    expect(() => registerEndpoints(service.app, directory, [noRole])).toThrow('has no complete access rule');
    expect(() => registerEndpoints(service.app, directory, [probe({ body: Type.Object({}) })])).toThrow(
      'endpoint probe.get: its body schema has no title',
    );
    expect(() => registerEndpoints(service.app, directory, [probe(), probe({ id: 'probe.again' })])).toThrow(
      'endpoint probe.again (GET /repos/:owner/:repo/probe) is defined twice',
    );
  } finally {
    await service.close();
  }
});

test('a declared endpoint runs behind its access rule: a hidden repository is 404 before the handler', async () => {
  const service = createReferenceService({ world });
  const directory = createDirectory(world);
  let handled = 0;
  registerEndpoints(service.app, directory, [
    probe({ id: 'probe.count', path: '/repos/:owner/:repo/count', handler: async () => ({ handled: ++handled }) }),
  ]);
  try {
    const headers = { 'user-agent': 'touchstone-tests' };
    const open = await service.app.inject({ url: '/repos/octo-org/widgets/count', headers });
    expect(open.json()).toEqual({ handled: 1 });
    const hidden = await service.app.inject({ url: '/repos/octo-org/no-such-repository/count', headers });
    expect(hidden.statusCode).toBe(404);
    expect(handled).toBe(1);
  } finally {
    await service.close();
  }
});

test('every area declares unique endpoint ids and spec numbers, each with a body schema titled for errors[].resource', () => {
  const endpoints = createStore(world, AREAS).areas.flatMap((area) => area.endpoints);
  // The ten endpoints the first two areas brought are among them (a lost area would show here).
  expect(endpoints.length).toBeGreaterThanOrEqual(10);
  expect(new Set(endpoints.map((e) => e.id)).size).toBe(endpoints.length);
  expect(new Set(endpoints.map((e) => `${e.spec.document}.${e.spec.number}`)).size).toBe(endpoints.length);
  for (const endpoint of endpoints.filter((e) => e.body))
    expect((endpoint.body as { title?: string }).title, endpoint.id).toMatch(/^[A-Z]\w+$/);
});

test('every area folder has its endpoint tests and its checks by a real client (@octokit/rest)', () => {
  const areasDir = fileURLToPath(new URL('./areas/', import.meta.url));
  const folders = readdirSync(areasDir, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  expect(folders.map((f) => f.name).sort()).toEqual(AREAS.map((area) => area.name).sort());
  for (const folder of folders)
    for (const file of ['endpoints.test.ts', 'octokit.test.ts'])
      expect(existsSync(path.join(areasDir, folder.name, file)), `areas/${folder.name}/${file}`).toBe(true);
});

test('content negotiation per endpoint: the Accept header selects among the representations it declares', async () => {
  const service = createReferenceService({ world });
  const directory = createDirectory(world);
  const echo = (id: string, path: string, representations?: Endpoint['representations']) =>
    probe({ id, path, representations, handler: async (request) => ({ representation: request.representation }) });
  registerEndpoints(service.app, directory, [
    echo('probe.raw', '/repos/:owner/:repo/with-raw', ['raw']),
    echo('probe.json', '/repos/:owner/:repo/json-only'),
  ]);
  const ask = async (path: string, accept?: string) => {
    const response = await service.app.inject({
      url: `/repos/octo-org/widgets/${path}`,
      headers: { 'user-agent': 'touchstone-tests', ...(accept && { accept }) },
    });
    return response.statusCode === 200 ? response.json().representation : response.statusCode;
  };
  try {
    expect(await ask('with-raw')).toBe('json');
    expect(await ask('with-raw', 'application/vnd.service.raw+json')).toBe('raw');
    expect(await ask('with-raw', 'text/html, application/vnd.service.raw+json;q=0.5')).toBe('raw');
    expect(await ask('with-raw', 'application/vnd.service.html+json'), 'a PARAM it does not offer: its JSON').toBe('json');
    expect(await ask('json-only', 'application/vnd.service.raw+json')).toBe('json');
    expect(await ask('json-only', 'text/html')).toBe(415);
  } finally {
    await service.close();
  }
});

test('a handler answers by what it returns, sync or async: a body, nothing (no body), or the reply it sent through', async () => {
  const service = createReferenceService({ world });
  const directory = createDirectory(world);
  const handlers: Record<string, Endpoint['handler']> = {
    'sync-body': () => ({ sync: true }),
    'async-body': async () => ({ sync: false }),
    'sync-nothing': (_request, reply) => {
      reply.code(202);
    },
    'sync-throws': () => {
      throw new Error('handler bug');
    },
    'sync-reply': (_request, reply) => reply.code(201).send({ sent: true }),
    'async-reply': async (_request, reply) => reply.code(201).send({ sent: true }),
  };
  registerEndpoints(
    service.app,
    directory,
    Object.entries(handlers).map(([name, handler]) => probe({ id: `probe.${name}`, path: `/repos/:owner/:repo/${name}`, handler })),
  );
  const get = (name: string) =>
    service.app.inject({ url: `/repos/octo-org/widgets/${name}`, headers: { 'user-agent': 'touchstone-tests' } });
  try {
    expect((await get('sync-body')).json()).toEqual({ sync: true });
    expect((await get('async-body')).json()).toEqual({ sync: false });
    const nothing = await get('sync-nothing');
    expect([nothing.statusCode, nothing.body]).toEqual([202, '']);
    expect((await get('sync-throws')).statusCode).toBe(500);
    for (const name of ['sync-reply', 'async-reply']) {
      const sent = await get(name);
      expect([sent.statusCode, sent.json()], name).toEqual([201, { sent: true }]);
    }
  } finally {
    await service.close();
  }
});
