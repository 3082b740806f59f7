// The built-in faults and variations of the artifacts area, apart from its code so that the
// service's lists of switch names (faults.ts, variants.ts) need none of the areas' modules.

/** Built-in faults of this area (suites/faults/artifacts.yaml says what each does and breaks). */
export const ARTIFACT_FAULTS = [
  'artifacts.name-filter-ignored',
  'artifacts.list-bare-array',
  'artifacts.delete-ignored',
  'artifacts.expired-downloadable',
  'artifacts.link-long-lived',
  'artifacts.download-inline',
  'artifacts.any-format',
  'artifacts.run-filter-ignored',
  'artifacts.never-expired',
] as const;

/** Built-in variations of this area (suites/variants/artifacts.yaml says what each does and what allows it). */
export const ARTIFACT_VARIANTS = [
  'artifacts.size-uncompressed',
  'artifacts.digest-of-uploaded-files',
  'artifacts.deleted-gone-410',
  'artifacts.public-read-without-actions',
  'artifacts.links-reusable',
] as const;
