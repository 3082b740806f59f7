// Request conventions every endpoint shares, checked in onRequest before routing
// decisions, in this order: User-Agent (403), API version (400), Accept (415), then
// credentials (401). None of them applies to the control API.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseAuthorization } from './auth/credentials.js';
import type { Directory } from './directory.js';
import { ApiError } from './errors.js';

export const API_VERSION = '2022-11-28';
export const API_VERSION_HEADER = 'x-service-api-version';

export function isControlRequest(request: FastifyRequest): boolean {
  return request.url === '/_conformance' || request.url.startsWith('/_conformance/') || request.url.startsWith('/_conformance?');
}

export function checkUserAgent(request: FastifyRequest): void {
  const agent = request.headers['user-agent'];
  if (request.faults.on('user-agent.not-required')) return;
  if (agent === undefined && request.faults.on('user-agent.missing-400')) throw new ApiError(400, 'BAD_REQUEST', 'Missing User-Agent header');
  if (agent === undefined || agent.trim() === '') {
    throw new ApiError(
      403,
      'FORBIDDEN',
      'Request forbidden by administrative rules. Please make sure your request has a User-Agent header',
    );
  }
}

export function checkApiVersion(request: FastifyRequest): void {
  const version = request.headers[API_VERSION_HEADER];
  const { faults } = request;
  const accepted =
    version === undefined ? !faults.on('version.omitted-refused') : version === API_VERSION ? !faults.on('version.current-refused') : faults.on('version.unknown-accepted');
  if (!accepted) throw new ApiError(400, 'UNSUPPORTED_VERSION', `API version ${String(version ?? '(none)')} is not supported`);
}

/**
 * Every endpoint of this slice has one JSON representation, so any service media type
 * (whatever its PARAM) selects it; a list is acceptable when one entry is.
 */
const ACCEPTABLE = /^(?:\*\/\*|application\/\*|application\/json|application\/vnd\.service(?:\.[a-z0-9._-]+)?\+json)$/;

function acceptable(type: string, request: FastifyRequest): boolean {
  const { faults } = request;
  if (type === 'application/vnd.service+json' && faults.on('media.vendor-json-refused')) return false;
  if (type === 'application/json' && faults.on('media.application-json-refused')) return false;
  return ACCEPTABLE.test(type) || faults.on('media.unsupported-accepted');
}

export function checkAccept(request: FastifyRequest): void {
  const accept = request.headers.accept;
  if (accept === undefined) return;
  const types = accept.split(',').map((entry) => entry.split(';')[0].trim().toLowerCase());
  const considered = request.faults.on('media.first-type-only') ? types.slice(0, 1) : types;
  if (!considered.some((type) => acceptable(type, request))) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', "Unsupported 'Accept' header");
  }
}

export function createConventionsHook(directory: Directory) {
  return async function conventions(request: FastifyRequest): Promise<void> {
    if (isControlRequest(request)) return;
    checkUserAgent(request);
    checkApiVersion(request);
    checkAccept(request);
    request.caller = parseAuthorization(request.headers.authorization, directory, request.faults);
  };
}

/** Every response says which API version answered, errors included. */
export async function versionOnSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  reply.header(API_VERSION_HEADER, API_VERSION);
  const { faults } = request;
  if (String(reply.getHeader('content-type')).startsWith('application/json')) {
    if (faults.on('media.json-labelled-text')) reply.header('content-type', 'text/plain; charset=utf-8');
    else if (faults.on('media.charset-missing')) reply.header('content-type', 'application/json');
  }
  return payload;
}
