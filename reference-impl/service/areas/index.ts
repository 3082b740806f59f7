// The service's areas, in the order their routes are registered. Adding an area is a
// folder under areas/ and its line here.
import type { AreaFactory } from '../area.js';
import { assigneesArea } from './assignees/endpoints.js';
import { interactionLimitsArea } from './interaction-limits/endpoints.js';

export const AREAS: readonly AreaFactory[] = [assigneesArea, interactionLimitsArea];
