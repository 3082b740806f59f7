// The control API is one contract (lib/control-contract.ts) held equal four ways: the routes
// the reference serves, the requests the harness sends (its client and the suites' control
// steps), the OpenAPI document `touchstone openapi --control` prints, and the prose of
// docs/target-contract.md.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { CAPABILITIES, CONTROL_ROUTES, controlOpenApiDocument, REFERENCE_ONLY, type ControlRoute } from '../../lib/control-contract.js';
import { projectPath } from '../../lib/project-files.js';
import { createReferenceService } from '../../reference-impl/service/service.js';
import { loadWorld } from '../../reference-impl/service/world-loader.js';
import { createAjv } from '../core/validated-file.js';
import { suitePaths } from '../core/suite-paths.js';
import { loadSuites } from './suite-loader.js';
import { createTargetControl } from '../http/target-control.js';
import type { WireRequest } from '../http/transport.js';

const key = (method: string, path: string) => `${method} ${path}`;
const contractKeys = CONTROL_ROUTES.map((r) => key(r.method, r.path)).sort();
const routeOf = (method: string, path: string): ControlRoute | undefined =>
  CONTROL_ROUTES.find((r) => r.method === method && r.path === path);
const ajv = createAjv({ strict: false });

test('the reference serves exactly the contract routes, each answering as the contract says', async () => {
  const service = createReferenceService({ world: loadWorld() });
  try {
    await service.app.ready();
    const served = service.app
      .printRoutes({ commonPrefix: false })
      .split('\n')
      .flatMap((line) => {
        const match = /(\/_conformance\S*) \(([^)]+)\)/.exec(line);
        return match
          ? match[2]
              .split(', ')
              .filter((m) => m !== 'HEAD')
              .map((m) => key(m, match[1]))
          : [];
      })
      .sort();
    expect(served).toEqual(contractKeys);

    const { capabilities } = (await service.app.inject({ method: 'GET', url: '/_conformance/capabilities' })).json();
    expect(capabilities).toEqual([...CAPABILITIES]);

    // A harmless body for each route that takes one: what the harness itself sends.
    const bodies: Record<string, unknown> = {
      'POST /_conformance/clock': { advance_seconds: 0 },
      'POST /_conformance/failures': { storage: 0 },
      'POST /_conformance/secret-keys/rotate': { repository: 'octo-org/widgets' },
      'POST /_conformance/faults': { faults: [] },
      'POST /_conformance/variants': { variants: [] },
    };
    for (const route of CONTROL_ROUTES) {
      const name = key(route.method, route.path);
      const payload = bodies[name];
      const response = await service.app.inject({
        method: route.method,
        url: route.path,
        ...(payload !== undefined && { payload: payload as object }),
      });
      expect(response.statusCode, name).toBe(route.status);
      if (route.answer) {
        const validate = ajv.compile(JSON.parse(JSON.stringify(route.answer)));
        expect(validate(response.json()), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      } else expect(response.body, name).toBe('');
    }
    // A date alone is not an instant: the clock refuses it.
    const dateOnly = await service.app.inject({ method: 'POST', url: '/_conformance/clock', payload: { set: '2024-03-01' } });
    expect(dateOnly.statusCode).toBe(422);
  } finally {
    await service.close();
  }
});

test('the harness sends only contract routes, with bodies the contract takes, and every route a run calls is sent', async () => {
  const sent: WireRequest[] = [];
  const control = createTargetControl(
    'http://target.invalid',
    async (request) => {
      sent.push(request);
      return { status: 200, headers: [], body: Buffer.from('{"capabilities":[]}') };
    },
    'test',
  );
  await control.capabilities();
  await control.reset();
  await control.clock({ set: '2024-03-01T00:00:00Z' });
  await control.clock({ advance_seconds: 60 });
  await control.inject({ storage: 1 });
  await control.faults(['x']);
  await control.variants(['y']);
  const requests = sent.map((r) => ({
    method: r.method,
    path: new URL(r.url).pathname,
    body: r.body && JSON.parse(r.body.toString('utf8')),
    token: r.headers.some(([h]) => h.toLowerCase() === 'authorization'),
  }));

  // The suites' own control steps (the key rotation) are requests to a path, as their role.
  for (const suite of loadSuites(suitePaths.service))
    for (const testCase of suite.cases)
      for (const step of 'steps' in testCase ? testCase.steps : [])
        if ('request' in step && step.request.path?.startsWith('/_conformance/'))
          requests.push({ method: step.request.method, path: step.request.path, body: step.request.body, token: true });

  for (const request of requests) {
    const route = routeOf(request.method, request.path);
    expect(route, `${request.method} ${request.path} is not in the contract`).toBeDefined();
    if (route?.body && request.body !== undefined) {
      const validate = ajv.compile(JSON.parse(JSON.stringify(route.body)));
      expect(validate(request.body), `${request.method} ${request.path}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    // The client's own calls carry no token; the contract says no route needs one.
    if (request.path !== '/_conformance/secret-keys/rotate') expect(request.token, request.path).toBe(false);
  }
  const called = new Set(requests.map((r) => key(r.method, r.path)));
  const calledByRun = CONTROL_ROUTES.filter((r) => r.calledByRun).map((r) => key(r.method, r.path));
  expect(calledByRun.filter((k) => !called.has(k))).toEqual([]);
  // And the reference-only switches, which the kill matrix sends, are the only others the client knows.
  expect([...called].filter((k) => !calledByRun.includes(k)).sort()).toEqual(['POST /_conformance/faults', 'POST /_conformance/variants']);
});

test('`touchstone openapi --control` is valid OpenAPI 3.1 with exactly the contract routes', async () => {
  const document = controlOpenApiDocument('0.0.0') as { paths: Record<string, Record<string, { 'x-capability': string | null }>> };
  const validator = new Validator();
  const { valid, errors } = await validator.validate(document);
  expect(errors).toBeUndefined();
  expect(valid).toBe(true);
  const documented = Object.entries(document.paths)
    .flatMap(([path, item]) => Object.keys(item).map((method) => key(method.toUpperCase(), path)))
    .sort();
  expect(documented).toEqual(contractKeys);
});

test('docs/target-contract.md explains every route and every capability', () => {
  const text = readFileSync(projectPath('docs/target-contract.md'), 'utf8');
  for (const route of CONTROL_ROUTES) expect(text, key(route.method, route.path)).toContain(`${route.method} ${route.path}`);
  for (const capability of CAPABILITIES) expect(text, capability).toContain(`\`${capability}\``);
  for (const capability of REFERENCE_ONLY) expect(text).toContain(capability);
});
