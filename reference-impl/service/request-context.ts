// What the hooks attach to a request for the handlers after them. Declared once here so
// every file sees the same shape.
import type { Caller } from './auth/credentials.js';
import type { Grant } from './auth/authorize.js';
import type { Faults } from './faults.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the conventions hook on every request outside the control API. */
    caller: Caller | null;
    /** Set by the endpoint's access hook; null on routes without one. */
    grant: Grant | null;
    /** The service's built-in faults, for the code that decides each behaviour. */
    readonly faults: Faults;
  }
}
