// `touchstone list suites|cases|roles|requirements|faults|variants`: what a run would run and
// judge, without running anything. The cases are those `run` (or, with --kind, `plugin` or
// `compiler`) selects with the same --suite, --only, --grep and --grep-invert (one selection,
// core/select-cases.ts), and the requirements those its verdict would be judged on. A table with
// aligned columns for a person; --json, every field in full, for a script.
// Decision: --kind (service, plugin, compiler; default service, as `touchstone run`) says whose
// suites, requirements and built-in switches are listed, so that the cases listed before
// `touchstone plugin --suite io` are the plugin's. Roles are the service world's only.
import path from 'node:path';
import type { Argv } from 'yargs';
import { unknownNames } from '../core/did-you-mean.js';
import { HarnessError } from '../core/errors.js';
import { loadRequirementRegistry, requirementsFor, type RunKind } from '../core/requirement-registry.js';
import type { CaseFacts } from '../core/results.js';
import { namedSuites, selectCases } from '../core/select-cases.js';
import { PROJECT_ROOT, suitePaths } from '../core/suite-paths.js';
import { loadFaultRegistry, loadVariantRegistry } from '../mutate/switch-registry.js';
import { loadCompilerSuites, loadPluginSuites } from '../plugin/plugin-suite-loader.js';
import { requirementsInScope } from '../report/build-results.js';
import { caseRoles, protocolCaseFacts, serviceCaseFacts } from '../suite/case-facts.js';
import { loadSuites } from '../suite/suite-loader.js';
import { readWorldRoles } from '../suite/world-tokens.js';
import { listOf, selectionConfig, selectionOf, selectionOptions } from './case-selection.js';
import type { SelectionOptions } from './options.js';
import { guarded } from './guarded.js';

const LISTS = ['suites', 'cases', 'roles', 'requirements', 'faults', 'variants'] as const;
type List = (typeof LISTS)[number];
const KINDS: RunKind[] = ['service', 'plugin', 'compiler'];

/** The longest text the table shows of a quote or of what a switch does; --json has all of it. */
const SHORTENED = 72;

/** What the list reads of a plugin or compiler suite. */
interface ProtocolSuite {
  name: string;
  file: string;
  description?: string;
  cases: { id: string; title: string; requirements: string[] }[];
}

interface ListOptions extends SelectionOptions {
  what?: string;
  kind: string;
  json: boolean;
}

/** Its options and work; harness/cli/main.ts names and describes it. */
export const command = {
  builder: (yargs: Argv) =>
    yargs
      .positional('what', { type: 'string', describe: `what to list: ${LISTS.join(', ')}` })
      .option('kind', {
        type: 'string',
        default: 'service',
        describe: 'whose suites, requirements, faults and variants: service (touchstone run), plugin or compiler',
      })
      .options(
        selectionOptions(
          'list',
          'area folders under suites/service; with --kind plugin or compiler, file names under suites/plugin or suites/plugin/compiler',
        ),
      )
      .option('json', { type: 'boolean', default: false, describe: 'print JSON (an array, every field in full) instead of a table' })
      .example('$0 list cases --suite assignees --grep 404', 'the cases `touchstone run` would run with these options')
      .example('$0 list requirements --only assignees/list-small-repository', 'what one case checks, and the cases checking each')
      .example('$0 list roles --suite traffic', 'the roles a suite needs tokens for')
      .example('$0 list cases --kind plugin --json', 'the cases of `touchstone plugin`, for a script')
      .example('$0 list faults --kind compiler', 'the built-in faults `touchstone mutate` switches on in the reference compiler'),
  handler: (argv: ListOptions) => {
    process.exitCode = guarded(() => {
      // Optional for yargs, so that a bare `touchstone list` says what it can list, not yargs' count of arguments.
      if (argv.what === undefined) throw new HarnessError('USAGE', `name what to list: ${LISTS.join(', ')}`);
      const what = argv.what as List;
      if (!LISTS.includes(what)) throw new HarnessError('USAGE', unknownNames('list kind', [argv.what], LISTS));
      const kind = argv.kind as RunKind;
      if (!KINDS.includes(kind)) throw new HarnessError('USAGE', unknownNames('--kind', [argv.kind], KINDS));
      if (what === 'roles' && kind !== 'service')
        throw new HarnessError('USAGE', `roles are those of the service world: ${kind} cases act as none`);
      const listing = LISTERS[what](catalogue(kind, argv));
      if (argv.json) process.stdout.write(`${JSON.stringify(listing.items, null, 2)}\n`);
      else if (listing.rows.length === 0) process.stderr.write(`touchstone: no ${what} in what the options select\n`);
      else process.stdout.write(formatTable(listing.header, listing.rows));
      return 0;
    });
  },
};

/** The selected suites and cases of a kind, and what a run of them would be judged on. */
interface Catalogue {
  kind: RunKind;
  suites: { name: string; path: string; description?: string; cases: CaseFacts[] }[];
  cases: CaseFacts[];
  /** The selection is every case of the kind. */
  whole: boolean;
  /** The roles each selected service case acts as, by its key. */
  roles: Map<string, string[]>;
  /** Every requirement of the kind, or with a narrowing option those the selected cases cite (as the verdict is scoped). */
  requirements: ReturnType<typeof requirementsFor>;
  registry: ReturnType<typeof loadRequirementRegistry>;
  /** The keys of the selected cases citing any of `ids`. */
  citing(ids: readonly string[]): string[];
}

/** The suites and cases of `all` the options select, and whether that is every case. */
function select<S extends { name: string; cases: readonly { id: string; title: string }[] }>(all: S[], options: ListOptions) {
  const chosen = selectCases(namedSuites(all, listOf(options.suite)), selectionOf(options));
  const count = (suites: S[]) => suites.reduce((n, suite) => n + suite.cases.length, 0);
  return { chosen, whole: count(chosen) === count(all) };
}

function catalogue(kind: RunKind, options: ListOptions): Catalogue {
  const registry = loadRequirementRegistry(suitePaths.requirements);
  const roles = new Map<string, string[]>();
  const relative = (file: string) => path.relative(PROJECT_ROOT, file).split(path.sep).join('/');
  let whole: boolean;
  let suites: Catalogue['suites'];
  if (kind === 'service') {
    const selected = select(loadSuites(suitePaths.service), options);
    whole = selected.whole;
    suites = selected.chosen.map((suite) => ({
      name: suite.name,
      path: relative(suite.dir),
      cases: suite.cases.map((c) => {
        roles.set(`${suite.name}/${c.id}`, caseRoles(c));
        return serviceCaseFacts(suite.name, c, registry);
      }),
    }));
  } else {
    const selected = select<ProtocolSuite>(
      kind === 'plugin' ? loadPluginSuites(suitePaths.plugin) : loadCompilerSuites(suitePaths.compiler),
      options,
    );
    whole = selected.whole;
    suites = selected.chosen.map((suite) => ({
      name: suite.name,
      path: relative(suite.file),
      ...(suite.description !== undefined && { description: suite.description }),
      cases: suite.cases.map((c) => protocolCaseFacts(suite.name, c, registry)),
    }));
  }
  const cases = suites.flatMap((s) => s.cases);
  const cited = new Set(cases.flatMap((c) => c.requirements));
  return {
    kind,
    suites,
    cases,
    whole,
    roles,
    registry,
    requirements: requirementsInScope(requirementsFor(registry, kind), selectionConfig(options), cited),
    citing: (ids) => cases.filter((c) => c.requirements.some((id) => ids.includes(id))).map((c) => c.id),
  };
}

/** What is listed: the items (--json prints them) and the table's header and rows. */
interface Listing {
  header: string[];
  items: unknown[];
  rows: string[][];
}

const table = <T>(header: string[], items: T[], row: (item: T) => string[]): Listing => ({ header, items, rows: items.map(row) });

/**
 * The built-in switches of the kind's reference whose requirements are in scope, each with the
 * selected cases that judge it (those citing its requirements), without the file it is described in.
 */
function switches<T extends { side: RunKind; file: string }>(all: T[], of: (s: T) => string[], from: Catalogue) {
  const inScope = new Set(from.requirements.map((r) => r.id));
  return all
    .filter((s) => s.side === from.kind && of(s).some((id) => inScope.has(id)))
    .map(({ file, ...rest }) => ({ ...rest, cases: from.citing(of({ file, ...rest } as T)) }));
}

const LISTERS: Record<List, (from: Catalogue) => Listing> = {
  suites: (from) =>
    table(
      ['SUITE', 'CASES', 'PATH'],
      from.suites.map(({ cases, ...suite }) => ({ ...suite, cases: cases.length })),
      (s) => [s.name, String(s.cases), s.path],
    ),
  cases: (from) =>
    table(
      ['CASE', 'LEVEL', 'TITLE'],
      from.cases.map((c) => ({
        id: c.id,
        suite: c.suite,
        title: c.title,
        level: c.level,
        requirements: c.requirements,
        ...(from.kind === 'service' && { endpoints: c.endpoints, roles: from.roles.get(c.id) ?? [] }),
      })),
      (c) => [c.id, c.level, c.title],
    ),
  roles: (from) => {
    const roles = [...readWorldRoles()].map(([role, token]) => ({
      role,
      token,
      cases: from.cases.filter((c) => from.roles.get(c.id)?.includes(role)).map((c) => c.id),
    }));
    return table(
      ['ROLE', 'CASES', 'TOKEN'],
      // Every role of the world; of a part of the catalogue, the roles it needs tokens for.
      roles.filter((r) => from.whole || r.cases.length > 0),
      (r) => [r.role, String(r.cases.length), r.token],
    );
  },
  requirements: (from) =>
    table(
      ['REQUIREMENT', 'LEVEL', 'CASES', 'QUOTE'],
      from.requirements.map((r) => ({ ...r, cases: from.citing([r.id]) })),
      (r) => [r.id, r.level, String(r.cases.length), shortened(r.quote)],
    ),
  faults: (from) =>
    table(
      ['FAULT', 'BREAKS', 'DOES'],
      switches(loadFaultRegistry(suitePaths.faults, from.registry), (f) => f.breaks, from),
      (f) => [f.id, f.breaks.join(', '), shortened(f.does)],
    ),
  variants: (from) =>
    table(
      ['VARIATION', 'REQUIREMENTS', 'DOES'],
      switches(loadVariantRegistry(suitePaths.variants, from.registry), (v) => v.requirements, from),
      (v) => [v.id, v.requirements.join(', '), shortened(v.does)],
    ),
};

/** One line of at most SHORTENED characters, ending in … when some were left out. */
function shortened(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= SHORTENED ? line : `${line.slice(0, SHORTENED - 1).trimEnd()}…`;
}

/** The header and rows in columns two spaces apart, each as wide as its widest cell; the last column is not padded. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return `${[header, ...rows].map(line).join('\n')}\n`;
}
