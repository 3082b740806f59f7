// Built-in faults: named deviations from the spec, each switched at the one place where
// the reference decides that behaviour (a flag read there, never a second implementation).
// `touchstone serve --fault NAME` starts with some on; the control API sets them at run
// time; the kill matrix (`touchstone mutate`) switches each on in turn and shows which
// cases catch it. What each fault does and which requirements it breaks is written once,
// in suites/faults/*.yaml; a test holds that registry and this list equal.
// The faults of the shared code are listed here; each area lists its own beside its
// endpoints (areas/<area>/switch-names.ts), and SERVICE_FAULTS is all of them.
import { isListed } from '../fault-list.js';
import { AREA_FAULTS, type AreaFault } from './areas/switch-names.js';
import { createSwitches, type Switches } from './switches.js';

const CORE_FAULTS = [
  // credentials (auth/credentials.ts)
  'auth.bearer-refused',
  'auth.token-scheme-refused',
  'auth.workflow-token-refused',
  // access decisions (auth/authorize.ts)
  'auth.anonymous-refused',
  'auth.anonymous-not-challenged',
  'auth.required-as-403',
  'auth.forbidden-as-404',
  'auth.scopes-ignored',
  'auth.permissions-ignored',
  'auth.read-permission-can-write',
  'auth.admin-role-not-required',
  'auth.push-role-not-required',
  'auth.further-need-ignored',
  'auth.org-ownership-not-required',
  'auth.enterprise-viewers-refused',
  'auth.token-kind-ignored',
  'names.case-sensitive',
  'repos.unknown-repository-empty',
  // download links (downloads.ts)
  'downloads.reusable',
  'downloads.never-expire',
  // request conventions (conventions.ts)
  'user-agent.not-required',
  'version.current-refused',
  'media.vendor-json-refused',
  'media.application-json-refused',
  'media.first-type-only',
  'media.json-labelled-text',
  // errors (error-handler.ts, json-body.ts, body-validation.ts)
  'errors.unknown-route-400',
  'errors.validation-as-400',
  'errors.malformed-json-500',
  'errors.wrong-types-accepted',
  // pagination (pagination.ts)
  'pagination.no-link-header',
  'pagination.prev-on-first-page',
  'pagination.link-on-single-page',
  'pagination.per-page-not-repeated',
  'pagination.page-missing-in-links',
  'pagination.default-per-page-25',
  'pagination.max-ignored',
  'pagination.page-default-2',
  // representations (representations.ts)
  'representations.user-without-node-id',
  'representations.timestamps-local-offset',
] as const;

export type ServiceFault = (typeof CORE_FAULTS)[number] | AreaFault;

export const SERVICE_FAULTS: readonly ServiceFault[] = [...CORE_FAULTS, ...AREA_FAULTS];

export function isServiceFault(name: string): name is ServiceFault {
  return isListed(SERVICE_FAULTS, name);
}

export type Faults = Switches<ServiceFault>;

export const createFaults = (initial: readonly ServiceFault[] = []): Faults => createSwitches(SERVICE_FAULTS, initial);
