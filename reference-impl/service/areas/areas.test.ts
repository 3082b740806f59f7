// The areas are listed twice: their modules in registration order (index.ts, AREAS) and their
// switch names (switch-names.ts), apart so that faults.ts and variants.ts import no area code.
// The control API lists faults and variations in registration order, so the two lists keep one.
import { expect, test } from '@playwright/test';
import { AREAS } from './index.js';
import { AREA_SWITCH_NAMES } from './switch-names.js';

test('switch-names.ts lists the areas of index.ts, in the same order', () => {
  expect(AREA_SWITCH_NAMES.map((switches) => switches.area)).toEqual(AREAS.map((area) => area.name));
});
