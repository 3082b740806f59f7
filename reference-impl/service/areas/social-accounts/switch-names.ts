// The built-in faults and variations of the social-accounts area, apart from its code so that the
// service's lists of switch names (faults.ts, variants.ts) need none of the areas' modules.

/** Built-in faults of this area (suites/faults/social-accounts.yaml says what each does and breaks). */
export const SOCIAL_FAULTS = [
  'social.list-wrapped',
  'social.add-200',
  'social.invalid-url-accepted',
  'social.delete-ignored',
  'social.user-list-empty',
] as const;

/** Built-in variations of this area: other choices the spec allows (suites/variants/social-accounts.yaml). */
export const SOCIAL_VARIANTS = [
  'social.add-answers-all',
  'social.provider-generic-only',
  'social.empty-list-noop',
  'social.duplicate-accepted',
  'social.absent-delete-accepted',
  'social.lists-newest-first',
] as const;
