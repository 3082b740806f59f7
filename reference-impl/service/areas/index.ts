// The service's areas, in the order their routes are registered. Adding an area is a
// folder under areas/ and its line here, and its switch-names.ts's line in switch-names.ts (its
// faults join SERVICE_FAULTS, its variations SERVICE_VARIANTS).
import { artifacts } from './artifacts/endpoints.js';
import { assistant } from './assistant/endpoints.js';
import { assignees } from './assignees/endpoints.js';
import { contents } from './contents/endpoints.js';
import { deploymentProtection } from './deployment-protection/endpoints.js';
import { devenvSecrets } from './devenv-secrets/endpoints.js';
import { interactionLimits } from './interaction-limits/endpoints.js';
import { socialAccounts } from './social-accounts/endpoints.js';
import { sourceImports } from './source-imports/endpoints.js';
import { traffic } from './traffic/endpoints.js';
import { variables } from './variables/endpoints.js';

export const AREAS = [
  assignees,
  interactionLimits,
  traffic,
  contents,
  deploymentProtection,
  artifacts,
  assistant,
  variables,
  devenvSecrets,
  socialAccounts,
  sourceImports,
] as const;
