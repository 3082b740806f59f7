// Request conventions every endpoint shares, checked in onRequest before routing
// decisions, in this order: User-Agent (403), API version (400), Accept (415), then
// credentials (401). None of them applies to the control API or to download links.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { boundedMemo } from '../../lib/bounded-memo.js';
import { parseAuthorization } from './auth/credentials.js';
import type { Directory } from './directory.js';
import { DOWNLOAD_PREFIX } from './downloads.js';
import { ApiError } from './errors.js';

export const API_VERSION = '2022-11-28';
export const API_VERSION_HEADER = 'x-service-api-version';

/** The control API and download links are outside the API: its conventions do not apply to them. */
export function isOutsideApi(request: FastifyRequest): boolean {
  const { url } = request;
  return url === '/_conformance' || url.startsWith('/_conformance/') || url.startsWith('/_conformance?') || url.startsWith(DOWNLOAD_PREFIX);
}

export function checkUserAgent(request: FastifyRequest): void {
  const agent = request.headers['user-agent'];
  if (request.faults.on('user-agent.not-required')) return;
  if (agent === undefined && request.faults.on('user-agent.missing-400'))
    throw new ApiError(400, 'BAD_REQUEST', 'Missing User-Agent header');
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
    version === undefined
      ? !faults.on('version.omitted-refused')
      : version === API_VERSION
        ? !faults.on('version.current-refused')
        : faults.on('version.unknown-accepted');
  if (!accepted) throw new ApiError(400, 'UNSUPPORTED_VERSION', `API version ${String(version ?? '(none)')} is not supported`);
}

/** The representations an endpoint may offer besides its JSON one, named by `application/vnd.service.PARAM+json`. */
export const REPRESENTATIONS = ['raw', 'html', 'object'] as const;
export type Representation = 'json' | (typeof REPRESENTATIONS)[number];

const SERVICE_TYPE = /^application\/vnd\.service(?:\.([a-z0-9._-]+))?\+json$/;

interface AcceptedType {
  /** Lower-cased, without parameters. */
  type: string;
  /** A service type's PARAM (`raw` of application/vnd.service.raw+json); '' for the plain one; undefined for other types. */
  param: string | undefined;
}

// The entries of an Accept header, parsed once per distinct header: a client sends the same
// one with every request (at most 64 kept: the header is client input).
const acceptedTypes = boundedMemo(64, (accept: string): readonly AcceptedType[] =>
  accept.split(',').map((entry) => {
    const type = entry.split(';')[0].trim().toLowerCase();
    const match = SERVICE_TYPE.exec(type);
    return { type, param: match ? (match[1] ?? '') : undefined };
  }),
);

/**
 * The representation one Accept entry selects on this endpoint, or undefined when it selects
 * none. A service type whose PARAM the endpoint does not offer selects the JSON one, as real
 * services ignore PARAMs they do not know.
 */
function selected({ type, param }: AcceptedType, request: FastifyRequest): Representation | undefined {
  const { faults } = request;
  if (type === 'application/vnd.service+json' && faults.on('media.vendor-json-refused')) return undefined;
  if (type === 'application/json' && faults.on('media.application-json-refused')) return undefined;
  if (type === '*/*' || type === 'application/*' || type === 'application/json') return 'json';
  if (param === '') return 'json';
  // Read only for a PARAM: Fastify builds routeOptions afresh at every read.
  if (param !== undefined) return request.routeOptions.config?.representations?.find((offered) => offered === param) ?? 'json';
  return faults.on('media.unsupported-accepted') ? 'json' : undefined;
}

/** The representation the request asks for (the first acceptable entry), or 415. */
export function checkAccept(request: FastifyRequest): Representation {
  const accept = request.headers.accept;
  if (accept === undefined) return 'json';
  const types = acceptedTypes(accept);
  const considered = request.faults.on('media.first-type-only') ? types.slice(0, 1) : types;
  for (const type of considered) {
    const representation = selected(type, request);
    if (representation !== undefined) return representation;
  }
  throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', "Unsupported 'Accept' header");
}

export function createConventionsCheck(directory: Directory) {
  return function conventions(request: FastifyRequest): void {
    if (isOutsideApi(request)) return;
    checkUserAgent(request);
    checkApiVersion(request);
    request.representation = checkAccept(request);
    request.caller = parseAuthorization(request.headers.authorization, directory, request.faults);
  };
}

/** Every response says which API version answered, errors included. */
export function versionOnSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  reply.header(API_VERSION_HEADER, API_VERSION);
  const { faults } = request;
  if (String(reply.getHeader('content-type')).startsWith('application/json')) {
    if (faults.on('media.json-labelled-text')) reply.header('content-type', 'text/plain; charset=utf-8');
    else if (faults.on('media.charset-missing')) reply.header('content-type', 'application/json');
  }
  return payload;
}
