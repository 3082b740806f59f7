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

/** Each area's switch names, in the order of AREAS (index.ts); areas.test.ts holds the two to one order. */
export const AREA_SWITCH_NAMES = [
  { area: 'assignees', faults: ASSIGNEE_FAULTS, variants: ASSIGNEE_VARIANTS },
  { area: 'interaction-limits', faults: LIMIT_FAULTS, variants: LIMIT_VARIANTS },
  { area: 'traffic', faults: TRAFFIC_FAULTS, variants: TRAFFIC_VARIANTS },
  { area: 'contents', faults: CONTENTS_FAULTS, variants: CONTENTS_VARIANTS },
  { area: 'deployment-protection', faults: PROTECTION_FAULTS, variants: PROTECTION_VARIANTS },
  { area: 'artifacts', faults: ARTIFACT_FAULTS, variants: ARTIFACT_VARIANTS },
  { area: 'assistant', faults: ASSISTANT_FAULTS, variants: ASSISTANT_VARIANTS },
  { area: 'variables', faults: VARIABLE_FAULTS, variants: VARIABLE_VARIANTS },
  { area: 'devenv-secrets', faults: SECRET_FAULTS, variants: SECRET_VARIANTS },
  { area: 'social-accounts', faults: SOCIAL_FAULTS, variants: SOCIAL_VARIANTS },
  { area: 'source-imports', faults: IMPORT_FAULTS, variants: IMPORT_VARIANTS },
] as const;

type Switches = (typeof AREA_SWITCH_NAMES)[number];

export const AREA_FAULTS: readonly Switches['faults'][number][] = AREA_SWITCH_NAMES.flatMap((area) => area.faults);

export const AREA_VARIANTS: readonly Switches['variants'][number][] = AREA_SWITCH_NAMES.flatMap((area) => area.variants);

/** The built-in faults the areas declare. */
export type AreaFault = (typeof AREA_FAULTS)[number];

/** The built-in variations the areas declare. */
export type AreaVariant = (typeof AREA_VARIANTS)[number];
