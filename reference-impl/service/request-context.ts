// What the hooks attach to a request for the handlers after them. Declared once here so
// every file sees the same shape.
import type { Caller } from './auth/credentials.js';
import type { Grant } from './auth/authorize.js';
import type { Representation } from './conventions.js';
import type { Faults } from './faults.js';
import type { Variants } from './variants.js';

declare module 'fastify' {
  /** What endpoint.ts puts in the config of a route registered from a definition. */
  interface FastifyContextConfig {
    /** The definition's id; a route without one is refused unless it is the control API's. */
    endpoint?: string;
    /** The representations the endpoint offers (JSON first); unknown routes offer JSON only. */
    representations?: readonly Representation[];
  }
  interface FastifyRequest {
    /** Set by the conventions hook on every request outside the control API. */
    caller: Caller | null;
    /** The representation the Accept header selected among those the endpoint offers (conventions.ts). */
    representation: Representation;
    /** Set by the endpoint's access hook; null on routes without one. */
    grant: Grant | null;
    /** Where the client reached the service, once request-origin.ts worked it out ('' before). */
    origin: string;
    /** The service's built-in faults, for the code that decides each behaviour. */
    readonly faults: Faults;
    /** The service's built-in variations, for the code that decides each behaviour. */
    readonly variants: Variants;
  }
}
