// The built-in faults and variations of the source-imports area, apart from its code so that the
// service's lists of switch names (faults.ts, variants.ts) need none of the areas' modules.

/** Built-in faults of this area (suites/faults/source-imports.yaml says what each does and breaks). */
export const IMPORT_FAULTS = [
  'imports.start-200',
  'imports.detection-skipped',
  'imports.never-complete',
  'imports.no-progress',
  'imports.password-returned',
  'imports.credentials-ignored',
  'imports.restart-ignored',
  'imports.delete-ignored',
  'imports.workflow-automation-allowed',
  'imports.never-retired',
  'imports.authors-since-ignored',
  'imports.failure-hidden',
  'imports.get-without-authors-url',
] as const;

/** Built-in variations of this area (suites/variants/source-imports.yaml says what each does and what allows it). */
export const IMPORT_VARIANTS = [
  'imports.phase-durations-other',
  'imports.progress-during-phase-only',
  'imports.failed-step-verbs',
  'imports.error-message-key-message',
  'imports.restart-from-error-refused',
  'imports.unlisted-choice-accepted',
  'imports.project-choices-reversed',
  'imports.authors-wrapped',
  'imports.other-tokens-401',
] as const;
