// Known failures and known-flaky cases (--baseline FILE), as conformance failure lists work:
// a listed case must fail as listed, or the run fails.
// - known: a case that fails or warns becomes XFAIL, unless its entry expired (the day after
//   `expires`, UTC) or its message lacks the entry's expected `message`: then it is FAIL. A
//   listed case that passes is a stale entry and one that is skipped was not checked: both
//   FAIL, so the list can only shrink honestly.
// - flaky: a failure becomes XFAIL (until the entry expires), a pass is fine.
// Each case the baseline touched keeps what it was before (`baseline.was`), for
// `touchstone baseline update`.
import { Type, type Static } from 'typebox';
import { HarnessError } from '../core/errors.js';
import { Definitions, described, oneOf, schemaFile, type SchemaFile } from '../core/schema-document.js';
import { compileSchemaFile, createAjv, readValidatedFile } from '../core/validated-file.js';
import type { CaseResult } from '../core/results.js';
import { projectPath } from '../../lib/project-files.js';

const BaselineEntrySchema = Type.Object(
  {
    case: Type.String({ description: '<suite>/<case id>, as reports name it', pattern: '^[^/\\s]+/[^/\\s]+$' }),
    reason: Type.String({ description: 'why it is listed: a bug number, a decision', minLength: 1 }),
    /** YYYY-MM-DD: the last day the entry holds. */
    expires: Type.Optional(
      Type.String({ description: 'the last day (UTC) the entry holds; after it the case fails the run again', format: 'date' }),
    ),
    /** Text the case's failure message must contain. */
    message: Type.Optional(
      Type.String({ description: 'text the failure message must contain: a case that fails differently fails the run', minLength: 1 }),
    ),
  },
  { additionalProperties: false },
);

export type BaselineEntry = Static<typeof BaselineEntrySchema>;

export interface Baseline {
  known: BaselineEntry[];
  flaky: BaselineEntry[];
}

const baselineDefs = new Definitions();
const Entries = baselineDefs.define('entries', Type.Array(BaselineEntrySchema));

const BaselineFileSchema = oneOf([
  Entries,
  Type.Object(
    {
      known: Type.Optional(described(Entries, 'cases expected to fail (or warn): XFAIL while they fail as expected')),
      flaky: Type.Optional(described(Entries, 'cases that fail now and then: a failure is XFAIL, a pass is fine')),
    },
    { additionalProperties: false },
  ),
]);

/** A plain list is the known failures alone. */
export type BaselineFile = Static<typeof BaselineFileSchema>;

export const baselineSchemaFile: SchemaFile = schemaFile(
  'harness/report/baseline.schema.json',
  {
    $id: 'touchstone:baseline',
    title: 'touchstone baseline (--baseline FILE)',
    description: 'Known failures and known-flaky cases. A plain list is the known failures alone.',
  },
  BaselineFileSchema,
  baselineDefs,
);

const validate = compileSchemaFile(createAjv(), projectPath(baselineSchemaFile.path));

export function normaliseBaseline(data: BaselineFile): Baseline {
  return Array.isArray(data) ? { known: data, flaky: [] } : { known: data.known ?? [], flaky: data.flaky ?? [] };
}

export function readBaseline(file: string): Baseline {
  const baseline = normaliseBaseline(readValidatedFile<BaselineFile>(file, validate));
  const listed = [...baseline.known, ...baseline.flaky].map((e) => e.case);
  const twice = listed.filter((id, i) => listed.indexOf(id) !== i);
  if (twice.length > 0) throw new HarnessError('CONFIG', `${file}: ${[...new Set(twice)].join(', ')} listed more than once`);
  return baseline;
}

/** The cases a baseline names that the catalogue does not have: a typo would otherwise excuse nothing, silently. */
export function unknownBaselineCases(baseline: Baseline, known: Set<string>): string[] {
  return [...baseline.known, ...baseline.flaky].map((e) => e.case).filter((id) => !known.has(id));
}

/** The first line of a message: what a baseline entry records and compares. */
export const firstLine = (message: string | undefined) => (message ?? '').split('\n')[0];

export function applyBaseline(cases: CaseResult[], baseline: Baseline, file: string, today: string): CaseResult[] {
  const entries = new Map<string, BaselineEntry & { list: 'known' | 'flaky' }>();
  for (const list of ['known', 'flaky'] as const) for (const e of baseline[list]) entries.set(e.case, { ...e, list });
  return cases.map((c) => {
    const entry = entries.get(c.id);
    if (!entry) return c;
    const failing = c.outcome === 'FAIL' || c.outcome === 'WARN';
    const marked = (outcome: CaseResult['outcome'], message: string): CaseResult => ({
      ...c,
      outcome,
      message,
      baseline: { list: entry.list, reason: entry.reason, was: c.outcome, ...(c.message !== undefined && { was_message: c.message }) },
    });
    if (failing && entry.expires !== undefined && today > entry.expires)
      return marked('FAIL', `the ${file} entry for ${c.id} expired on ${entry.expires} (${entry.reason}): ${c.message ?? ''}`);
    if (entry.list === 'flaky') return failing ? marked('XFAIL', `known flaky (${entry.reason}): ${c.message ?? ''}`) : c;
    if (failing && entry.message !== undefined && !(c.message ?? '').includes(entry.message))
      return marked('FAIL', `fails differently than ${file} expects ("${entry.message}"): ${c.message ?? ''}`);
    if (failing) return marked('XFAIL', `known failure (${entry.reason}): ${c.message ?? ''}`);
    if (c.outcome === 'PASS') return marked('FAIL', `stale baseline entry: the case passes now; remove ${c.id} from ${file}`);
    if (c.outcome === 'SKIP')
      return marked('FAIL', `listed in ${file} as a known failure, but skipped, so not checked: ${c.message ?? ''}`);
    return c;
  });
}
