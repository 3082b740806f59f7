// `touchstone report compare`: several runs side by side, per case and per requirement. The
// first run is the point of comparison: a later run regressed where a case or requirement
// is worse there than in the first, and fixed it where it is better.
// Decision: a case now SKIP (a requirement now UNTESTED) that was checked in the first run is
// neither: it is `unchecked`, listed as "no longer checked", never counted as newly failing (it
// did not fail) nor as fixed (a FAIL now SKIP fixed nothing). It still makes `report compare`
// exit 1, as a regression does: a check a change lost is lost coverage, and a gate that let it
// pass would let a change hide a failure by making its case skip. Runs of different implementations read like a compatibility
// table; two runs of one implementation read as before and after a change.
import { outcomeSeverity } from '../core/outcome-order.js';
import { plural } from '../core/plural.js';
import type { Fingerprint, Level, Outcome, RequirementStatus, Results } from '../core/results.js';

export type Change = 'regressed' | 'unchecked' | 'fixed' | 'changed' | 'added' | 'removed' | 'same';
/** How rows sort: what a reader must see first. */
export const CHANGE_ORDER: readonly Change[] = ['regressed', 'unchecked', 'fixed', 'changed', 'removed', 'added', 'same'];

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
  /** Cases and requirements checked in the first run that some later run did not check (SKIP, UNTESTED). */
  unchecked: { cases: number; requirements: number };
  /** Why the runs may differ besides the implementation: fingerprints (and what the results say differed) or kinds. */
  notes: string[];
}

const severity = (s: Cell) => (s === 'UNTESTED' ? outcomeSeverity('SKIP') : outcomeSeverity(s));
/** A skipped case, or a requirement no case checked. */
const notChecked = (s: Cell) => s === 'SKIP' || s === 'UNTESTED';

function classify<S extends Cell>(before: S | undefined, after: S | undefined): Change {
  if (before === undefined) return after === undefined ? 'same' : 'added';
  if (after === undefined) return 'removed';
  if (before === after) return 'same';
  if (notChecked(after)) return 'unchecked';
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
  config: 'configuration',
};

const listed = (items: readonly string[] | undefined) => (items === undefined || items.length === 0 ? 'none' : items.join(', '));
const quoted = (text: string | undefined) => (text === undefined ? 'none' : `'${text}'`);

/**
 * What results.json records of a run's configuration (the parts its fingerprint hashes, and what
 * the target lacked), each as text; two runs whose texts differ were judged differently.
 */
function configFacts(r: Results): [string, string][] {
  return [
    ['kind', r.kind],
    ['strictness', r.strict ? '--strict' : 'not strict'],
    ['suites', r.scope.suites.length === 0 ? 'all' : r.scope.suites.join(', ')],
    ['--only', listed(r.scope.only)],
    ['--grep', quoted(r.scope.grep)],
    ['--grep-invert', quoted(r.scope.grep_invert)],
    ['roles without a token', listed(r.gaps.roles)],
    ['capabilities the target lacks', listed(r.gaps.capabilities)],
    ['baseline', r.cases.some((c) => c.baseline !== undefined) ? 'applied' : 'none applied'],
  ];
}

/**
 * "strictness: not strict in main, --strict in branch; suites: all in main, assignees in branch",
 * or, when nothing results.json records differs, what the fingerprint alone knows of.
 */
export function configDifference(first: ComparedRun, other: ComparedRun): string {
  const mine = configFacts(first.results);
  const theirs = configFacts(other.results);
  const differing = mine
    .map(([what, value], i) => [what, value, theirs[i][1]] as const)
    .filter(([, a, b]) => a !== b)
    .map(([what, a, b]) => `${what}: ${a} in ${first.label}, ${b} in ${other.label}`);
  return differing.length > 0
    ? differing.join('; ')
    : 'the roles given tokens or the baseline file, which results.json keeps only as a hash';
}

export function compareRuns(runs: ComparedRun[]): Comparison {
  const results = runs.map((r) => r.results);
  const notes: string[] = [];
  for (const [part, what] of Object.entries(FINGERPRINT_PARTS) as [keyof Fingerprint, string][]) {
    const differing = runs.filter((r) => r.results.fingerprint[part] !== results[0].fingerprint[part]);
    if (differing.length === 0) continue;
    // The configuration's hash says that it differs; the results say what differed, per run.
    const how = part === 'config' ? ` (${differing.map((r) => configDifference(runs[0], r)).join('; ')})` : '';
    notes.push(
      `${differing.map((r) => r.label).join(', ')} ran with another ${what} than ${runs[0].label}${how}: differences may come from that, not from the target`,
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
    regressions: count(cases, requirements, 'regressed'),
    unchecked: count(cases, requirements, 'unchecked'),
    notes,
  };
}

function count(cases: CaseRow[], requirements: RequirementRow[], change: Change) {
  return { cases: cases.filter((r) => r.change === change).length, requirements: requirements.filter((r) => r.change === change).length };
}

/** Something got worse, or is no longer checked, in a later run: `report compare` exits 1. */
export const regressed = (c: Comparison) =>
  c.regressions.cases + c.regressions.requirements + c.unchecked.cases + c.unchecked.requirements > 0;

/** "3 newly failing cases, 5 requirements worse, 1 case no longer checked against before", or that nothing regressed. */
export function comparisonHeadline(c: Comparison): string {
  const first = c.runs[0].label;
  if (!regressed(c)) return `nothing regressed against ${first}`;
  const parts = [
    c.regressions.cases > 0 && plural(c.regressions.cases, 'newly failing case'),
    c.regressions.requirements > 0 && plural(c.regressions.requirements, 'requirement worse', 'requirements worse'),
    c.unchecked.cases > 0 && plural(c.unchecked.cases, 'case no longer checked', 'cases no longer checked'),
    c.unchecked.requirements > 0 && plural(c.unchecked.requirements, 'requirement no longer checked', 'requirements no longer checked'),
  ].filter(Boolean);
  return `${parts.join(', ')} against ${first}`;
}

/** Labels for the runs: the names given, else each report folder's name, made unique. */
export function runLabels(given: string[], folders: string[]): string[] {
  const labels = folders.map((folder, i) => given[i] ?? folder);
  return labels.map((label, i) => (labels.indexOf(label) === i && labels.lastIndexOf(label) === i ? label : `${label} (${i + 1})`));
}
