// Request-body validation for every route, with one Ajv set up for the README's rules:
// no type coercion and no silent removal of unknown fields (both Fastify defaults), so
// wrong types and typos come back as 422 with `errors[]` naming the field.
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { validationFailed, type ValidationIssue } from './errors.js';
import type { Faults } from './faults.js';

// ajv-formats ships CommonJS typings that NodeNext sees as a namespace, not a function.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** A body schema (TypeBox, endpoint.ts); its title is the resource `errors[]` names. */
export interface BodySchema {
  title: string;
  [keyword: string]: unknown;
}

export function createBodyValidatorCompiler(faults: Faults): FastifySchemaCompiler<BodySchema> {
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: true, coerceTypes: false, removeAdditional: false, useDefaults: false }));
  return ({ schema, httpPart }) => {
    if (httpPart !== 'body') throw new Error(`body-validation: only body schemas are supported, got ${String(httpPart)}`);
    const validate = ajv.compile(schema);
    const resource = schema.title;
    return (data: unknown) => {
      // No body at all reads as an empty object, so a missing body reports its missing fields.
      const body = data ?? {};
      if (faults.on('errors.wrong-types-accepted')) return { value: body };
      if (typeof body !== 'object' || Array.isArray(body)) {
        return { error: validationFailed([{ resource, field: '', code: 'custom', message: 'Body should be a JSON object' }]) };
      }
      if (validate(body)) return { value: body };
      return { error: validationFailed(issuesOf(validate.errors ?? [], resource)) };
    };
  };
}

function issuesOf(errors: ErrorObject[], resource: string): ValidationIssue[] {
  const issues = new Map<string, ValidationIssue>();
  for (const error of errors) {
    const path = error.instancePath.split('/').slice(1);
    let issue: ValidationIssue;
    if (error.keyword === 'required') {
      issue = { resource, field: [...path, String(error.params.missingProperty)].join('.'), code: 'missing_field' };
    } else if (error.keyword === 'additionalProperties') {
      issue = { resource, field: [...path, String(error.params.additionalProperty)].join('.'), code: 'invalid' };
    } else {
      // Report the top-level field: `assignees`, not `assignees/3`.
      issue = { resource, field: path[0] ?? '', code: 'invalid' };
    }
    issues.set(`${issue.field}\u0000${issue.code}`, issue);
  }
  return [...issues.values()];
}
