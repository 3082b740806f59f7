// `touchstone openapi` and /_conformance/openapi.json: one valid OpenAPI 3.1 document (checked by
// a validator of the OpenAPI schemas), whose schemas compile, and which agrees with the suites:
// every answer a case expects from an endpoint, with the schema it checks, is in the document.
import { expect, test } from '@playwright/test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { controlOpenApiDocument } from '../../lib/control-contract.js';
import { packageVersion } from '../../lib/project-files.js';
import { createAjv } from '../core/validated-file.js';
import type { Expectation, RequestSpec } from '../core/suite-format.js';
import { suitePaths } from '../core/suite-paths.js';
import { loadSuites } from '../suite/suite-loader.js';
import { runCli } from '../../test-support/cli-process.js';
import { startReferenceService } from './embedded-reference.js';

type Json = Record<string, any>;

async function printed(): Promise<Json> {
  const result = await runCli(['openapi']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Json;
}

test('the document is valid OpenAPI 3.1, covers the 64 endpoints, and is what the reference serves', async () => {
  const document = await printed();
  const validator = new Validator();
  const { valid, errors } = await validator.validate(document);
  expect(errors).toBeUndefined();
  expect(valid).toBe(true);
  expect(validator.version).toBe('3.1');
  const operations = Object.values(document.paths as Json).flatMap((item) => Object.values(item as Json)) as Json[];
  expect(operations).toHaveLength(64);
  expect(new Set(operations.map((o) => o.operationId)).size).toBe(64);
  for (const o of operations)
    expect(
      Object.keys(o.responses).some((status) => /^[23]\d\d$/.test(status)),
      o.operationId,
    ).toBe(true);

  const service = await startReferenceService();
  try {
    const served = await fetch(`${service.url}/_conformance/openapi.json`);
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual(document);
  } finally {
    await service.close();
  }
});

test('its schemas compile, resolving their references inside the document, and so does every request body', async () => {
  const document = await printed();
  // The document as one schema resource: references like #/components/schemas/user resolve in it.
  // Not strict: the document's own keywords (openapi, paths, …) are not schema keywords.
  const ajv = createAjv({ strict: false });
  ajv.addSchema(document, 'openapi');
  for (const name of Object.keys(document.components.schemas as Json))
    expect(() => ajv.compile({ $ref: `openapi#/components/schemas/${name}` }), name).not.toThrow();
  for (const item of Object.values(document.paths as Json))
    for (const o of Object.values(item as Json))
      if (o.requestBody) expect(() => createAjv().compile(o.requestBody.content['application/json'].schema), o.operationId).not.toThrow();
});

/** The component schema names a response's JSON schema allows (NAME, NAME[] for an array). */
function namesIn(schema: Json | undefined): string[] {
  if (!schema) return [];
  if (schema.$ref) return [String(schema.$ref).replace('#/components/schemas/', '')];
  if (schema.type === 'array' && schema.items?.$ref) return namesIn(schema.items).map((n) => `${n}[]`);
  return (schema.oneOf ?? []).flatMap(namesIn);
}

test('the document agrees with the suites: a success a case expects is documented (one of several it accepts), with the schema the case checks; errors are error bodies', async () => {
  const document = await printed();
  const steps: { request: RequestSpec; expect: Expectation; where: string }[] = [];
  const collect = (node: unknown, where: string) => {
    if (!node || typeof node !== 'object') return;
    const step = node as { request?: RequestSpec; expect?: Expectation };
    if (step.request?.path && step.expect) steps.push({ request: step.request, expect: step.expect, where });
    for (const value of Object.values(node)) collect(value, where);
  };
  for (const suite of loadSuites(suitePaths.service)) for (const c of suite.cases) collect(c, `${suite.name}/${c.id}`);
  expect(steps.length).toBeGreaterThan(300);

  const problems: string[] = [];
  for (const { request, expect: expectation, where } of steps) {
    const o = document.paths[request.path!]?.[request.method.toLowerCase()] as Json | undefined;
    if (!o) {
      // A case may ask for what is not an endpoint (an unknown path, an unsupported method): nothing to document.
      continue;
    }
    // A step accepting several statuses accepts other readings of the spec too: the reference
    // answers (and documents) one of them, not necessarily all.
    const statuses = [expectation.status ?? []].flat().map(Number).filter(Number.isInteger);
    const answerOf = (status: number) => o.responses[String(status)] ?? o.responses[`${String(status)[0]}XX`];
    if (statuses.length > 0 && !statuses.some(answerOf))
      problems.push(`${where}: ${request.method} ${request.path} ${statuses.join(' or ')} is not documented`);
    for (const status of statuses) {
      const documented = answerOf(status);
      if (!documented) continue;
      const schema = expectation.schema;
      const allowed = namesIn(documented.content?.['application/json']?.schema);
      if (schema && !allowed.includes(schema))
        problems.push(
          `${where}: ${request.method} ${request.path} ${status} checks ${schema}, the document says ${allowed.join(' or ') || 'no schema'}`,
        );
    }
  }
  expect(problems).toEqual([]);
});

test('`touchstone openapi --control` prints the control API, not the service', async () => {
  const result = await runCli(['openapi', '--control']);
  expect(result.code, result.stderr).toBe(0);
  expect(JSON.parse(result.stdout)).toEqual(controlOpenApiDocument(packageVersion()));
});
