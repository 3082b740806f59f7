// An area of the service: a group of endpoints of the spec with the state they share
// (areas/<name>/). An area gets the service's core (the world's directory, the clock, the
// faults and variations), builds its own state from it, and hands back its endpoint
// definitions and how to return that state to the world on a reset. Nothing outside its
// folder knows its state; it lists its own built-in faults and variations.
import type { Clock } from './clock.js';
import type { Directory } from './directory.js';
import type { Downloads } from './downloads.js';
import type { Endpoint } from './endpoint.js';
import type { Faults } from './faults.js';
import type { InjectedFailures } from './injected-failures.js';
import type { SecretKeys } from './secret-keys.js';
import type { Variants } from './variants.js';
import type { Webhooks } from './webhooks.js';

export interface ServiceCore {
  readonly directory: Directory;
  readonly clock: Clock;
  readonly faults: Faults;
  /** The built-in variations switched on: other choices where the spec leaves one (variants.ts). */
  readonly variants: Variants;
  /** Single-use, expiring download links (download_url, archive and artifact redirects). */
  readonly downloads: Downloads;
  /** Failures the control API injects (a storage write that fails: 503). */
  readonly failures: InjectedFailures;
  /** The key pairs repository secrets are sealed to (rotated through the control API). */
  readonly secretKeys: SecretKeys;
  /** Webhook deliveries (RepositoryImportEvent), to the URL the service was started with. */
  readonly webhooks: Webhooks;
}

export interface Area {
  readonly name: string;
  readonly endpoints: readonly Endpoint[];
  /** Back to the world, after the clock was reset. */
  reset(): void;
  /**
   * What its requests can change, as plain data (Maps, Sets, arrays, records, primitives) for
   * the control API's state digest: equal before and after a request means it changed nothing.
   */
  state(): unknown;
}

export type AreaFactory = (core: ServiceCore) => Area;

/** An area as the service lists it: its name and how to build it (its built-in faults and
 * variations, switched in its own code, are listed in its switch-names.ts). */
export interface AreaModule {
  readonly name: string;
  readonly create: AreaFactory;
}
