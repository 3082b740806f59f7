// The reference service: a Fastify app wired from the pieces beside this file. Entry
// points (the CLI's `serve`, tests) call loadWorld + createReferenceService + listen.
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { createBodyValidatorCompiler } from './body-validation.js';
import { httpDate } from './clock.js';
import { createConventionsCheck, versionOnSend } from './conventions.js';
import { handleClientError, refuseUnknownRouteEarly, registerErrorHandling, sendError } from './error-handler.js';
import { etagOnSend } from './etag.js';
import { BODY_LIMIT_BYTES, registerJsonBodyParser } from './json-body.js';
import { registerControlRoutes } from './routes/control.js';
import { registerDownloadRoute } from './downloads.js';
import type { ServiceFault } from './faults.js';
import type { ServiceVariant } from './variants.js';
import { AREAS } from './areas/index.js';
import { refuseUndeclaredRoutes, registerEndpoints } from './endpoint.js';
import { CLIENT_REQUEST_ID_HEADER, REQUEST_ID_HEADER } from './request-ids.js';
import { tuneForServing } from '../../lib/serving-runtime.js';
import { createStore } from './store.js';
import { onRequestSync, onSendSync } from './sync-hooks.js';
import { type ClientTimeouts, DEFAULT_CLIENT_TIMEOUTS } from './client-timeouts.js';
import type { Webhooks } from './webhooks.js';
import type { World } from './world-model.js';
import './request-context.js';

export { WorldError } from './errors.js';
export { warmWorldGit } from './git/world-git.js';
export { DEFAULT_WORLD_PATH, loadWorld } from './world-loader.js';
export type { World } from './world-model.js';
export { isServiceFault, SERVICE_FAULTS, type ServiceFault } from './faults.js';
export { isServiceVariant, SERVICE_VARIANTS, type ServiceVariant } from './variants.js';

export interface ReferenceServiceOptions {
  world: World;
  /** Fastify's logger setting; off unless asked, so the service never writes to stdout by itself. */
  logger?: FastifyServerOptions['logger'];
  /** Built-in faults on from the start, and again after every reset (faults.ts). */
  faults?: readonly ServiceFault[];
  /** Built-in variations on from the start, and again after every reset (variants.ts). */
  variants?: readonly ServiceVariant[];
  /**
   * Peers whose X-Forwarded-Proto and X-Forwarded-Host are believed (addresses or subnets, as
   * Fastify's trustProxy takes them); default this machine only (`loopback`), where
   * touchstone's own proxy runs. Anyone else's are ignored: links are built on the Host header.
   */
  trustProxy?: readonly string[];
  /** Where RepositoryImportEvent webhooks go (webhooks.ts); none when absent. */
  importWebhook?: string;
  /** How long a client may take; DEFAULT_CLIENT_TIMEOUTS for what is not given. */
  clientTimeouts?: Partial<ClientTimeouts>;
}

export interface ReferenceService {
  app: FastifyInstance;
  /** Starts listening (host defaults to 127.0.0.1) and resolves to the base URL. */
  listen(options: { port: number; host?: string }): Promise<string>;
  /** Webhook deliveries (settled() when each raised so far was attempted). */
  readonly webhooks: Webhooks;
  /** Stops serving once the webhooks raised so far were attempted. */
  close(): Promise<void>;
}

export function createReferenceService({
  world,
  logger = false,
  faults = [],
  variants = [],
  importWebhook,
  trustProxy = ['loopback'],
  clientTimeouts,
}: ReferenceServiceOptions): ReferenceService {
  tuneForServing();
  const store = createStore(world, AREAS, { faults, variants }, importWebhook);
  const timeouts = { ...DEFAULT_CLIENT_TIMEOUTS, ...clientTimeouts };
  const app = Fastify({
    logger,
    trustProxy: [...trustProxy],
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.idleMs,
    // Node checks the head and request timeouts on this interval (30 s by default, which
    // would let a slow head live three times its limit); a connection that never sends a
    // request is cut at the head timeout too. (A socket inactivity timeout, Fastify's
    // connectionTimeout, is not set: beside this checker it kept idle sockets open, seen in
    // limits.test.ts.)
    http: { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: Math.min(1000, timeouts.headersMs) },
    bodyLimit: BODY_LIMIT_BYTES,
    // Errors raised before routing (malformed URL encoding, overlong segments) get the same body as the rest.
    frameworkErrors: sendError,
    clientErrorHandler: handleClientError,
    genReqId: (request) => store.requestIds.next(request.method ?? '', request.url ?? '', request.headers[CLIENT_REQUEST_ID_HEADER]),
  });
  app.decorateRequest('caller', null);
  app.decorateRequest('grant', null);
  app.decorateRequest('representation', 'json');
  app.decorateRequest('origin', '');
  const areaOfEndpoint = new Map(
    store.areas.flatMap((area) => area.endpoints.map((endpoint): [string, string] => [endpoint.id, area.name])),
  );
  app.decorateRequest('faults', {
    getter(this: FastifyRequest) {
      // The route's endpoint is read (Fastify builds routeOptions at each read) only while a narrowed fault is on.
      const { faults } = store;
      return faults.narrowing() ? faults.in(areaOfEndpoint.get(this.routeOptions.config?.endpoint ?? '')) : faults;
    },
  });
  app.decorateRequest('variants', { getter: () => store.variants });
  app.setValidatorCompiler(createBodyValidatorCompiler(store.faults));
  registerJsonBodyParser(app);
  registerErrorHandling(app);
  // The Date header tells the service's own clock, like every other time it shows: a
  // recording of the reference is then the same whenever it is made.
  app.addHook(
    'onRequest',
    onRequestSync((request, reply) => {
      reply.header('date', httpDate(store.clock.now()));
      reply.header(REQUEST_ID_HEADER, request.id);
    }),
  );
  app.addHook('onRequest', onRequestSync(createConventionsCheck(store.directory)));
  app.addHook('onRequest', onRequestSync(refuseUnknownRouteEarly));
  app.addHook('onSend', onSendSync(versionOnSend));
  app.addHook('onSend', onSendSync(etagOnSend));

  refuseUndeclaredRoutes(app);
  for (const area of store.areas) registerEndpoints(app, store.directory, area.endpoints);
  registerControlRoutes(app, store);
  registerDownloadRoute(app, store.downloads);

  return {
    app,
    listen: ({ port, host = '127.0.0.1' }) => app.listen({ port, host }),
    webhooks: store.webhooks,
    close: async () => {
      await store.webhooks.settled();
      await app.close();
    },
  };
}
