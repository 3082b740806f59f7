// Request-body validation for every route, with one Ajv set up for the README's rules:
// no type coercion and no silent removal of unknown fields (both Fastify defaults), so
// wrong types and typos come back as 422 with `errors[]` naming the field.
//
// Decisions where the spec is silent (it says only "Body parameters are sent as a JSON
// object" and types each field), each with the variation that reads the body otherwise
// (variants.ts; suites/variants/conventions.yaml):
// - a field no endpoint lists is refused with 422 (errors.unknown-fields-422);
//   errors.unknown-fields-ignored drops it, as many services do, and goes on.
// - a field of another JSON type than stated is refused with 422
//   (errors.wrong-field-types-refused); errors.lenient-body-types converts where a conversion
//   exists (a string to a one-element array, "5" to 5, a one-element array to its item), as
//   lenient JSON readers do. A value no conversion makes valid is still refused.
// Both variations prepare the body as it is read (readBody, called by json-body.ts), with the
// endpoint's own schema; the strict validation below then judges what is left.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validationFailed, type ValidationIssue } from './errors.js';
import type { Faults } from './faults.js';

// ajv-formats ships CommonJS typings that NodeNext sees as a namespace, not a function.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** Ajv set up to change a body the way the variations on read it: drop unknown fields, convert types, or both. */
const preparers = new Map<string, { ajv: Ajv2020; compiled: WeakMap<object, ValidateFunction> }>();

function preparerFor(dropUnknown: boolean, convert: boolean, schema: object): ValidateFunction {
  const key = `${dropUnknown}/${convert}`;
  let preparer = preparers.get(key);
  if (preparer === undefined) {
    const ajv = addFormats(
      new Ajv2020({
        allErrors: true,
        strict: true,
        coerceTypes: convert ? 'array' : false,
        removeAdditional: dropUnknown,
        useDefaults: false,
      }),
    );
    preparers.set(key, (preparer = { ajv, compiled: new WeakMap() }));
  }
  let validate = preparer.compiled.get(schema);
  if (validate === undefined) preparer.compiled.set(schema, (validate = preparer.ajv.compile(schema)));
  return validate;
}

/**
 * The body as the endpoint reads it: unchanged, unless errors.unknown-fields-ignored or
 * errors.lenient-body-types is on; then unknown fields are dropped or types converted, in
 * place, as far as the endpoint's schema says how (what stays wrong is the validation's to refuse).
 */
export function readBody(body: unknown, request: FastifyRequest): unknown {
  const { variants } = request;
  const dropUnknown = variants.on('errors.unknown-fields-ignored');
  const convert = variants.on('errors.lenient-body-types');
  const schema = request.routeOptions.schema?.body;
  if ((!dropUnknown && !convert) || typeof schema !== 'object' || schema === null) return body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  // Its verdict does not matter here: running it changes the body, and the strict validation judges the result.
  preparerFor(dropUnknown, convert, schema)(body);
  return body;
}

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
