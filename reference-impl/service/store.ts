// The service's whole state, built from the world: the core every area reads (the world's
// directory, the clock, the faults and variations switched on) and each area's own state.
// reset() returns all of it to the world (and the switches to those the service started with).
import type { Area, AreaModule, ServiceCore } from './area.js';
import { createClock } from './clock.js';
import { createDirectory } from './directory.js';
import { createDownloads } from './downloads.js';
import { createFaults, type ServiceFault } from './faults.js';
import { createVariants, type ServiceVariant } from './variants.js';
import { createInjectedFailures } from './injected-failures.js';
import { createRequestIds, type RequestIds } from './request-ids.js';
import { createSecretKeys } from './secret-keys.js';
import { createWebhooks } from './webhooks.js';
import type { World } from './world-model.js';

export interface Store extends ServiceCore {
  readonly areas: readonly Area[];
  /** X-Service-Request-Id of each answer, counted again from every reset. */
  readonly requestIds: RequestIds;
  reset(): void;
}

export function createStore(
  world: World,
  areaModules: readonly AreaModule[],
  start: { faults?: readonly ServiceFault[]; variants?: readonly ServiceVariant[] } = {},
  webhookUrl?: string,
): Store {
  const clock = createClock(world.clock.start);
  const faults = createFaults(start.faults);
  const core: ServiceCore = {
    directory: createDirectory(world),
    clock,
    faults,
    variants: createVariants(start.variants),
    downloads: createDownloads(clock, faults),
    failures: createInjectedFailures(),
    secretKeys: createSecretKeys(),
    webhooks: createWebhooks(webhookUrl),
  };
  const areas = areaModules.map((area) => area.create(core));
  const requestIds = createRequestIds();
  return {
    ...core,
    areas,
    requestIds,
    reset() {
      requestIds.reset();
      core.faults.reset();
      core.variants.reset();
      // The clock first: the world's state expires relative to its start.
      core.clock.reset();
      core.downloads.reset();
      core.failures.reset();
      core.secretKeys.reset();
      for (const area of areas) area.reset();
    },
  };
}
