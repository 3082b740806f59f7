// Request conventions every endpoint shares, checked in onRequest before routing
// decisions, in this order: User-Agent (403), API version (400), Accept (415), then
// credentials (401). None of them applies to the control API or to download links.
//
// Decisions where the spec is silent (suites/requirements/conventions.yaml), each with the
// variation that makes it otherwise (variants.ts; suites/variants/conventions.yaml):
// - a missing or empty User-Agent: 403, as for an invalid value (user-agent.missing-403);
//   user-agent.missing-400 answers 400 and treats an empty one as missing.
// - an omitted X-Service-Api-Version means 2022-11-28 (version.omitted); version.header-required
//   answers 400. Any other version: 400 (version.unknown-400); version.unknown-served-as-current
//   serves it as 2022-11-28.
// - an Accept naming no supported type: 415 (media.unsupported-415); media.unsupported-accept-406
//   answers 406 (HTTP's Not Acceptable), media.unsupported-accept-ignored serves JSON anyway.
// - JSON is labelled `application/json; charset=utf-8` (media.charset-utf8);
//   media.json-without-charset leaves the charset out, media.vendor-content-type labels it
//   `application/vnd.service+json` when the client asked for that type.
// - no headers beyond the spec's; conventions.extra-headers adds rate-limit, media-type and
//   caching headers, as services of this family do (the spec lists no response headers but
//   `link`, `Location` and the version, and forbids none).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { boundedMemo } from '../../lib/bounded-memo.js';
import { parseAuthorization } from './auth/credentials.js';
import type { Directory } from './directory.js';
import { DOWNLOAD_PREFIX } from './downloads.js';
import { ApiError } from './errors.js';
import { withExtraFields } from './representations.js';

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
  if (agent !== undefined && agent.trim() !== '') return;
  // An empty value is read as an invalid one (403), or with the variation as none at all (400).
  if (request.variants.on('user-agent.missing-400')) throw new ApiError(400, 'BAD_REQUEST', 'Missing User-Agent header');
  throw new ApiError(403, 'FORBIDDEN', 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header');
}

export function checkApiVersion(request: FastifyRequest): void {
  const version = request.headers[API_VERSION_HEADER];
  const { faults, variants } = request;
  const accepted =
    version === undefined
      ? !variants.on('version.header-required')
      : version === API_VERSION
        ? !faults.on('version.current-refused')
        : variants.on('version.unknown-served-as-current');
  if (!accepted) {
    throw version === undefined
      ? new ApiError(400, 'UNSUPPORTED_VERSION', `The ${API_VERSION_HEADER} header is required`)
      : new ApiError(400, 'UNSUPPORTED_VERSION', `API version ${String(version)} is not supported`);
  }
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
  return undefined;
}

/** The first acceptable entry of the request's Accept header and what it selects, or undefined when none is. */
function acceptedEntry(request: FastifyRequest): { type: AcceptedType; representation: Representation } | undefined {
  const types = acceptedTypes(request.headers.accept ?? '*/*');
  const considered = request.faults.on('media.first-type-only') ? types.slice(0, 1) : types;
  for (const type of considered) {
    const representation = selected(type, request);
    if (representation !== undefined) return { type, representation };
  }
  return undefined;
}

/** The representation the request asks for (the first acceptable entry), or 415. */
export function checkAccept(request: FastifyRequest): Representation {
  if (request.headers.accept === undefined) return 'json';
  const entry = acceptedEntry(request);
  if (entry !== undefined) return entry.representation;
  const { variants } = request;
  if (variants.on('media.unsupported-accept-ignored')) return 'json';
  if (variants.on('media.unsupported-accept-406'))
    throw new ApiError(406, 'NOT_ACCEPTABLE', "None of the media types in 'Accept' is offered");
  throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', "Unsupported 'Accept' header");
}

/**
 * How a JSON answer is labelled: `application/json; charset=utf-8`. Read by every JSON answer,
 * errors included, so the variations of the label hold for all of them.
 */
export function jsonContentType(request: FastifyRequest): string {
  const { variants } = request;
  const vendor =
    variants.on('media.vendor-content-type') &&
    request.headers.accept !== undefined &&
    acceptedEntry(request)?.type.type === 'application/vnd.service+json';
  const type = vendor ? 'application/vnd.service+json' : 'application/json';
  return variants.on('media.json-without-charset') ? type : `${type}; charset=utf-8`;
}

/**
 * Headers of every answer: the API version, and with conventions.extra-headers those services
 * of this family add (the spec's "Authenticated callers may make more requests per hour than
 * anonymous ones" is what the rate-limit ones tell).
 */
export function setConventionHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header(API_VERSION_HEADER, API_VERSION);
  if (!request.variants.on('conventions.extra-headers') || isOutsideApi(request)) return;
  const limit = request.caller === null || request.caller.kind === 'anonymous' ? 60 : 5000;
  reply.header('x-ratelimit-limit', String(limit));
  reply.header('x-ratelimit-resource', 'core');
  reply.header('x-service-media-type', `service.v${API_VERSION}; format=json`);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('vary', 'Accept, Authorization, Accept-Encoding');
  if (request.method === 'GET' || request.method === 'HEAD') reply.header('cache-control', 'private, max-age=60, s-maxage=60');
}

export function createConventionsCheck(directory: Directory) {
  return function conventions(request: FastifyRequest): void {
    if (isOutsideApi(request)) return;
    checkUserAgent(request);
    checkApiVersion(request);
    request.representation = checkAccept(request);
    request.caller = parseAuthorization(request.headers.authorization, directory, request.faults, request.variants);
  };
}

/** Every response says which API version answered, errors included; JSON is labelled as jsonContentType says. */
export function versionOnSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  setConventionHeaders(request, reply);
  if (!String(reply.getHeader('content-type')).startsWith('application/json')) return payload;
  if (request.faults.on('media.json-labelled-text')) reply.header('content-type', 'text/plain; charset=utf-8');
  else reply.header('content-type', jsonContentType(request));
  return typeof payload === 'string' && !isOutsideApi(request) ? withExtraFields(payload, request) : payload;
}
