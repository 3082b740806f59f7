// The built-in faults and variations of the variables area, apart from its code so that the
// service's lists of switch names (faults.ts, variants.ts) need none of the areas' modules.

/** Built-in faults of this area (suites/faults/variables.yaml says what each does and breaks). */
export const VARIABLE_FAULTS = [
  'variables.create-200',
  'variables.list-per-page-100',
  'variables.selected-ids-any-visibility',
  'variables.rename-ignored',
  'variables.delete-ignored',
  'variables.repositories-any-visibility',
  'variables.put-repositories-appends',
  'variables.add-repository-ignored',
  'variables.remove-repository-ignored',
  'variables.list-bare-array',
  'variables.get-without-visibility',
] as const;

/** Built-in variations of this area: other choices the spec allows (suites/variants/variables.yaml). */
export const VARIABLE_VARIANTS = [
  'variables.list-default-per-page-30',
  'variables.selected-ids-400',
  'variables.update-ids-ignored',
  'variables.unknown-repositories-accepted',
  'variables.duplicate-name-overwrites',
  'variables.names-any-string',
  'variables.names-as-sent',
  'variables.repositories-by-name',
  'variables.collaborators-manage',
  'variables.private-repository-hidden',
] as const;
