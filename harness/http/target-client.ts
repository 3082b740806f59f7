// The client every check uses: turns a declarative request into a wire request against
// the target, acting as a role (its token from the run's token map), with the headers
// a well-behaved client sends by default.
import { HarnessError } from '../core/errors.js';
import type { HeaderPairs } from '../core/results.js';
import type { RequestSpec } from '../core/suite-format.js';
import type { Transport, WireRequest, WireResponse } from './transport.js';

export const ANONYMOUS = 'anonymous';
export const API_VERSION = '2022-11-28';

export interface Exchange {
  request: WireRequest;
  response: WireResponse;
}

export interface TargetClient {
  readonly baseUrl: string;
  send(spec: RequestSpec, role: string): Promise<Exchange>;
  hasRole(role: string): boolean;
}

/** Endpoint template with path parameters filled in, each URL-encoded. */
export function expandPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    if (!(name in params)) throw new HarnessError('CONFIG', `path ${template}: no value for {${name}}`);
    return encodeURIComponent(params[name]);
  });
}

/** The body object with a `padding` field that brings its JSON to `bytes` bytes. */
function padBody(body: unknown, bytes: number): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new HarnessError('CONFIG', 'pad_to_bytes needs an object body');
  const overhead = Buffer.byteLength(JSON.stringify({ ...body, padding: '' }));
  return { ...body, padding: 'x'.repeat(Math.max(0, bytes - overhead)) };
}

/** Where a request goes: its endpoint path under the target, or its `url` (relative ones against the target). */
function requestUrl(base: string, spec: RequestSpec): URL {
  if (spec.path !== undefined) return new URL(base + expandPath(spec.path, spec.params));
  if (spec.url === undefined) throw new HarnessError('CONFIG', `a ${spec.method} request with neither a path nor a url`);
  try {
    return new URL(spec.url, `${base}/`);
  } catch {
    throw new HarnessError('CONFIG', `${spec.method} ${spec.url}: not a URL`);
  }
}

export function createTargetClient(options: {
  baseUrl: string;
  tokens: Record<string, string>;
  transport: Transport;
  userAgent: string;
}): TargetClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    baseUrl: base,
    hasRole: (role) => role === ANONYMOUS || role in options.tokens,
    async send(spec, role) {
      const actingAs = spec.as ?? role;
      const headers = new Map<string, [string, string]>();
      const set = (name: string, value: string) => headers.set(name.toLowerCase(), [name, value]);
      set('User-Agent', options.userAgent);
      set('Accept', 'application/vnd.service+json');
      set('X-Service-Api-Version', API_VERSION);
      const url = requestUrl(base, spec);
      // A URL on another origin (a redirect to storage) gets no credentials, as browsers and
      // fetch drop Authorization on a cross-origin redirect: the token is the target's only.
      const foreign = url.origin !== new URL(base).origin;
      const token = actingAs === ANONYMOUS || foreign ? undefined : options.tokens[actingAs];
      if (actingAs !== ANONYMOUS) {
        if (options.tokens[actingAs] === undefined)
          throw new HarnessError('CAPABILITY', `no token for role ${actingAs} (map it with --tokens)`);
        if (token !== undefined) set('Authorization', `Bearer ${token}`);
      }
      let body: Buffer | undefined;
      if (spec.body !== undefined) {
        body = Buffer.from(JSON.stringify(spec.pad_to_bytes ? padBody(spec.body, spec.pad_to_bytes) : spec.body));
        set('Content-Type', 'application/json');
      } else if (spec.raw !== undefined) {
        body = Buffer.from(spec.raw);
        set('Content-Type', 'application/json');
      }
      for (const [name, value] of Object.entries(spec.headers ?? {})) {
        if (value === null) headers.delete(name.toLowerCase());
        else set(name, token === undefined ? value : value.replaceAll('$TOKEN', token));
      }
      for (const [key, value] of Object.entries(spec.query ?? {})) url.searchParams.append(key, String(value));
      const request: WireRequest = { method: spec.method, url: url.toString(), headers: [...headers.values()] as HeaderPairs, body };
      const response = await options.transport(request);
      return { request, response };
    },
  };
}
