// Endpoints by id (suites/endpoints/<area>.yaml, ids unique across the files): a request in a
// suite names `endpoint: ID` instead of restating the method and path, and a suite's `params` give the path parameters its
// requests use unless they say otherwise. Both are resolved when a suite is loaded, so
// everything after the loader sees plain requests with a method, a path and their params.
import { Type, type Static } from 'typebox';
import { HarnessError } from '../core/errors.js';
import { anyType, nameMap, schemaFile, type SchemaFile } from '../core/schema-document.js';
import { ENDPOINT_ID_PATTERN, type Case, type Json, type RequestSpec, type WrittenRequest } from '../core/suite-format.js';
import { suitePaths } from '../core/suite-paths.js';
import path from 'node:path';
import { compileSchemaFile, createAjv, readLocatedFile } from '../core/validated-file.js';
import { sourceFile } from '../core/case-source.js';
import type { CaseSource } from '../core/results.js';
import { listYamlFiles } from '../core/requirement-registry.js';
import { projectPath } from '../../lib/project-files.js';

/**
 * A request to the endpoint that the fixture world (suites/world.yaml), just reset, answers
 * with `status`: what the cross-cutting cases (cross-cutting-cases.ts) send, each changed in
 * the one way its rule is about.
 */
const EndpointExampleSchema = Type.Object(
  {
    /** The role it acts as (its token sent as `Authorization: Bearer`); `anonymous` sends none. */
    as: Type.String({ pattern: '^[a-z][a-z0-9-]*$' }),
    /** Every path parameter the template names, from the world. */
    params: Type.Optional(nameMap(Type.String())),
    query: Type.Optional(nameMap(anyType(['string', 'number']))),
    body: Type.Optional(Type.Unsafe<Json>({})),
    /** Its status; several where the spec lets the world's answer be any of them (a DELETE of nothing: 204 or 404). */
    status: Type.Union([
      Type.Integer({ minimum: 200, maximum: 399 }),
      Type.Array(Type.Integer({ minimum: 200, maximum: 499 }), { minItems: 2, uniqueItems: true }),
    ]),
  },
  { additionalProperties: false },
);

const EndpointAliasSchema = Type.Object(
  {
    id: Type.String({ pattern: ENDPOINT_ID_PATTERN }),
    spec: Type.String({ pattern: '^[12]\\.[1-9][0-9]*$', description: 'document.number in the specification' }),
    method: Type.Enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']),
    path: Type.String({ pattern: '^/', description: 'the path template as the specification writes it: /repos/{owner}/{repo}/assignees' }),
    /** The spec lets anonymous callers use it for public data ("public data without authentication", "open to anyone"). */
    public: Type.Optional(Type.Boolean()),
    /**
     * What a request without valid credentials gets, where the spec's auth words need a token
     * here: 401 ("authentication required"), with the row's own 403 or 404 where it lists
     * those and not 401. Absent where the spec lets such a request through or does not say.
     */
    unauthenticated: Type.Optional(Type.Array(Type.Integer({ minimum: 400, maximum: 499 }), { minItems: 1, uniqueItems: true })),
    example: Type.Optional(EndpointExampleSchema),
  },
  { additionalProperties: false },
);

export type EndpointAlias = Static<typeof EndpointAliasSchema>;
export type EndpointExample = Static<typeof EndpointExampleSchema>;

export const endpointsSchemaFile: SchemaFile = schemaFile(
  'harness/suite/endpoints.schema.json',
  {
    $id: 'touchstone:endpoints',
    title: 'the endpoints of one area of the service (suites/endpoints/<area>.yaml), which requests name by id',
  },
  Type.Array(EndpointAliasSchema, { minItems: 1 }),
);

const SCHEMA = projectPath(endpointsSchemaFile.path);

/** An endpoint as the catalogue lists it, with its area (the file's name) and where it is written. */
export type CatalogueEndpoint = EndpointAlias & { area: string; file: string; source?: CaseSource };

export function loadEndpointAliases(dir: string = suitePaths.endpoints): ReadonlyMap<string, CatalogueEndpoint> {
  const validate = compileSchemaFile(createAjv(), SCHEMA);
  const byId = new Map<string, CatalogueEndpoint>();
  for (const file of listYamlFiles(dir)) {
    const { data, lineOf } = readLocatedFile<EndpointAlias[]>(file, validate);
    const area = path.basename(file, path.extname(file));
    data.forEach((endpoint, i) => {
      if (byId.has(endpoint.id)) throw new HarnessError('CONFIG', `${file}: endpoint ${endpoint.id} is listed twice`);
      const line = lineOf([i]);
      byId.set(endpoint.id, { ...endpoint, area, file, ...(line !== undefined && { source: { file: sourceFile(file), line } }) });
    });
  }
  return byId;
}

/** Every request object of a case: its own, its steps', its cleanup's and its verification's. */
function requestsOf(testCase: Case): RequestSpec[] {
  const steps =
    'steps' in testCase
      ? testCase.steps.flatMap((step) => ('request' in step ? [step.request] : 'parallel' in step ? [step.parallel.request] : []))
      : [];
  const own = 'request' in testCase ? [testCase.request] : [];
  const verify = 'verify' in testCase ? (testCase.verify ?? []).map((step) => step.request) : [];
  return [...own, ...steps, ...verify, ...(testCase.cleanup ?? []).map((step) => step.request)];
}

/**
 * Replaces, in place, each `endpoint: ID` by its method and path, and fills the path
 * parameters its template names from the suite's `params` where the request gives none.
 */
export function resolveRequests(
  cases: Case[],
  aliases: ReadonlyMap<string, EndpointAlias>,
  suiteParams: Record<string, string>,
  where: string,
): void {
  for (const testCase of cases) {
    for (const request of requestsOf(testCase) as WrittenRequest[]) {
      if (request.endpoint !== undefined) {
        const alias = aliases.get(request.endpoint);
        if (!alias)
          throw new HarnessError(
            'CONFIG',
            `${where} case ${testCase.id}: unknown endpoint ${request.endpoint}; known: ${[...aliases.keys()].join(', ')}`,
          );
        request.method = alias.method;
        request.path = alias.path;
        delete request.endpoint;
      }
      const named = [...(request.path ?? '').matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const defaults = Object.fromEntries(named.filter((name) => suiteParams[name] !== undefined).map((name) => [name, suiteParams[name]]));
      if (Object.keys(defaults).length > 0) request.params = { ...defaults, ...request.params };
    }
  }
}
