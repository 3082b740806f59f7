// One endpoint, one definition: its number in the spec, id, method, path, access rule,
// request body schema (a TypeBox schema, which is also the handler's type for the body),
// the representations it offers, and its handler. Routes are registered from these
// definitions only (registerEndpoints), the README's endpoint and auth tables are generated
// from them (endpoint-docs.ts), and start-up refuses any route that did not come from one,
// so a route cannot be added without an access rule.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { createAccessCheck, type Grant } from './auth/authorize.js';
import type { EndpointAccess } from './auth/endpoint-access.js';
import type { Representation } from './conventions.js';
import type { Directory } from './directory.js';
import { DOWNLOAD_PREFIX } from './downloads.js';
import { onRequestSync } from './sync-hooks.js';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

/**
 * What a successful answer carries: a resource schema of the suites (suites/schemas/NAME.json,
 * NAME[] an array of them); `empty` no body (or `{}`); `redirect` a Location to follow; `json`
 * a JSON body no shared schema describes. Errors are the same for every endpoint (openapi.ts).
 */
export type ResponseBody = string;

/** Success statuses and what each carries; several bodies when the answer takes one of several shapes. */
export type Responses = Readonly<Record<number, ResponseBody | readonly ResponseBody[]>>;

/** `/repos/:owner/:repo` → 'owner' | 'repo'. */
type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<Rest>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/**
 * The path parameters of a Fastify path, as strings (they are validated by the handler that
 * reads them); a path ending in `*` (the rest of the URL, slashes included) has `'*'` too.
 */
export type PathParams<Path extends string> = { [Name in ParamNames<Path>]: string } & (Path extends `${string}*`
  ? { '*': string }
  : unknown);

type TargetOf<Access extends EndpointAccess> = Access['target'];
export type GrantOf<Target extends EndpointAccess['target']> = Extract<Grant, { target: Target }>;

/**
 * What a handler gets: the request typed by the definition's path and body, the reply, and the
 * access grant. It returns the body to send (or a promise of it: only handlers that wait for
 * something are async, as a promise costs a microtask per request), or the reply once it
 * answered through it (reply.send).
 */
export type Handler<Path extends string, Body extends TSchema | undefined, Target extends EndpointAccess['target']> = (
  request: FastifyRequest<{ Params: PathParams<Path>; Body: Body extends TSchema ? Static<Body> : undefined }>,
  reply: FastifyReply,
  grant: GrantOf<Target>,
) => unknown;

export interface EndpointSpec<Path extends string, Body extends TSchema | undefined, Access extends EndpointAccess> {
  /** The spec document and the endpoint's number in it. */
  spec: { document: 1 | 2; number: number };
  /** Stable id, `<area>.<action>`, as the requirements name it. */
  id: string;
  summary: string;
  method: HttpMethod;
  /** Fastify syntax: `/repos/:owner/:repo/assignees`. */
  path: Path;
  /** Its successful answers, for the OpenAPI document (openapi.ts); the suites' schema checks must agree. */
  responses: Responses;
  access: Access;
  /** The request body's schema; `errors[].resource` is its title. Omitted: the endpoint takes no body. */
  body?: Body;
  /**
   * The representations it offers besides JSON (`application/vnd.service.raw+json` …); the
   * handler reads the one selected from request.representation. Omitted: JSON only.
   */
  representations?: readonly Exclude<Representation, 'json'>[];
  /** The largest request body it reads, in bytes, when not the service's 1 MiB (json-body.ts). */
  bodyLimit?: number;
  handler: Handler<Path, Body, TargetOf<Access>>;
}

/**
 * A definition's Fastify path as the spec writes it: `:name` → `{name}`, and a trailing `*`
 * (the rest of the URL, the contents endpoints' optional path) → `/{path}`.
 */
export const specPath = (path: string) => path.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '/{path}');

/** A definition with its types erased, as the registry and the docs hold it. */
export interface Endpoint {
  readonly spec: { document: 1 | 2; number: number };
  readonly id: string;
  readonly summary: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly responses: Responses;
  readonly access: EndpointAccess;
  readonly body?: TSchema;
  readonly representations?: readonly Exclude<Representation, 'json'>[];
  readonly bodyLimit?: number;
  readonly handler: (request: FastifyRequest, reply: FastifyReply, grant: Grant) => unknown;
}

/**
 * Checks the types of one definition. The one cast of the service's request handling is
 * here: the registry holds definitions of many shapes, and the grant a handler receives
 * is the one its access rule produces (authorize() returns a grant of the rule's target).
 */
export function defineEndpoint<Path extends string, Access extends EndpointAccess, Body extends TSchema | undefined = undefined>(
  definition: EndpointSpec<Path, Body, Access>,
): Endpoint {
  return definition as unknown as Endpoint;
}

/** Where no endpoint sits: the harness's control API (routes/control.ts) and download links (downloads.ts). */
const OUTSIDE_API = ['/_conformance', DOWNLOAD_PREFIX];

/**
 * Refuses, at start-up, every later route that neither came from a definition nor belongs to
 * the control API: an endpoint without an access rule cannot be served.
 */
export function refuseUndeclaredRoutes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const declared = route.config?.endpoint !== undefined;
    if (!declared && !OUTSIDE_API.some((prefix) => route.url.startsWith(prefix))) {
      throw new Error(
        `route ${String(route.method)} ${route.url} was not registered from an endpoint definition (endpoint.ts): it has no access rule`,
      );
    }
  });
}

export function registerEndpoints(app: FastifyInstance, directory: Directory, endpoints: readonly Endpoint[]): void {
  const seen = new Map<string, Endpoint>();
  for (const endpoint of endpoints) {
    const clash = seen.get(endpoint.id) ?? seen.get(`${endpoint.method} ${endpoint.path}`);
    if (clash) throw new Error(`endpoint ${endpoint.id} (${endpoint.method} ${endpoint.path}) is defined twice`);
    seen.set(endpoint.id, endpoint).set(`${endpoint.method} ${endpoint.path}`, endpoint);
    checkDefinition(endpoint);
    app.route({
      method: endpoint.method,
      url: endpoint.path,
      config: { endpoint: endpoint.id, representations: ['json', ...(endpoint.representations ?? [])] },
      onRequest: onRequestSync(createAccessCheck(directory, endpoint.access)),
      ...(endpoint.body && { schema: { body: endpoint.body } }),
      ...(endpoint.bodyLimit !== undefined && { bodyLimit: endpoint.bodyLimit }),
      handler: (request, reply) => {
        const result = endpoint.handler(request, reply, request.grant!);
        // A value or a promise is Fastify's to send; a handler that answered through the reply
        // returns it, and one that returns nothing answers with no body, as an async one does.
        if (result !== undefined && result !== reply) return result;
        if (!reply.sent) reply.send();
      },
    });
  }
}

/**
 * The types make a rule complete; this holds definitions built without them (JavaScript,
 * casts). A body schema needs a title: it is the resource `errors[]` names.
 */
function checkDefinition({ id, access, body }: Endpoint): void {
  if (body !== undefined && typeof (body as { title?: unknown }).title !== 'string')
    throw new Error(`endpoint ${id}: its body schema has no title`);
  const complete =
    access !== undefined &&
    ['repository', 'organization', 'user', 'account'].includes(access.target) &&
    typeof access.anonymous === 'boolean' &&
    Array.isArray(access.scopes?.public) &&
    Array.isArray(access.scopes?.private) &&
    Array.isArray(access.permissions) &&
    typeof access.role === 'string';
  if (!complete) throw new Error(`endpoint ${id} has no complete access rule (target, anonymous, scopes, permissions, role)`);
}
