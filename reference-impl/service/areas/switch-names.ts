// The built-in faults and variations the areas declare, each area's in its own switch-names.ts,
// in the order the areas register their routes (index.ts): the order the control API lists them.
// Apart from the areas' modules (index.ts) so that faults.ts and variants.ts, which every area
// refers to for its types, import no area's code: no import cycle, not even one of types.
import { ARTIFACT_FAULTS, ARTIFACT_VARIANTS } from './artifacts/switch-names.js';
import { ASSIGNEE_FAULTS, ASSIGNEE_VARIANTS } from './assignees/switch-names.js';
import { ASSISTANT_FAULTS, ASSISTANT_VARIANTS } from './assistant/switch-names.js';
import { CONTENTS_FAULTS, CONTENTS_VARIANTS } from './contents/switch-names.js';
import { PROTECTION_FAULTS, PROTECTION_VARIANTS } from './deployment-protection/switch-names.js';
import { SECRET_FAULTS, SECRET_VARIANTS } from './devenv-secrets/switch-names.js';
import { LIMIT_FAULTS, LIMIT_VARIANTS } from './interaction-limits/switch-names.js';
import { SOCIAL_FAULTS, SOCIAL_VARIANTS } from './social-accounts/switch-names.js';
import { IMPORT_FAULTS, IMPORT_VARIANTS } from './source-imports/switch-names.js';
import { TRAFFIC_FAULTS, TRAFFIC_VARIANTS } from './traffic/switch-names.js';
import { VARIABLE_FAULTS, VARIABLE_VARIANTS } from './variables/switch-names.js';

export const AREA_FAULTS = [
  ...ASSIGNEE_FAULTS,
  ...LIMIT_FAULTS,
  ...TRAFFIC_FAULTS,
  ...CONTENTS_FAULTS,
  ...PROTECTION_FAULTS,
  ...ARTIFACT_FAULTS,
  ...ASSISTANT_FAULTS,
  ...VARIABLE_FAULTS,
  ...SECRET_FAULTS,
  ...SOCIAL_FAULTS,
  ...IMPORT_FAULTS,
] as const;

export const AREA_VARIANTS = [
  ...ASSIGNEE_VARIANTS,
  ...LIMIT_VARIANTS,
  ...TRAFFIC_VARIANTS,
  ...CONTENTS_VARIANTS,
  ...PROTECTION_VARIANTS,
  ...ARTIFACT_VARIANTS,
  ...ASSISTANT_VARIANTS,
  ...VARIABLE_VARIANTS,
  ...SECRET_VARIANTS,
  ...SOCIAL_VARIANTS,
  ...IMPORT_VARIANTS,
] as const;

/** The built-in faults the areas declare. */
export type AreaFault = (typeof AREA_FAULTS)[number];

/** The built-in variations the areas declare. */
export type AreaVariant = (typeof AREA_VARIANTS)[number];
