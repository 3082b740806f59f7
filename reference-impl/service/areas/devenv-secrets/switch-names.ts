// The built-in faults and variations of the devenv-secrets area, apart from its code so that the
// service's lists of switch names (faults.ts, variants.ts) need none of the areas' modules.

/** Built-in faults of this area (suites/faults/devenv-secrets.yaml says what each does and breaks). */
export const SECRET_FAULTS = [
  'secrets.list-bare-array',
  'secrets.key-id-number',
  'secrets.value-returned',
  'secrets.update-201',
  'secrets.value-in-error',
  'secrets.delete-ignored',
  'secrets.get-without-updated-at',
] as const;

/** Built-in variations of this area: other choices the spec allows (suites/variants/devenv-secrets.yaml). */
export const SECRET_VARIANTS = [
  'secrets.unsealed-stored',
  'secrets.key-id-advisory',
  'secrets.reads-any-role',
  'secrets.value-placeholder',
] as const;
