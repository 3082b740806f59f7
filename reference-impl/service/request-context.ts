// What the hooks attach to a request for the handlers after them. Declared once here so
// every file sees the same shape.
import type { Caller } from './auth/credentials.js';
import type { Grant } from './auth/authorize.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the conventions hook on every request outside the control API. */
    caller: Caller | null;
    /** Set by the endpoint's access hook; null on routes without one. */
    grant: Grant | null;
  }
}
