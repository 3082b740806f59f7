// The control API a target may serve beside the service (/_conformance/*), as one source:
// the reference serves these routes with these bodies (reference-impl/service/routes/control.ts),
// the harness calls them (harness/http/target-control.ts, and the suites' rotate step),
// `touchstone openapi --control` prints them as OpenAPI, and docs/target-contract.md explains
// them in words. harness/suite/control-contract.test.ts holds the four equal.
//
// Decisions where nothing else says:
// - Only GET /_conformance/capabilities is read without being declared: it is how a target
//   declares the rest. A capability not listed is never used, even if its route answers.
// - Control calls carry no token, except the rotate step, which a case sends as its role
//   (repo-admin): a target should not require one on any of them.
// - Faults, variations and the OpenAPI document are the reference's own (the kill matrix and API
//   tools use them); a third-party target has no reason to serve them.
import { Type, type TSchema } from 'typebox';

export const FAILURE_KINDS = ['storage', 'internal', 'maintenance'] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

export const CAPABILITIES = [
  'control.reset',
  'control.clock',
  'control.faults',
  'control.variants',
  'control.failures',
  'control.key-rotation',
  'control.state',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** The capabilities only the reference has a use for: touchstone's kill matrix switches them. */
export const REFERENCE_ONLY: readonly Capability[] = ['control.faults', 'control.variants'];

export const RESET_BODY = Type.Object({}, { title: 'Reset', additionalProperties: false });

export const CLOCK_BODY = Type.Object(
  {
    set: Type.Optional(Type.String({ format: 'date-time', description: 'an RFC 3339 date-time, such as 2024-03-01T00:00:00Z' })),
    advance_seconds: Type.Optional(Type.Integer({ minimum: 0, description: 'seconds to move the clock forward' })),
  },
  { title: 'Clock', minProperties: 1, maxProperties: 1, additionalProperties: false },
);

export const FAULTS_BODY = Type.Object(
  { faults: Type.Array(Type.String(), { uniqueItems: true }) },
  { title: 'Faults', additionalProperties: false },
);

export const VARIANTS_BODY = Type.Object(
  { variants: Type.Array(Type.String(), { uniqueItems: true }) },
  { title: 'Variants', additionalProperties: false },
);

export const ROTATE_BODY = Type.Object(
  { repository: Type.String({ pattern: '^[^/]+/[^/]+$', description: 'owner/name' }) },
  { title: 'SecretKeys', additionalProperties: false },
);

const failureCounts = (description: string, optional: boolean) =>
  Object.fromEntries(
    FAILURE_KINDS.map((kind) => {
      const count = Type.Integer({ minimum: 0, maximum: 1000, description });
      return [kind, optional ? Type.Optional(count) : count];
    }),
  );

export const FAILURES_BODY = Type.Object(failureCounts('how many of the next operations of this kind fail', true), {
  title: 'Failures',
  minProperties: 1,
  additionalProperties: false,
});

const NOW = Type.Object({ now: Type.String({ format: 'date-time' }) }, { title: 'Now' });
const ACTIVE = Type.Object({ active: Type.Array(Type.String()) }, { title: 'Active' });
const PENDING = Type.Object({ pending: Type.Object(failureCounts('failures still to come', false)) }, { title: 'Pending' });

export interface ControlRoute {
  method: 'GET' | 'POST';
  path: string;
  /** The capability that declares the route; none: always read (capabilities itself). */
  capability?: Capability;
  /** Whether `touchstone run` calls it; otherwise only touchstone's own tests and tools do. */
  calledByRun: boolean;
  summary: string;
  body?: TSchema;
  status: 200 | 204;
  answer?: TSchema;
}

export const CONTROL_ROUTES: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/_conformance/capabilities',
    calledByRun: true,
    summary: 'What the target can do: read once at the start of a run (and by `touchstone target check`).',
    status: 200,
    answer: Type.Object(
      {
        capabilities: Type.Array(Type.String({ description: 'a capability name, such as control.reset' })),
        faults: Type.Optional(Type.Array(Type.String(), { description: 'the reference only: its built-in faults' })),
        variants: Type.Optional(Type.Array(Type.String(), { description: 'the reference only: its built-in variations' })),
      },
      { title: 'Capabilities' },
    ),
  },
  {
    method: 'POST',
    path: '/_conformance/reset',
    capability: 'control.reset',
    calledByRun: true,
    summary: 'Put the whole state back to the world as loaded, the clock included; sent before every case (no body).',
    body: RESET_BODY,
    status: 204,
  },
  {
    method: 'GET',
    path: '/_conformance/clock',
    capability: 'control.clock',
    calledByRun: false,
    summary: "The target's clock.",
    status: 200,
    answer: NOW,
  },
  {
    method: 'POST',
    path: '/_conformance/clock',
    capability: 'control.clock',
    calledByRun: true,
    summary:
      'Set the clock to an instant, or move it forward: every time the target writes or compares (created_at, expires_at, expiry) reads this clock.',
    body: CLOCK_BODY,
    status: 200,
    answer: NOW,
  },
  {
    method: 'GET',
    path: '/_conformance/failures',
    capability: 'control.failures',
    calledByRun: false,
    summary: 'The injected failures still to come.',
    status: 200,
    answer: PENDING,
  },
  {
    method: 'POST',
    path: '/_conformance/failures',
    capability: 'control.failures',
    calledByRun: true,
    summary:
      'Make the next N operations of a kind fail: storage (a repository write answers 503), internal (an assistant request answers 500), maintenance (a source-import request answers 503).',
    body: FAILURES_BODY,
    status: 200,
    answer: PENDING,
  },
  {
    method: 'POST',
    path: '/_conformance/secret-keys/rotate',
    capability: 'control.key-rotation',
    calledByRun: true,
    summary: "Give a repository's secrets a new key pair: boxes sealed to the old key_id are refused from now on.",
    body: ROTATE_BODY,
    status: 200,
    answer: Type.Object({ key_id: Type.String() }, { title: 'KeyId' }),
  },
  {
    method: 'GET',
    path: '/_conformance/state',
    capability: 'control.state',
    calledByRun: false,
    summary: 'A digest of the state requests can change (the clock left out), whole and per area: equal digests, nothing changed.',
    status: 200,
    answer: Type.Object({ digest: Type.String(), areas: Type.Record(Type.String(), Type.String()) }, { title: 'State' }),
  },
  ...(['faults', 'variants'] as const).flatMap((field): ControlRoute[] => {
    const capability = field === 'faults' ? 'control.faults' : 'control.variants';
    const what = field === 'faults' ? 'built-in faults' : 'built-in variations';
    return [
      {
        method: 'GET',
        path: `/_conformance/${field}`,
        capability,
        calledByRun: false,
        summary: `The ${what} switched on.`,
        status: 200,
        answer: ACTIVE,
      },
      {
        method: 'POST',
        path: `/_conformance/${field}`,
        capability,
        calledByRun: false,
        summary: `Switch exactly these ${what} on (the kill matrix); a reset switches them off.`,
        body: field === 'faults' ? FAULTS_BODY : VARIANTS_BODY,
        status: 200,
        answer: ACTIVE,
      },
    ];
  }),
  {
    method: 'GET',
    path: '/_conformance/openapi.json',
    calledByRun: false,
    summary: 'The reference only: the service as an OpenAPI 3.1 document (`touchstone openapi`).',
    status: 200,
    answer: Type.Object({}, { title: 'OpenApiDocument', additionalProperties: true }),
  },
];

type Json = Record<string, unknown>;
/** A TypeBox schema as plain JSON Schema (TypeBox's own markers left out). */
const plain = (schema: TSchema): Json => JSON.parse(JSON.stringify(schema));

/** The control API as an OpenAPI 3.1 document: `touchstone openapi --control`. */
export function controlOpenApiDocument(version: string): Json {
  const paths: Record<string, Json> = {};
  for (const route of CONTROL_ROUTES) {
    const responses: Json = {
      [route.status]: route.answer
        ? { description: 'Done', content: { 'application/json': { schema: plain(route.answer) } } }
        : { description: 'Done (no body)' },
    };
    if (route.body) responses['422'] = { description: 'The body is not one this route takes' };
    paths[route.path] = {
      ...paths[route.path],
      [route.method.toLowerCase()]: {
        operationId: `${route.method.toLowerCase()}${route.path.replace('/_conformance', '').replace(/[/.-](\w)/g, (_, c: string) => c.toUpperCase())}`,
        summary: route.summary,
        tags: [route.capability ?? 'always'],
        ...(route.body && {
          requestBody: {
            required: route.method === 'POST' && route.path !== '/_conformance/reset',
            content: { 'application/json': { schema: plain(route.body) } },
          },
        }),
        responses,
        'x-capability': route.capability ?? null,
        'x-called-by-run': route.calledByRun,
        ...(route.capability && REFERENCE_ONLY.includes(route.capability) && { 'x-reference-only': true }),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'touchstone control API',
      version,
      description:
        'What a target may serve beside the service so that touchstone can run every case: reset, clock, injected failures, key rotation. Each route is used only when GET /_conformance/capabilities lists its capability. No route needs a token. docs/target-contract.md explains each.',
    },
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
  };
}
