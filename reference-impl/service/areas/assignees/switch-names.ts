// The built-in faults and variations of the assignees area, apart from its code so that the
// service's lists of switch names (faults.ts, variants.ts) need none of the areas' modules.

/** Built-in faults of this area (suites/faults/assignees.yaml says what each does and breaks). */
export const ASSIGNEE_FAULTS = [
  'representations.issue-without-locked',
  'representations.pull-request-link-missing',
  'assignees.list-without-owners',
  'assignees.check-200',
  'assignees.check-anyone',
  'assignees.add-200',
  'assignees.add-replaces',
  'assignees.more-than-ten',
  'assignees.remove-ignored',
  'assignees.remove-204',
  'assignees.push-not-required',
  'assignees.unknown-issue-422',
] as const;

/** Built-in variations of this area (suites/variants/assignees.yaml says what each does and what allows it). */
export const ASSIGNEE_VARIANTS = [
  'assignees.assignable-readers',
  'assignees.assignable-collaborators-only',
  'assignees.empty-list-refused',
  'assignees.over-ten-first-ten',
  'assignees.cap-per-call',
  'assignees.pull-request-url-web',
  'assignees.denied-as-404',
] as const;
