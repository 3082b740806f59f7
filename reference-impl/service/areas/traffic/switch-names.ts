// The built-in faults and variations of the traffic area, apart from its code so that the
// service's lists of switch names (faults.ts, variants.ts) need none of the areas' modules.

/** Built-in faults of this area (suites/faults/traffic.yaml says what each does and breaks). */
export const TRAFFIC_FAULTS = [
  'traffic.popular-uncut',
  'traffic.count-as-string',
  'traffic.per-ignored',
  'traffic.window-28-days',
  'traffic.week-starts-sunday',
  'traffic.timestamps-at-noon',
  'traffic.series-key-entries',
] as const;

/** Built-in variations of this area (suites/variants/traffic.yaml says what each does and what allows it). */
export const TRAFFIC_VARIANTS = [
  'traffic.popular-by-uniques',
  'traffic.unknown-per-as-day',
  'traffic.anonymous-403',
  'traffic.window-completed-days',
  'traffic.week-entries-whole-weeks',
  'traffic.timestamps-offset',
  'traffic.installation-refused',
  'traffic.window-rolling-hours',
] as const;
