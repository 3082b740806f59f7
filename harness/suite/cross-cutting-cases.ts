// Cross-cutting rules: a rule of spec 1's conventions governs every request, so it is checked on
// every endpoint it governs, by a case generated here from the endpoint catalogue
// (suites/endpoints/<area>.yaml). Each endpoint's `example` is a request the world answers with
// success; a rule's case sends it changed in the one way the rule is about, and expects what the
// rule's words force. A new endpoint with an example gets every rule without anyone writing a case.
//
// The generated cases belong to the endpoint's area (its catalogue file): they run with
// `--suite AREA`, are keyed `AREA/RULE--ENDPOINT` (`assignees/user-agent-missing--assignees-list`),
// cite the rule's requirement and count in the coverage matrix as any written case does; their
// source is the endpoint's line in the catalogue.
//
// Decisions where the spec leaves a rule's reach open:
// - The schemes apply where the example acts as a role with a token. An unknown token, or none,
//   is refused only where the catalogue's `unauthenticated` says the spec's auth words need a
//   token, with the statuses it gives: on a public endpoint "Some endpoints can be called
//   without authentication" leaves it open whether a bad token is refused or ignored (the
//   conventions suite's MAY case records the reference's choice), and where the spec gives no
//   auth words (the README and archive endpoints) nothing is forced.
// - owner and repo are "case-insensitive" in spec 1's common parameters, which spec 2 shares; org
//   is said to be so in spec 2 only, so a spec 1 endpoint's org is not changed.
// - The changed request expects the example's own status: a rule about the request's form
//   (scheme, version header, media type, a name's case) leaves the answer as it was.
// - A repository or organization that does not exist is 404 ("resource not found") on an
//   endpoint that serves public data; elsewhere the endpoint is for some callers only, nothing
//   orders the existence check before the permission check, and 403 ("forbidden") is as good.
//
// A clean-room reading of the spec against every generated case (only the spec and the cases,
// not the reference) found these readings, and the `unauthenticated` statuses of endpoints
// whose rows list 403 or 404 but not 401.
import type { RequestSpec, StepsCase } from '../core/suite-format.js';
import { ANONYMOUS } from '../http/target-client.js';
import type { CatalogueEndpoint } from './endpoint-aliases.js';

/** One cross-cutting rule: where it applies and the case it makes of an endpoint's example. */
interface Rule {
  /** The first part of the case id: `user-agent-missing--assignees-list`. */
  name: string;
  /** The case it makes of an endpoint's example, or none where the rule does not reach that endpoint. */
  caseOf(example: Example): Omit<StepsCase, 'id'> | undefined;
}

interface Example {
  endpoint: CatalogueEndpoint;
  /** The example as a resolved request (method, path, params, query, body). */
  request: RequestSpec;
  as: string;
  status: number | number[];
  /** How titles name the endpoint (label()). */
  label: string;
}

const UNKNOWN_TOKEN = 'ts_not_a_known_token_123';
const CURRENT_VERSION = '2022-11-28';

/** The example with headers changed (a null removes a default header). */
const withHeaders = (request: RequestSpec, headers: Record<string, string | null>): RequestSpec => ({
  ...request,
  headers: { ...request.headers, ...headers },
});

/**
 * A one-step case: the example changed as `request`, expecting `status`. One that expects the
 * example's success on a write changes the world, so it needs a reset (SKIP without): a target
 * that cannot reset would see the next cases run on what it left.
 */
function oneStep(
  example: Example,
  title: string,
  requirement: string,
  request: RequestSpec,
  status: number | string | (number | string)[],
  aspects: StepsCase['aspects'] = ['status'],
): Omit<StepsCase, 'id'> {
  const writes = status === example.status && request.method !== 'GET';
  return {
    title: `${example.label}: ${title}`,
    requirements: [requirement],
    as: example.as,
    ...(writes && { requires: ['control.reset' as const] }),
    aspects,
    steps: [{ request, expect: { status } }],
  };
}

/** Path parameters spec 1 and 2 call case-insensitive, for an endpoint of `document`. */
const caseInsensitiveParams = (document: string): string[] => (document === '2' ? ['owner', 'repo', 'org'] : ['owner', 'repo']);

const RULES: readonly Rule[] = [
  {
    name: 'user-agent-missing',
    caseOf: (example) =>
      oneStep(
        example,
        'without User-Agent it is rejected',
        'user-agent.required',
        withHeaders(example.request, { 'User-Agent': null }),
        '4xx',
      ),
  },
  {
    // Empty is an invalid value (403) or none (rejected, no status given): a 4xx either way.
    name: 'user-agent-empty',
    caseOf: (example) =>
      oneStep(
        example,
        'with an empty User-Agent it is rejected',
        'user-agent.required',
        withHeaders(example.request, { 'User-Agent': '' }),
        '4xx',
      ),
  },
  {
    name: 'bearer-scheme',
    caseOf: (example) =>
      example.as === ANONYMOUS
        ? undefined
        : oneStep(
            example,
            'a token sent as Authorization Bearer is accepted',
            'auth.bearer-scheme',
            withHeaders(example.request, { Authorization: 'Bearer $TOKEN' }),
            example.status,
            ['auth'],
          ),
  },
  {
    name: 'token-scheme',
    caseOf: (example) =>
      example.as === ANONYMOUS
        ? undefined
        : oneStep(
            example,
            'a token sent as Authorization token is accepted',
            'auth.token-scheme',
            withHeaders(example.request, { Authorization: 'token $TOKEN' }),
            example.status,
            ['auth'],
          ),
  },
  {
    name: 'unknown-token',
    caseOf: ({ endpoint, request, label }) => {
      const status = endpoint.unauthenticated;
      if (status === undefined) return undefined;
      const expected = status.length === 1 ? status[0] : status;
      return {
        title: `${label}: an unknown token and no token at all get ${status.join(' or ')}`,
        requirements: ['auth.required-401'],
        as: ANONYMOUS,
        aspects: ['auth'],
        steps: [
          { request: withHeaders(request, { Authorization: `Bearer ${UNKNOWN_TOKEN}` }), expect: { status: expected } },
          { request, expect: { status: expected } },
        ],
      };
    },
  },
  {
    name: 'current-version',
    caseOf: (example) =>
      oneStep(
        example,
        `X-Service-Api-Version ${CURRENT_VERSION} is accepted`,
        'version.current',
        withHeaders(example.request, { 'X-Service-Api-Version': CURRENT_VERSION }),
        example.status,
      ),
  },
  {
    name: 'vendor-media-type',
    caseOf: (example) =>
      oneStep(
        example,
        'Accept application/vnd.service+json is accepted',
        'media.vendor-json',
        withHeaders(example.request, { Accept: 'application/vnd.service+json' }),
        example.status,
      ),
  },
  {
    name: 'application-json',
    caseOf: (example) =>
      oneStep(
        example,
        'Accept application/json is accepted',
        'media.application-json',
        withHeaders(example.request, { Accept: 'application/json' }),
        example.status,
      ),
  },
  {
    name: 'names-in-another-case',
    caseOf: (example) => {
      const params = example.request.params ?? {};
      const changed = caseInsensitiveParams(example.endpoint.spec.split('.')[0]).filter((name) => params[name] !== undefined);
      if (changed.length === 0) return undefined;
      const upper = Object.fromEntries(changed.map((name) => [name, params[name].toUpperCase()]));
      return oneStep(
        example,
        `${changed.join(', ')} in upper case name the same resources`,
        example.endpoint.spec.startsWith('2.') && changed.includes('org')
          ? 'conventions.case-insensitive-org'
          : 'conventions.case-insensitive-names',
        { ...example.request, params: { ...params, ...upper } },
        example.status,
      );
    },
  },
  {
    // The repository, else the organization, that the example names does not exist: 404, or
    // 403 where the endpoint is for some callers only (the spec does not order the two checks).
    name: 'unknown-owner-resource',
    caseOf: (example) => {
      const params = example.request.params ?? {};
      const name = ['repo', 'org'].find((p) => params[p] !== undefined);
      if (name === undefined) return undefined;
      const what = name === 'repo' ? 'repository' : 'organization';
      const open = example.endpoint.public === true;
      return oneStep(
        example,
        `an ${what} that does not exist gets ${open ? '404' : '404 or 403'}`,
        'errors.not-found-404',
        { ...example.request, params: { ...params, [name]: `no-such-${what}` } },
        open ? 404 : [404, 403],
      );
    },
  },
];

/** How titles name an endpoint: `GET /repos/{owner}/{repo}/assignees (assignees.list)`. */
const label = (endpoint: CatalogueEndpoint) => `${endpoint.method} ${endpoint.path} (${endpoint.id})`;

/** The generated cases of `endpoints` (one area's), in catalogue order, each rule in RULES' order. */
export function crossCuttingCases(endpoints: readonly CatalogueEndpoint[]): StepsCase[] {
  return endpoints.flatMap((endpoint) => {
    const written = endpoint.example;
    if (!written) return [];
    const { as, status, ...request } = written;
    const example: Example = {
      endpoint,
      request: { method: endpoint.method, path: endpoint.path, ...request },
      as,
      status,
      label: label(endpoint),
    };
    return RULES.flatMap((rule) => {
      const generated = rule.caseOf(example);
      return generated ? [{ id: `${rule.name}--${endpoint.id.replace('.', '-')}`, ...generated }] : [];
    });
  });
}
