// The control API the harness uses for deterministic runs (not part of the spec; its routes,
// bodies and capabilities are lib/control-contract.ts):
// reset to the world, read and move the clock, switch built-in faults, inject failures
// (injected-failures.ts), rotate a repository's secret key (secret-keys.ts), digest the
// state requests can change (to show a refused request changed nothing), list capabilities,
// and describe the service as OpenAPI (openapi.ts).
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { packageVersion } from '../../../lib/project-files.js';
import { openApiDocument } from '../openapi.js';
import type { Static } from 'typebox';
import { CLOCK_MAX_MS, formatTimestamp } from '../clock.js';
import { validationFailed } from '../errors.js';
import { isServiceFault, SERVICE_FAULTS } from '../faults.js';
import type { Switches } from '../switches.js';
import { isServiceVariant, SERVICE_VARIANTS } from '../variants.js';
import {
  CAPABILITIES,
  CLOCK_BODY,
  FAILURES_BODY,
  FAULTS_BODY,
  RESET_BODY,
  ROTATE_BODY,
  VARIANTS_BODY,
} from '../../../lib/control-contract.js';
import type { Store } from '../store.js';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** JSON of plain data with Maps and Sets as tagged lists of their entries, in their order. */
const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (v instanceof Map ? ['Map', ...v] : v instanceof Set ? ['Set', ...v] : v)) ?? 'undefined';

export function registerControlRoutes(app: FastifyInstance, store: Store): void {
  const { clock } = store;
  const clockInvalid = (field: string) => validationFailed([{ resource: 'Clock', field, code: 'invalid' }]);

  app.post('/_conformance/reset', { schema: { body: RESET_BODY } }, async (_request, reply) => {
    store.reset();
    return reply.code(204).send();
  });

  app.get('/_conformance/clock', async () => ({ now: formatTimestamp(clock.now()) }));

  app.post<{ Body: Static<typeof CLOCK_BODY> }>('/_conformance/clock', { schema: { body: CLOCK_BODY } }, async (request) => {
    const { body } = request;
    if (body.set !== undefined) {
      const target = Date.parse(body.set);
      // Bounded so that now plus the longest expiry is still a representable date.
      if (!(target >= 0 && target <= CLOCK_MAX_MS)) throw clockInvalid('set');
      clock.set(target);
    } else if (body.advance_seconds !== undefined) {
      if (clock.now() + body.advance_seconds * 1000 > CLOCK_MAX_MS) throw clockInvalid('advance_seconds');
      clock.advance(body.advance_seconds);
    }
    return { now: formatTimestamp(clock.now()) };
  });

  // Replace the faults (variations) switched on at run time; a reset drops them again (back to --fault's, --variant's).
  registerSwitchRoutes(app, 'faults', FAULTS_BODY, 'fault', store.faults, isServiceFault);
  registerSwitchRoutes(app, 'variants', VARIANTS_BODY, 'variation', store.variants, isServiceVariant);

  // Failures to inject: `{"storage": N}` makes the next N repository writes fail (503).
  app.get('/_conformance/failures', async () => ({ pending: store.failures.pending() }));
  app.post<{ Body: Record<string, number> }>('/_conformance/failures', { schema: { body: FAILURES_BODY } }, async (request) => {
    store.failures.set(request.body);
    return { pending: store.failures.pending() };
  });

  // A new key pair for a repository's secrets: boxes sealed to the old key (its key_id) are refused from now on.
  app.post<{ Body: Static<typeof ROTATE_BODY> }>('/_conformance/secret-keys/rotate', { schema: { body: ROTATE_BODY } }, async (request) => {
    const [owner, name] = request.body.repository.split('/');
    const repository = store.directory.repository(owner, name);
    if (repository === undefined) throw validationFailed([{ resource: 'SecretKeys', field: 'repository', code: 'invalid' }]);
    return { key_id: store.secretKeys.rotate(`${repository.owner}/${repository.name}`).keyId };
  });

  // The service as an OpenAPI 3.1 document (openapi.ts), built on first request.
  let document: unknown;
  app.get('/_conformance/openapi.json', async () => {
    document ??= openApiDocument(
      store.areas.flatMap((area) => area.endpoints),
      packageVersion(),
    );
    return document;
  });

  // SHA-256 of each area's state and of all of them; the clock is left out: reading it changes
  // nothing. Canonical JSON, not v8's serialisation: that one writes the same number or array
  // differently by its representation in memory (small integer or double, packed or holey).
  app.get('/_conformance/state', async () => {
    const areas: Record<string, string> = {};
    for (const area of store.areas) areas[area.name] = sha256(canonicalJson(await area.state()));
    return { digest: sha256(JSON.stringify(areas)), areas };
  });

  app.get('/_conformance/capabilities', async () => ({
    capabilities: [...CAPABILITIES],
    faults: [...SERVICE_FAULTS],
    variants: [...SERVICE_VARIANTS],
  }));
}

/** GET and POST /_conformance/<field>: the switches of one kind now on, and setting exactly these on. */
function registerSwitchRoutes<T extends string>(
  app: FastifyInstance,
  field: 'faults' | 'variants',
  body: typeof FAULTS_BODY | typeof VARIANTS_BODY,
  noun: string,
  switches: Switches<T>,
  isKnown: (name: string) => name is T,
): void {
  const resource = field === 'faults' ? 'Faults' : 'Variants';
  app.get(`/_conformance/${field}`, async () => ({ active: switches.active() }));
  app.post<{ Body: Record<string, string[]> }>(`/_conformance/${field}`, { schema: { body } }, async (request) => {
    const names = request.body[field] ?? [];
    const unknown = names.filter((name) => !isKnown(name));
    if (unknown.length > 0)
      throw validationFailed(unknown.map((name) => ({ resource, field, code: 'custom', message: `unknown ${noun} ${name}` })));
    switches.set(names.filter(isKnown));
    return { active: switches.active() };
  });
}
