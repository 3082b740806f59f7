// The built-in faults and variations of the deployment-protection area, apart from its code so that the
// service's lists of switch names (faults.ts, variants.ts) need none of the areas' modules.

/** Built-in faults of this area (suites/faults/deployment-protection.yaml says what each does and breaks). */
export const PROTECTION_FAULTS = [
  'protection.list-bare-array',
  'protection.enable-200',
  'protection.enable-unavailable-app',
  'protection.encoded-slash-refused',
  'protection.apps-flat-list',
  'protection.delete-ignored',
  'protection.get-other-environment',
] as const;

/** Built-in variations of this area (suites/variants/deployment-protection.yaml says what each does and what allows it). */
export const PROTECTION_VARIANTS = [
  'protection.unavailable-app-404',
  'protection.duplicate-rules-accepted',
  'protection.apps-exclude-enabled',
  'protection.apps-default-per-page-100',
  'protection.public-read-without-actions',
  'protection.denied-as-404',
] as const;
