// The built-in faults and variations of the interaction-limits area, apart from its code so that the
// service's lists of switch names (faults.ts, variants.ts) need none of the areas' modules.

/** Built-in faults of this area (suites/faults/interaction-limits.yaml says what each does and breaks). */
export const LIMIT_FAULTS = [
  'representations.limit-without-origin',
  'representations.limit-none-as-null',
  'limits.put-201',
  'limits.put-keeps-active',
  'limits.collaborators-only-refused',
  'limits.long-expiry-refused',
  'limits.expiry-ignored',
  'limits.delete-ignored',
  'limits.delete-200',
  'limits.never-expire',
  'limits.owner-limit-ignored',
  'limits.org-put-skips-repositories',
  'limits.org-get-empty',
  'limits.org-put-201',
  'limits.org-delete-ignored',
  'limits.org-delete-200',
] as const;

/** Built-in variations of this area (suites/variants/interaction-limits.yaml says what each does and what allows it). */
export const LIMIT_VARIANTS = [
  'limits.calendar-months',
  'limits.active-at-expires-at',
  'limits.org-default-one-week',
  'limits.unknown-expiry-default',
  'limits.org-delete-keeps-repository-limits',
  'limits.delete-none-404',
  'limits.denied-as-404',
  'limits.public-repository-no-scope',
  'limits.repo-scope-only',
  'limits.expires-at-offset',
] as const;
