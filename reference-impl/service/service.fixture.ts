// Playwright fixtures for the service's own tests: a fresh in-process service per test
// (no port), and `api`, a client that sends what a well-behaved client sends by default
// and acts as a world token role.
import { test as base, expect } from '@playwright/test';
import type { InjectOptions, LightMyRequestResponse as Response } from 'fastify';
import { createReferenceService, type ReferenceService } from './service.js';
import { loadWorld } from './world-loader.js';
import type { World } from './world-model.js';

export { expect };

export interface CallOptions {
  /** A token role of the world, or 'anonymous' (the default). */
  as?: string;
  /** Sent as JSON with Content-Type application/json. */
  body?: unknown;
  /** Sent as-is (with Content-Type application/json unless headers say otherwise). */
  raw?: string | Buffer;
  /** Extra headers; undefined removes a default one. */
  headers?: Record<string, string | undefined>;
}

export interface Api {
  call(method: string, url: string, options?: CallOptions): Promise<Response>;
  get(url: string, options?: CallOptions): Promise<Response>;
  /** Moves the service clock forward through the control API. */
  advance(seconds: number): Promise<void>;
  /** Switches exactly these built-in variations on through the control API (suites/variants). */
  vary(...variants: string[]): Promise<void>;
}

export const test = base.extend<{ service: ReferenceService; api: Api }, { world: World }>({
  world: [
    async ({}, use) => {
      await use(loadWorld());
    },
    { scope: 'worker' },
  ],
  service: async ({ world }, use) => {
    const service = createReferenceService({ world });
    await use(service);
    await service.close();
  },
  api: async ({ service, world }, use) => {
    const tokenOf = (role: string) => {
      const token = world.tokens.find((t) => t.role === role);
      if (token === undefined) throw new Error(`no token role ${role} in the world`);
      return token.value;
    };
    const call: Api['call'] = (method, url, options = {}) => {
      const headers: Record<string, string | undefined> = {
        'user-agent': 'touchstone-tests',
        accept: 'application/vnd.service+json',
        'x-service-api-version': '2022-11-28',
      };
      if (options.as !== undefined && options.as !== 'anonymous') headers.authorization = `Bearer ${tokenOf(options.as)}`;
      let payload: string | Buffer | undefined;
      if (options.body !== undefined || options.raw !== undefined) {
        headers['content-type'] = 'application/json';
        payload = options.raw ?? JSON.stringify(options.body);
      }
      Object.assign(headers, options.headers ?? {});
      const sent: Record<string, string | undefined> = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined));
      // light-my-request adds its own User-Agent unless told explicitly there is none.
      if (headers['user-agent'] === undefined) sent['user-agent'] = undefined;
      return service.app.inject({ method: method as InjectOptions['method'], url, headers: sent, payload });
    };
    await use({
      call,
      get: (url, options) => call('GET', url, options),
      async advance(seconds) {
        const response = await service.app.inject({ method: 'POST', url: '/_conformance/clock', payload: { advance_seconds: seconds } });
        expect(response.statusCode).toBe(200);
      },
      async vary(...variants) {
        const response = await service.app.inject({ method: 'POST', url: '/_conformance/variants', payload: { variants } });
        expect(response.statusCode, response.body).toBe(200);
      },
    });
  },
});

/** The error body every failure carries (README "error body"). */
export function expectErrorBody(response: Response, status: number, message?: string | RegExp): Record<string, unknown> {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = response.json() as Record<string, unknown>;
  expect(body.status).toBe(String(status));
  expect(typeof body.documentation_url).toBe('string');
  expect(typeof body.message).toBe('string');
  if (message !== undefined) expect(body.message).toMatch(message);
  return body;
}
