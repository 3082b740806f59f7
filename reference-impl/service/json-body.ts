// Request body parsing: JSON only, at most 1 MiB unless an endpoint declares more (its
// bodyLimit, endpoint.ts). A body without Content-Type is read as JSON (clients like curl
// often omit it); any other declared type is 415, unless the body is empty.
//
// Decision where the spec is silent: a body that is not JSON is 400 "Problems parsing JSON"
// (errors.malformed-json-400; the spec's Errors table has no 400 and says only "Body
// parameters are sent as a JSON object"). The errors.malformed-json-422 variation answers 422
// instead, the table's "validation failed".
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readBody } from './body-validation.js';
import { ApiError, validationFailed } from './errors.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

const JSON_TYPES = ['application/json', 'application/vnd.service+json'];
const SERVICE_PARAM_JSON = /^application\/vnd\.service\.[a-z0-9._-]+\+json(?:;|$)/;

function parseJson(text: string, request: FastifyRequest): unknown {
  // An empty body is no body: the route's validation then reports what is missing.
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (request.faults.on('errors.malformed-json-500')) throw error;
    if (request.variants.on('errors.malformed-json-422'))
      throw validationFailed([{ resource: 'Body', field: '', code: 'custom', message: 'Problems parsing JSON' }]);
    throw new ApiError(400, 'BAD_JSON', 'Problems parsing JSON');
  }
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const options = { parseAs: 'string' as const, bodyLimit: BODY_LIMIT_BYTES };
  const parser = async (request: FastifyRequest, body: string | Buffer) => readBody(parseJson(body.toString(), request), request);
  app.addContentTypeParser(JSON_TYPES, options, parser);
  app.addContentTypeParser(SERVICE_PARAM_JSON, options, parser);
  app.addContentTypeParser('*', options, async (request: FastifyRequest, body: string | Buffer) => {
    // An empty body is no body whatever its declared type (fetch labels an empty string
    // text/plain, as octokit's bodiless PUT sends it): there is nothing to refuse.
    if (request.headers['content-type'] !== undefined && body.toString().trim() !== '') {
      throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', "Unsupported 'Content-Type' header");
    }
    return readBody(parseJson(body.toString(), request), request);
  });
}
