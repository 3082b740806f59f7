// What the case-runner tests share: a fake target (a route answering each request), the
// context a case runs in against it, and small builders of answers and cases.
import { createRedactor } from '../http/exchange-record.js';
import { loadSchemaRegistry } from '../http/schema-registry.js';
import { createTargetClient } from '../http/target-client.js';
import type { TargetControl } from '../http/target-control.js';
import type { Transport, WireRequest, WireResponse } from '../http/transport.js';
import type { CaseContext } from './case-runner.js';
import type { Expectation, Requirement, StepsCase } from '../core/suite-format.js';
import { suitePaths } from '../core/suite-paths.js';

export const TOKEN = 'ts_secret_canary_token_42';
export const registry = new Map<string, Requirement>(
  (['MUST', 'SHOULD', 'MAY'] as const).map((level) => [
    `test.${level.toLowerCase()}`,
    { id: `test.${level.toLowerCase()}`, source: 's', quote: 'q', level, basis: 'quoted' },
  ]),
);
export const schemas = loadSchemaRegistry(suitePaths.schemas);

export type Route = (request: WireRequest) => WireResponse | Promise<WireResponse>;
export const respond = (status: number, body?: unknown, headers: [string, string][] = []): WireResponse => ({
  status,
  headers: [['Content-Type', 'application/json; charset=utf-8'], ...headers],
  body:
    body === undefined
      ? Buffer.alloc(0)
      : Buffer.isBuffer(body)
        ? body
        : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
});

export function context(route: Route, options: { capabilities?: string[]; strict?: boolean; control?: Partial<TargetControl> } = {}) {
  const sent: WireRequest[] = [];
  const transport: Transport = async (request) => {
    sent.push(request);
    return route(request);
  };
  const attached: string[] = [];
  const ctx: CaseContext = {
    client: createTargetClient({ baseUrl: 'http://target.test', tokens: { admin: TOKEN }, transport, userAgent: 'test' }),
    control: {
      capabilities: async () => new Set(),
      reset: async () => {},
      clock: async () => {},
      faults: async () => {},
      variants: async () => {},
      inject: async () => {},
      ...options.control,
    },
    capabilities: new Set(options.capabilities ?? []),
    schemas,
    registry,
    redact: createRedactor([TOKEN]),
    strict: options.strict ?? false,
    roles: new Map([
      ['anonymous', 'no token (no Authorization header)'],
      ['admin', 'classic token of a, scopes repo'],
    ]),
    hooks: { step: (_title, body) => body(), attach: async (_name, record) => void attached.push(JSON.stringify(record)) },
  };
  return { ctx, sent, attached };
}

export const oneStep = (expectation: Expectation, requirement = 'test.must'): StepsCase => ({
  id: 'c',
  title: 'a one-step case',
  requirements: [requirement],
  as: 'admin',
  steps: [{ request: { method: 'GET', path: '/thing' }, expect: expectation }],
});
