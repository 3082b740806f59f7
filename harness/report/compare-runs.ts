// `touchstone report compare`: several runs side by side, per case and per requirement. The
// first run is the point of comparison: a later run regressed where a case or requirement
// is worse there than in the first (a PASS now SKIP counts: it is no longer checked), and was
// fixed where it is better. Runs of different implementations read like a compatibility
// table; two runs of one implementation read as before and after a change.
import { outcomeSeverity } from '../core/outcome-order.js';
import type { Fingerprint, Level, Outcome, RequirementStatus, Results } from '../core/results.js';

export type Change = 'regressed' | 'fixed' | 'changed' | 'added' | 'removed' | 'same';
/** How rows sort: what a reader must see first. */
export const CHANGE_ORDER: readonly Change[] = ['regressed', 'fixed', 'changed', 'removed', 'added', 'same'];

export interface ComparedRun {
  label: string;
  results: Results;
}

interface Row<S> {
  id: string;
  level: Level;
  /** Per run, in the order given; undefined where that run does not have it. */
  cells: (S | undefined)[];
  /** Per run, against the first run ('same' for the first itself). */
  changes: Change[];
  /** The row's headline change: the most pressing of `changes`. */
  change: Change;
  /** A requirement's quoted text differs between runs (for a case: one it cites). */
  textChanged: boolean;
}

export interface CaseRow extends Row<Outcome> {
  title: string;
  /** Per run, the message of a case that did not pass. */
  messages: (string | undefined)[];
}

export type RequirementRow = Row<RequirementStatus>;

/** What a cell of either table shows: a case's outcome or a requirement's status. */
export type Cell = Outcome | RequirementStatus;

export interface Comparison {
  runs: ComparedRun[];
  cases: CaseRow[];
  requirements: RequirementRow[];
  /** Cases and requirements some later run made worse than the first. */
  regressions: { cases: number; requirements: number };
  /** Why the runs may differ besides the implementation: fingerprints or versions that disagree. */
  notes: string[];
}

const severity = (s: Cell) => (s === 'UNTESTED' ? outcomeSeverity('SKIP') : outcomeSeverity(s));

function classify<S extends Cell>(before: S | undefined, after: S | undefined): Change {
  if (before === undefined) return after === undefined ? 'same' : 'added';
  if (after === undefined) return 'removed';
  if (before === after) return 'same';
  const delta = severity(after) - severity(before);
  return delta > 0 ? 'regressed' : delta < 0 ? 'fixed' : 'changed';
}

function rowChange(changes: Change[]): Change {
  return CHANGE_ORDER.find((c) => changes.includes(c)) ?? 'same';
}

/** Every id in the order the runs list them, the first run's order first. */
function idsInOrder<T extends { id: string }>(lists: T[][]): string[] {
  return [...new Set(lists.flatMap((list) => list.map((item) => item.id)))];
}

const FINGERPRINT_PARTS: Record<keyof Fingerprint, string> = {
  suites: 'suites',
  requirements: 'requirement registry',
  config: 'configuration (kind, strictness, scope, roles, baseline)',
};

export function compareRuns(runs: ComparedRun[]): Comparison {
  const results = runs.map((r) => r.results);
  const notes: string[] = [];
  for (const [part, what] of Object.entries(FINGERPRINT_PARTS) as [keyof Fingerprint, string][]) {
    const differing = runs.filter((r) => r.results.fingerprint[part] !== results[0].fingerprint[part]).map((r) => r.label);
    if (differing.length > 0)
      notes.push(
        `${differing.join(', ')} ran with another ${what} than ${runs[0].label}: differences may come from that, not from the target`,
      );
  }
  const kinds = new Set(results.map((r) => r.kind));
  if (kinds.size > 1) notes.push(`the runs judge different kinds of target (${[...kinds].join(', ')})`);

  const quoteHashes = new Map<string, Set<string>>();
  for (const r of results.flatMap((x) => x.requirements)) quoteHashes.set(r.id, (quoteHashes.get(r.id) ?? new Set()).add(r.quote_sha256));
  const textChanged = (id: string) => (quoteHashes.get(id)?.size ?? 0) > 1;

  const row = <S extends Cell>(cells: (S | undefined)[]) => {
    const changes = cells.map((cell) => classify(cells[0], cell));
    return { cells, changes, change: rowChange(changes) };
  };
  const requirements: RequirementRow[] = idsInOrder(results.map((r) => r.requirements)).map((id) => {
    const found = results.map((r) => r.requirements.find((x) => x.id === id));
    return { id, level: found.find(Boolean)!.level, ...row(found.map((f) => f?.status)), textChanged: textChanged(id) };
  });
  const cases: CaseRow[] = idsInOrder(results.map((r) => r.cases)).map((id) => {
    const found = results.map((r) => r.cases.find((x) => x.id === id));
    const any = found.find(Boolean)!;
    return {
      id,
      title: any.title,
      level: any.level,
      ...row(found.map((f) => f?.outcome)),
      messages: found.map((f) => (f && f.outcome !== 'PASS' ? f.message : undefined)),
      textChanged: any.requirements.some(textChanged),
    };
  });
  const byChange = <R extends { change: Change }>(rows: R[]) =>
    rows
      .map((r, i) => [r, i] as const)
      .sort(([a, i], [b, j]) => CHANGE_ORDER.indexOf(a.change) - CHANGE_ORDER.indexOf(b.change) || i - j)
      .map(([r]) => r);
  return {
    runs,
    cases: byChange(cases),
    requirements: byChange(requirements),
    regressions: {
      cases: cases.filter((r) => r.change === 'regressed').length,
      requirements: requirements.filter((r) => r.change === 'regressed').length,
    },
    notes,
  };
}

export const regressed = (c: Comparison) => c.regressions.cases + c.regressions.requirements > 0;

/** "3 newly failing cases, 5 requirements worse against before", or that nothing regressed. */
export function comparisonHeadline(c: Comparison): string {
  const first = c.runs[0].label;
  if (!regressed(c)) return `nothing regressed against ${first}`;
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const parts = [
    c.regressions.cases > 0 && n(c.regressions.cases, 'newly failing case', 'newly failing cases'),
    c.regressions.requirements > 0 && n(c.regressions.requirements, 'requirement worse', 'requirements worse'),
  ].filter(Boolean);
  return `${parts.join(', ')} against ${first}`;
}

/** Labels for the runs: the names given, else each report folder's name, made unique. */
export function runLabels(given: string[], folders: string[]): string[] {
  const labels = folders.map((folder, i) => given[i] ?? folder);
  return labels.map((label, i) => (labels.indexOf(label) === i && labels.lastIndexOf(label) === i ? label : `${label} (${i + 1})`));
}
