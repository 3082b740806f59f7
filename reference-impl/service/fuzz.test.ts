// Property-based fuzzing of every endpoint of the reference, generated from its own OpenAPI
// document (the route schemas): each request is the endpoint's method and path with path
// parameters from the world or hostile (overlong, traversal, bad percent-encoding, control
// characters), random query parameters, credentials, Accept, version, content types and
// bodies (valid by the schema, then with wrong types, missing and unknown fields, malformed
// JSON, deep nesting, bodies over the size limit, invalid UTF-8, a BOM, UTF-16).
//
// Properties, for every request: never a 5xx; an error is the documented error body (JSON
// with message, documentation_url and status); and a refused request (4xx) changes nothing
// (the control API's state digest is the same before and after). The service still answers
// afterwards.
//
// Requests go through Fastify's request injection: the same routing, hooks, parsers and
// handlers as a socket, 10,000 requests in seconds. (Malformed HTTP framing is covered by
// error-handler.test.ts over a real socket.)
//
// Seeded and reproducible: TOUCHSTONE_FUZZ_SEED chooses the seed; without it the seed is the
// date (UTC, YYYYMMDD, fixed by playwright.config.ts as the run starts), so each day's CI
// explores new inputs and a failure on a given day replays exactly. fast-check prints the seed and the shrunk request on failure;
// TOUCHSTONE_FUZZ_RUNS changes the number of requests per part (default 2,500, four parts).
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { expect, test } from './service.fixture.js';
import type { World } from './world-model.js';

const RUNS = Number(process.env.TOUCHSTONE_FUZZ_RUNS ?? 2500);
const SEED = Number(process.env.TOUCHSTONE_FUZZ_SEED);
if (!Number.isSafeInteger(SEED)) throw new Error(`TOUCHSTONE_FUZZ_SEED must be an integer, got ${process.env.TOUCHSTONE_FUZZ_SEED}`);
const PARTS = 4;
const MUTATIONS = [
  'none',
  'none',
  'none',
  'method',
  'repository',
  'params',
  'query',
  'authorization',
  'accept',
  'version',
  'user-agent',
  'content-type',
  'body',
  'body',
] as const;
type Mutation = (typeof MUTATIONS)[number];

/**
 * A check inside the property: a plain throw that fast-check catches, shrinks and reports.
 * Not Playwright's `expect`: every `expect` call is a test step the runner keeps, and with
 * 20,000 of them per part the steps' bookkeeping (a search of the steps so far, per call)
 * took three quarters of the test's time (a CPU profile: 75 of 100 s).
 */
function check(ok: boolean, where: string, expected: string): asserts ok {
  if (!ok) throw new Error(`${where}: expected ${expected}`);
}

interface Operation {
  method: string;
  /** OpenAPI path: `/repos/{owner}/{repo}`. */
  path: string;
  body?: JsonSchema;
}

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  $ref?: string;
}

const HOSTILE_SEGMENTS = [
  '..',
  '%2e%2e',
  '%zz',
  '%00',
  '%2F',
  'a'.repeat(101),
  '0',
  '-1',
  '99999999999999999999',
  '1e3',
  'é',
  '%F0%9F%92%A9',
  '%C3%28',
  ' ',
  '~',
  'null',
];

/** A value drawn from the schema: mostly valid, at its boundaries. */
function fromSchema(schema: JsonSchema, resolve: (ref: string) => JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.$ref) return fromSchema(resolve(schema.$ref), resolve, depth);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return fc.oneof(...options.map((s) => fromSchema(s, resolve, depth)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record = Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, fromSchema(child, resolve, depth + 1)]));
      return fc.record(record, { requiredKeys: Object.keys(properties).filter((key) => required.has(key)) });
    }
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(fromSchema(schema.items ?? {}, resolve, depth + 1), { maxLength: 4 });
    case 'integer':
      return fc.oneof(
        fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1_000_000 }),
        fc.constantFrom(schema.minimum ?? 0, schema.maximum ?? 0, 0, -1, 2 ** 31, 2 ** 53),
      );
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'string':
      return fc.oneof(
        fc.string({ minLength: 1, maxLength: Math.min(40, schema.maxLength ?? 40) }),
        fc.constantFrom('main', 'all', 'README.md'),
      );
    default:
      return anyJson;
  }
}

const anyJson = fc.jsonValue({ maxDepth: 3 });

/** Bytes no schema accepts, by name: a counterexample then prints the name, not a megabyte. */
const HOSTILE_BODIES: Record<string, () => string | Buffer> = {
  'unterminated object': () => '{',
  'cut after a key': () => '{"a":',
  null: () => 'null',
  'empty array': () => '[]',
  'a string': () => '"text"',
  'lone surrogate escape': () => '{"name": "\\ud800"}',
  'byte order mark': () => '\uFEFF{}',
  '5,000 nested arrays': () => `${'['.repeat(5000)}${']'.repeat(5000)}`,
  '2,000 nested objects': () => `{"a":${'{"a":'.repeat(2000)}1${'}'.repeat(2001)}`,
  'invalid UTF-8': () => Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
  'UTF-16': () => Buffer.from('{"name":"x"}', 'utf16le'),
  'over 1 MiB': () => `{"value":"${'v'.repeat(1024 * 1024)}"}`,
};

class HostileBody {
  constructor(readonly name: string) {}
  bytes(): string | Buffer {
    return HOSTILE_BODIES[this.name]();
  }
  [fc.toStringMethod](): string {
    return `<${this.name}>`;
  }
}

/** Valid bodies, then the same with a wrong type, a missing or unknown field; then bytes no schema accepts. */
function bodies(schema: JsonSchema | undefined, resolve: (ref: string) => JsonSchema): fc.Arbitrary<string | HostileBody | undefined> {
  const valid = schema ? fromSchema(schema, resolve) : anyJson;
  const json = (value: fc.Arbitrary<unknown>) => value.map((v) => JSON.stringify(v) ?? 'null');
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 6, arbitrary: json(valid) },
    {
      weight: 2,
      arbitrary: json(fc.tuple(valid, fc.string({ maxLength: 12 }), anyJson).map(([v, k, x]) => (isObject(v) ? { ...v, [k]: x } : x))),
    },
    {
      weight: 2,
      arbitrary: json(fc.tuple(valid, anyJson).map(([v, x]) => (isObject(v) ? Object.fromEntries(Object.keys(v).map((k) => [k, x])) : x))),
    },
    { weight: 1, arbitrary: json(anyJson) },
    { weight: 2, arbitrary: fc.constantFrom(...Object.keys(HOSTILE_BODIES)).map((name) => new HostileBody(name)) },
  );
}

/** The world's values for a path parameter; those of a repository's own things come from the request's repository. */
function worldPools(world: World, valuesOf: (key: string) => string[]) {
  const organizations = world.organizations.map((o) => o.login);
  const users = world.users.map((u) => u.login);
  const repositoryOf = (r: { owner: string; repo: string }) => world.repositories.find((w) => w.owner === r.owner && w.name === r.repo);
  const fixed: Record<string, string[]> = {
    org: organizations,
    username: users,
    assignee: users,
    repository_id: world.repositories.map((r) => String(r.id)),
    team_slug: valuesOf('slug'),
    protection_rule_id: valuesOf('id'),
    path: ['README.md', 'docs', 'src/index.ts', ...valuesOf('path')],
    dir: ['docs', 'src', ...valuesOf('path')],
    file_sha: valuesOf('sha'),
    ref: ['main', 'HEAD', 'v1.0'],
    archive_format: ['tarball', 'zipball', 'zip'],
  };
  return (param: string, repository: { owner: string; repo: string }): string[] => {
    const own = repositoryOf(repository);
    const runs = own?.workflow_runs ?? [];
    switch (param) {
      case 'issue_number':
        return (own?.issues ?? []).map((i) => String(i.number));
      case 'environment_name':
        return (own?.environments ?? []).map((e) => e.name);
      case 'run_id':
        return runs.map((run) => String(run.id));
      case 'artifact_id':
        return runs.flatMap((run) =>
          (run.artifacts ?? []).flatMap((a) =>
            'id' in a ? [String(a.id)] : [a.series.first_id, a.series.first_id + a.series.count - 1].map(String),
          ),
        );
      default:
        return fixed[param] ?? valuesOf('name');
    }
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

test.describe('fuzzing every endpoint', () => {
  test.describe.configure({ mode: 'parallel' });
  for (let part = 0; part < PARTS; part++) {
    test(`part ${part + 1} of ${PARTS}: no 5xx, the documented error body, and no change after a refused request (seed ${SEED})`, async ({
      service,
      world,
    }) => {
      test.setTimeout(300_000);
      const inject = (options: InjectOptions) => service.app.inject(options);
      const document = (await inject({ method: 'GET', url: '/_conformance/openapi.json' })).json() as {
        paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
        components: { schemas: Record<string, JsonSchema> };
      };
      const resolve = (ref: string) => document.components.schemas[ref.split('/').at(-1)!] ?? {};
      const operations: Operation[] = Object.entries(document.paths)
        .flatMap(([path, methods]) =>
          Object.entries(methods).map(([method, op]) => ({
            method: method.toUpperCase(),
            path,
            body: op.requestBody?.content['application/json']?.schema,
          })),
        )
        .filter((_, i) => i % PARTS === part);
      expect(operations.length).toBeGreaterThan(10);

      // Path parameter values: the world's, chosen for the request's repository where they
      // belong to one (so requests get past the 404s), or hostile ones.
      const byKey = new Map<string, Set<string>>();
      JSON.stringify(world, (key, value) => {
        if (typeof value === 'string' || typeof value === 'number') byKey.set(key, (byKey.get(key) ?? new Set()).add(String(value)));
        return value;
      });
      const valuesOf = (key: string) => [...(byKey.get(key) ?? [])];
      const pools = worldPools(world, valuesOf);
      const hostile = fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
        { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map(encodeURIComponent) },
      );
      const segmentFor = (param: string) =>
        fc.oneof({ weight: 4, arbitrary: fc.nat().map((pick) => ({ pick, param })) }, { weight: 1, arbitrary: hostile });
      const params = [...new Set(operations.flatMap((op) => [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])))];
      const repositories = world.repositories.map((r) => ({ owner: r.owner, repo: r.name }));
      const pick = (value: string | { pick: number; param: string }, repository: { owner: string; repo: string }) => {
        if (typeof value === 'string') return value;
        const pool = pools(value.param, repository);
        return pool.length > 0 ? encodeURIComponent(pool[value.pick % pool.length]) : 'none';
      };
      const bodiesOf = new Map(operations.map((op) => [op, bodies(op.body, resolve)]));
      const validBodiesOf = new Map(
        operations.map((op): [Operation, fc.Arbitrary<string | undefined>] => [
          op,
          op.body ? fromSchema(op.body, resolve).map((v) => JSON.stringify(v)) : fc.constant(undefined),
        ]),
      );
      const tokens = world.tokens.map((t) => t.value);
      // The roles that may do most: without them most requests stop at 403 and 404.
      const powerful = world.tokens.filter((t) => ['org-owner', 'repo-admin', 'user-owner'].includes(t.role)).map((t) => t.value);
      const header = <T>(weights: [number, fc.Arbitrary<T>][]) =>
        fc.oneof(...weights.map(([weight, arbitrary]) => ({ weight, arbitrary })));
      // Most requests are valid but for one thing (the mutation), so each refusal has one cause
      // and the valid ones reach the handlers; a fifth are valid through and through.
      const request = fc.record({
        mutation: fc.constantFrom(...MUTATIONS),
        validRepository: fc.constantFrom(...repositories),
        validParams: fc.record(Object.fromEntries(params.map((param) => [param, fc.nat().map((pick) => ({ pick, param }))]))),
        validToken: fc.constantFrom(...powerful),
        operation: fc.constantFrom(...operations),
        otherMethod: fc.option(fc.constantFrom('GET', 'PUT', 'POST', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'), { freq: 10 }),
        repository: fc.oneof(
          { weight: 9, arbitrary: fc.constantFrom(...repositories) },
          { weight: 1, arbitrary: fc.record({ owner: hostile, repo: hostile }) },
        ),
        params: fc.record(Object.fromEntries(params.map((param) => [param, segmentFor(param)]))),
        query: fc.option(
          fc.dictionary(
            fc.constantFrom('per_page', 'page', 'since', 'ref', 'q', 'direction', 'x'),
            fc.oneof(fc.constantFrom('0', '1', '100', '101', '-1', 'abc', '', '1e9', '%zz')),
            { maxKeys: 3 },
          ),
          { freq: 3 },
        ),
        authorization: header<string | undefined>([
          [4, fc.constantFrom(...powerful).map((t) => `Bearer ${t}`)],
          [3, fc.constantFrom(...tokens).map((t) => `Bearer ${t}`)],
          [1, fc.constant(undefined)],
          [1, fc.constantFrom('Bearer', 'Bearer nope_nope', 'Basic !!', 'token  ', `Bearer ${'t'.repeat(5000)}`)],
        ]),
        accept: header<string | undefined>([
          [6, fc.constantFrom('application/vnd.service+json', 'application/json', '*/*')],
          [1, fc.constant(undefined)],
          [1, fc.constantFrom('application/vnd.service.raw+json', 'text/html', 'application/vnd.service.object+json;q=0.5, */*', ',,,')],
        ]),
        version: header<string | undefined>([
          [8, fc.constant('2022-11-28')],
          [1, fc.constant(undefined)],
          [1, fc.constantFrom('1999-01-01', '', 'latest')],
        ]),
        userAgent: header<string | undefined>([
          [9, fc.constant('touchstone-fuzz')],
          [1, fc.constantFrom(undefined, '', ' ')],
        ]),
        contentType: header<string | undefined>([
          [6, fc.constant('application/json')],
          [1, fc.constant(undefined)],
          [
            1,
            fc.constantFrom(
              'text/plain',
              'application/x-www-form-urlencoded',
              'application/json; charset=utf-16',
              'application/vnd.service+json',
              'multipart/form-data; boundary=x',
            ),
          ],
        ]),
      });

      let requests = 0;
      const statuses = new Map<number, number>();
      const succeeded = new Set<string>();
      let previous = '(none)';
      let stateMs = 0;
      let requestMs = 0;
      const started = performance.now();
      await fc.assert(
        fc.asyncProperty(
          request.chain((r) => (r.mutation === 'body' ? bodiesOf : validBodiesOf).get(r.operation)!.map((body) => ({ ...r, body }))),
          async (r) => {
            const mutated = <T>(dimension: Mutation, value: T, valid: T): T => (r.mutation === dimension ? value : valid);
            const repository = mutated('repository', r.repository, r.validRepository);
            const params = mutated('params', r.params, r.validParams);
            const path = r.operation.path.replace(/\{([^}]+)\}/g, (_, param: string) =>
              param === 'owner' || param === 'repo' ? repository[param] : pick(params[param], repository),
            );
            const queryPairs = mutated('query', r.query, null);
            const query = queryPairs
              ? `?${Object.entries(queryPairs)
                  .map(([k, v]) => `${k}=${v}`)
                  .join('&')}`
              : '';
            const headers: Record<string, string> = {};
            const set = (name: string, value: string | undefined) => value !== undefined && (headers[name] = value);
            set('authorization', mutated('authorization', r.authorization, `Bearer ${r.validToken}`));
            set('accept', mutated('accept', r.accept, 'application/vnd.service+json'));
            set('x-service-api-version', mutated('version', r.version, '2022-11-28'));
            set('user-agent', mutated('user-agent', r.userAgent, 'touchstone-fuzz') ?? '');
            if (r.body !== undefined) set('content-type', mutated('content-type', r.contentType, 'application/json'));
            const otherMethod = mutated('method', r.otherMethod, null);
            const method = (otherMethod ?? r.operation.method) as InjectOptions['method'];
            const state = async () => {
              const t0 = performance.now();
              const areas = (await inject({ method: 'GET', url: '/_conformance/state' })).json().areas as Record<string, string>;
              stateMs += performance.now() - t0;
              return areas;
            };
            const before = await state();
            const payload = r.body instanceof HostileBody ? r.body.bytes() : r.body;
            const t1 = performance.now();
            const response = await inject({ method, url: `${path}${query}`, headers, payload });
            requestMs += performance.now() - t1;
            requests++;
            statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
            if (response.statusCode < 300 && !otherMethod) succeeded.add(`${r.operation.method} ${r.operation.path}`);
            // The first bytes only: an answer can be a 100 MB archive, and decoding it whole for a
            // message nobody reads would cost more than the request.
            const where = `${method} ${path}${query} → ${response.statusCode} ${response.rawPayload.subarray(0, 200).toString()}`;
            check(response.statusCode < 500, where, 'a status under 500');
            if (response.statusCode >= 400) {
              if (method !== 'HEAD') {
                const type = response.headers['content-type'];
                check(type === 'application/json; charset=utf-8', where, `the error as JSON, not ${type}`);
                const body = response.json() as Record<string, unknown>;
                check(typeof body.message === 'string', where, 'a message in the error body');
                check(typeof body.documentation_url === 'string', where, 'a documentation_url in the error body');
                check(
                  body.status === String(response.statusCode),
                  where,
                  `status "${response.statusCode}" in the error body, not ${JSON.stringify(body.status)}`,
                );
              }
              const after = await state();
              const changed = Object.keys(after).filter((area) => after[area] !== before[area]);
              check(
                changed.length === 0,
                `${where} (the request before: ${previous})`,
                `a refused request to change nothing, but it changed the state of ${changed.join(', ')}`,
              );
            }
            previous = `${method} ${path}${query} → ${response.statusCode}`;
          },
        ),
        { seed: SEED, numRuns: RUNS },
      );
      expect(requests).toBeGreaterThanOrEqual(RUNS);
      // Still serving.
      expect((await inject({ method: 'GET', url: '/_conformance/capabilities' })).statusCode).toBe(200);
      const byStatus = [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${n}`)
        .join(' ');
      console.log(`fuzz part ${part + 1}: ${requests} requests over ${operations.length} endpoints, seed ${SEED}: ${byStatus}`);
      // The generator must reach past the conventions and auth, or it tests only them: most
      // endpoints answered at least one request with success.
      console.log(
        `  endpoints with a success: ${succeeded.size} of ${operations.length}; ${(stateMs / 1000).toFixed(1)} s digests, ${(requestMs / 1000).toFixed(1)} s requests, ${((performance.now() - started) / 1000).toFixed(1)} s in all`,
      );
      expect(succeeded.size, byStatus).toBeGreaterThanOrEqual(operations.length / 2);
    });
  }
});
