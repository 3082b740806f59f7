// The OpenAPI 3.1 document of the reference service, generated from its endpoint definitions
// (method, path, summary, access rule, body schema, responses) and the resource schemas of the
// suites they name: `touchstone openapi` prints it, GET /_conformance/openapi.json serves it.
// Decisions, where the definitions say nothing:
// - errors are documented once for every endpoint: any 4XX answers the error body (or, for a
//   422, the validation error), any 5XX the error body; their statuses per endpoint are the
//   spec's, and the suites check them;
// - every GET may answer 304 to a matching If-None-Match (ETags, conventions), and every
//   endpoint under /repos/{owner}/{repo} a redirect when the repository was renamed (302 for
//   GET and HEAD, 307 otherwise);
// - query parameters (pagination, filters) are read by the handlers and not declared here;
// - the resource schemas lose their $id and $schema, and their references (`user.json`,
//   `#/$defs/x`) point into the document (#/components/schemas/...): tools that resolve only
//   references inside one document read it whole.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { specPath, type Endpoint, type ResponseBody } from './endpoint.js';
import { projectPath } from '../../lib/project-files.js';

export const SCHEMAS_DIR = projectPath('suites/schemas');
const ERROR_SCHEMAS = ['error', 'validation-error'] as const;

type Json = Record<string, unknown>;

const ref = (name: string): Json =>
  name.endsWith('[]') ? { type: 'array', items: ref(name.slice(0, -2)) } : { $ref: `#/components/schemas/${name}` };

/** A reference of schema `from` (`x.json`, `x.json#/p`, `#/p`) as one into the document. */
function inDocument(from: string, reference: string): string {
  const [file, pointer = ''] = reference.split('#');
  const name = file === '' ? from : file.replace(/\.json$/, '');
  return `#/components/schemas/${name}${pointer}`;
}

/** The schemas the document names, by name, from suites/schemas. */
function resourceSchemas(names: Set<string>): Record<string, Json> {
  const known = new Set(
    readdirSync(SCHEMAS_DIR)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -5)),
  );
  // Whatever a named schema references by file name comes along.
  const wanted = [...names];
  const schemas: Record<string, Json> = {};
  while (wanted.length > 0) {
    const name = wanted.pop()!;
    if (schemas[name]) continue;
    if (!known.has(name)) throw new Error(`an endpoint names schema ${name}, which suites/schemas does not have`);
    const text = readFileSync(path.join(SCHEMAS_DIR, `${name}.json`), 'utf8');
    const { $id, $schema, ...schema } = JSON.parse(text, (key, value) => (key === '$ref' ? inDocument(name, value) : value)) as Json;
    schemas[name] = schema;
    for (const [, other] of text.matchAll(/"\$ref":\s*"([\w-]+)\.json/g)) wanted.push(other);
  }
  return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
}

function responseObject(status: number, bodies: readonly ResponseBody[]): Json {
  if (bodies.includes('redirect')) return { description: 'Found: follow Location', headers: { Location: { schema: { type: 'string' } } } };
  const schemas = bodies.filter((b) => b !== 'empty');
  if (schemas.length === 0) return { description: status === 204 ? 'No content' : 'An empty body, or an empty JSON object' };
  const one = (b: ResponseBody) => (b === 'json' ? {} : ref(b));
  const schema =
    schemas.length === 1 && schemas.length === bodies.length
      ? one(schemas[0])
      : { oneOf: [...schemas.map(one), ...(schemas.length < bodies.length ? [{ type: 'object', maxProperties: 0 }] : [])] };
  return { description: 'Success', content: { 'application/json': { schema } } };
}

function operation(endpoint: Endpoint): Json {
  const template = specPath(endpoint.path);
  const parameters = [...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const responses: Json = {};
  for (const [status, body] of Object.entries(endpoint.responses)) responses[status] = responseObject(Number(status), [body].flat());
  if (endpoint.method === 'GET') responses['304'] = { description: 'Not Modified: the If-None-Match ETag still matches' };
  if (template.startsWith('/repos/{owner}/{repo}'))
    responses[endpoint.method === 'GET' ? '302' : '307'] ??= {
      description: 'The repository was renamed: the same request at Location',
      headers: { Location: { schema: { type: 'string' } } },
    };
  responses['4XX'] = {
    description: 'The request cannot be answered (401, 403, 404, 409, 410, 413, 415, 422 as the spec says)',
    content: { 'application/json': { schema: { oneOf: ERROR_SCHEMAS.map(ref) } } },
  };
  responses['5XX'] = { description: 'The service failed', content: { 'application/json': { schema: ref('error') } } };
  return {
    operationId: endpoint.id,
    summary: endpoint.summary,
    tags: [endpoint.id.split('.')[0]],
    ...(parameters.length > 0 && { parameters }),
    ...(endpoint.body && {
      requestBody: { required: true, content: { 'application/json': { schema: JSON.parse(JSON.stringify(endpoint.body)) } } },
    }),
    responses,
    // Anonymous callers may call some endpoints (public repositories, public profiles).
    security: endpoint.access.anonymous ? [{}, { token: [] }] : [{ token: [] }],
    'x-spec': `${endpoint.spec.document}.${endpoint.spec.number}`,
  };
}

export function openApiDocument(endpoints: readonly Endpoint[], version: string): Json {
  const paths: Record<string, Json> = {};
  const named = new Set<string>(ERROR_SCHEMAS);
  for (const endpoint of endpoints) {
    const template = specPath(endpoint.path);
    paths[template] = { ...paths[template], [endpoint.method.toLowerCase()]: operation(endpoint) };
    for (const body of Object.values(endpoint.responses).flat())
      if (!['empty', 'redirect', 'json'].includes(body)) named.add(body.replace(/\[\]$/, ''));
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'touchstone reference service',
      version,
      description: 'The service the touchstone suites judge, as its reference implementation serves it.',
    },
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: resourceSchemas(named),
      securitySchemes: { token: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer TOKEN (or token TOKEN)' } },
    },
  };
}
