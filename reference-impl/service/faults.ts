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

type CoreFault = (typeof CORE_FAULTS)[number];

/**
 * Core faults narrowed to the endpoints of one area, each where the written cases never look
 * at the rule it breaks: only the cases generated on every endpoint from the catalogue
 * (harness/suite/cross-cutting-cases.ts) can catch it, and the kill matrix shows that they do.
 */
const NARROWED_FAULTS = {
  'user-agent.not-required-on-contents': { fault: 'user-agent.not-required', area: 'contents' },
  'auth.bearer-refused-on-traffic': { fault: 'auth.bearer-refused', area: 'traffic' },
  'auth.token-scheme-refused-on-artifacts': { fault: 'auth.token-scheme-refused', area: 'artifacts' },
  'auth.required-as-403-on-assignees': { fault: 'auth.required-as-403', area: 'assignees' },
  'version.current-refused-on-social-accounts': { fault: 'version.current-refused', area: 'social-accounts' },
  'media.vendor-json-refused-on-deployment-protection': { fault: 'media.vendor-json-refused', area: 'deployment-protection' },
  'media.application-json-refused-on-variables': { fault: 'media.application-json-refused', area: 'variables' },
  'names.case-sensitive-on-devenv-secrets': { fault: 'names.case-sensitive', area: 'devenv-secrets' },
  'names.case-sensitive-on-assistant': { fault: 'names.case-sensitive', area: 'assistant' },
  'repos.unknown-repository-empty-on-artifacts': { fault: 'repos.unknown-repository-empty', area: 'artifacts' },
} as const satisfies Record<string, { fault: CoreFault; area: string }>;

export type ServiceFault = CoreFault | AreaFault | keyof typeof NARROWED_FAULTS;

export const SERVICE_FAULTS: readonly ServiceFault[] = [
  ...CORE_FAULTS,
  ...AREA_FAULTS,
  ...(Object.keys(NARROWED_FAULTS) as (keyof typeof NARROWED_FAULTS)[]),
];

export function isServiceFault(name: string): name is ServiceFault {
  return isListed(SERVICE_FAULTS, name);
}

export interface Faults extends Switches<ServiceFault> {
  /** Whether a fault narrowed to an area is on: only then does an endpoint's area matter (in()). */
  narrowing(): boolean;
  /** The faults as an endpoint of `area` sees them: a fault narrowed to that area is on there as the fault it narrows. */
  in(area: string | undefined): Faults;
}

export function createFaults(initial: readonly ServiceFault[] = []): Faults {
  const switches = createSwitches(SERVICE_FAULTS, initial);
  let narrowed: { fault: CoreFault; area: string }[] = [];
  const update = () => {
    narrowed = Object.entries(NARROWED_FAULTS)
      .filter(([name]) => switches.on(name as ServiceFault))
      .map(([, scope]) => scope);
  };
  update();
  const faults: Faults = {
    ...switches,
    set(names) {
      switches.set(names);
      update();
    },
    reset() {
      switches.reset();
      update();
    },
    narrowing: () => narrowed.length > 0,
    in(area) {
      const here = new Set<ServiceFault>(narrowed.filter((scope) => scope.area === area).map((scope) => scope.fault));
      if (here.size === 0) return faults;
      const seen: Faults = { ...faults, on: (name) => here.has(name) || switches.on(name), in: () => seen };
      return seen;
    },
  };
  return faults;
}
