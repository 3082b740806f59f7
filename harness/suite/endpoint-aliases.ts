// Endpoints by id (suites/endpoints/<area>.yaml, ids unique across the files): a request in a
// suite names `endpoint: ID` instead of restating the method and path, and a suite's `params` give the path parameters its
// requests use unless they say otherwise. Both are resolved when a suite is loaded, so
// everything after the loader sees plain requests with a method, a path and their params.
import { Type, type Static } from 'typebox';
import { HarnessError } from '../core/errors.js';
import { schemaFile, type SchemaFile } from '../core/schema-document.js';
import { ENDPOINT_ID_PATTERN, type Case, type RequestSpec, type WrittenRequest } from '../core/suite-format.js';
import { suitePaths } from '../core/suite-paths.js';
import { compileSchemaFile, createAjv, readValidatedFile } from '../core/validated-file.js';
import { listYamlFiles } from '../core/requirement-registry.js';
import { projectPath } from '../../lib/project-files.js';

const EndpointAliasSchema = Type.Object(
  {
    id: Type.String({ pattern: ENDPOINT_ID_PATTERN }),
    spec: Type.String({ pattern: '^[12]\\.[1-9][0-9]*$', description: 'document.number in the specification' }),
    method: Type.Enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']),
    path: Type.String({ pattern: '^/', description: 'the path template as the specification writes it: /repos/{owner}/{repo}/assignees' }),
  },
  { additionalProperties: false },
);

export type EndpointAlias = Static<typeof EndpointAliasSchema>;

export const endpointsSchemaFile: SchemaFile = schemaFile(
  'harness/suite/endpoints.schema.json',
  {
    $id: 'touchstone:endpoints',
    title: 'the endpoints of one area of the service (suites/endpoints/<area>.yaml), which requests name by id',
  },
  Type.Array(EndpointAliasSchema, { minItems: 1 }),
);

const SCHEMA = projectPath(endpointsSchemaFile.path);

export function loadEndpointAliases(dir: string = suitePaths.endpoints): ReadonlyMap<string, EndpointAlias> {
  const validate = compileSchemaFile(createAjv(), SCHEMA);
  const byId = new Map<string, EndpointAlias>();
  for (const file of listYamlFiles(dir)) {
    for (const endpoint of readValidatedFile<EndpointAlias[]>(file, validate)) {
      if (byId.has(endpoint.id)) throw new HarnessError('CONFIG', `${file}: endpoint ${endpoint.id} is listed twice`);
      byId.set(endpoint.id, endpoint);
    }
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
