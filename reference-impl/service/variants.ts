// Built-in variations: named choices the spec leaves open, made otherwise than the reference
// makes them, each switched at the one place where the reference decides that behaviour (a
// flag read there, never a second implementation). A variation is the dual of a fault: a
// fault breaks a rule and a case must catch it; a variation keeps every rule and every case
// must let it pass. `touchstone serve --variant NAME` starts with some on; the control API
// sets them at run time; `touchstone mutate` switches each on in turn and shows the suites
// judge it conforming. What each changes and the spec's words (or silence) that allow it is
// written once, in suites/variants/*.yaml; a test holds that registry and this list equal.
// The variations of the shared code are listed here; each area lists its own beside its
// endpoints (areas/<area>/switch-names.ts), and SERVICE_VARIANTS is all of them.
import { isListed } from '../fault-list.js';
import { AREA_VARIANTS, type AreaVariant } from './areas/switch-names.js';
import { createSwitches, type Switches } from './switches.js';

const CORE_VARIANTS = [
  // former names of repositories, and metadata implied by any permission (auth/authorize.ts)
  'repos.former-names-unknown',
  'auth.metadata-explicit',
  // credentials and access (auth/credentials.ts, auth/authorize.ts)
  'auth.bad-credentials-ignored',
  'auth.private-repository-403',
  // request conventions (conventions.ts)
  'user-agent.missing-400',
  'version.header-required',
  'version.unknown-served-as-current',
  'media.unsupported-accept-ignored',
  'media.unsupported-accept-406',
  'media.json-without-charset',
  'media.vendor-content-type',
  'conventions.extra-headers',
  // errors (error-handler.ts, json-body.ts, body-validation.ts)
  'errors.message-only',
  'errors.problem-details',
  'errors.other-messages',
  'errors.malformed-json-422',
  'errors.unknown-fields-ignored',
  'errors.lenient-body-types',
  'errors.oversized-body-400',
  // representations (representations.ts)
  'representations.extra-fields',
  // conditional requests (etag.ts)
  'etag.weak',
  'etag.no-conditional-requests',
  // pagination (pagination.ts)
  'pagination.past-end-404',
  'pagination.invalid-parameters-ignored',
  'pagination.invalid-parameters-400',
] as const;

export type ServiceVariant = (typeof CORE_VARIANTS)[number] | AreaVariant;

export const SERVICE_VARIANTS: readonly ServiceVariant[] = [...CORE_VARIANTS, ...AREA_VARIANTS];

export function isServiceVariant(name: string): name is ServiceVariant {
  return isListed(SERVICE_VARIANTS, name);
}

export type Variants = Switches<ServiceVariant>;

export const createVariants = (initial: readonly ServiceVariant[] = []): Variants => createSwitches(SERVICE_VARIANTS, initial);
