// The options that choose which cases a command takes, said once for every command that has
// them: `run`, `plugin` and `compiler` run those cases, `list` lists them. What they select is
// selectCases' business (harness/suite/suite-loader.ts), the same for every kind of suite;
// --last-failed (run, plugin and compiler only) narrows that to the cases that failed in the
// latest report (harness/report/last-failed.ts).
import type { Options } from 'yargs';
import { HarnessError } from '../core/errors.js';
import { plural, someOf } from '../core/plural.js';
import { parseShard, type RunConfig } from '../core/run-config.js';
import { type CaseSelection, type SelectableCase, selectCases } from '../core/select-cases.js';
import type { LastFailed } from '../report/last-failed.js';
import type { SelectionOptions } from './options.js';

/** A list option given as one value or several (the library takes either). */
export const listOf = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * --suite, --only, --grep and --grep-invert, for yargs' .options(); `verb` is what the command
 * does with the cases (run, list), `suites` where its suites are.
 */
export function selectionOptions(verb: string, suites: string) {
  return {
    suite: { type: 'array', string: true, default: [] as string[], describe: `${verb} only these suites (${suites})` },
    only: {
      type: 'array',
      string: true,
      default: [] as string[],
      describe: `${verb} only this case, <suite>/<case id> as reports name it (repeatable)`,
    },
    grep: { type: 'string', describe: `${verb} only the cases whose <suite>/<case id> or title matches this regular expression` },
    'grep-invert': { type: 'string', describe: 'leave out the cases whose <suite>/<case id> or title matches this regular expression' },
  } as const satisfies Record<string, Options>;
}

export function selectionOf(options: SelectionOptions): CaseSelection {
  return { only: listOf(options.only), grep: options.grep, grepInvert: options.grepInvert };
}

/**
 * The selection as the run's configuration records it (the reports' scope and fingerprint).
 * Decision: a --last-failed run records the cases it ran again as its `only`, and no pattern:
 * what --only, --grep and --grep-invert chose of them is in that list, and a pattern beside it
 * would say the run took every case it matches.
 */
export function selectionConfig(
  options: SelectionOptions,
  ranAgain?: readonly SuiteCases[],
): Pick<RunConfig, 'suites' | 'only' | 'grep' | 'grepInvert'> {
  if (ranAgain) return { suites: listOf(options.suite), only: keysOf(ranAgain) };
  return { suites: listOf(options.suite), only: listOf(options.only), grep: options.grep, grepInvert: options.grepInvert };
}

/** --last-failed, for yargs' .options(): the commands that run cases (run, plugin, compiler). */
export const LAST_FAILED_OPTION = {
  'last-failed': {
    type: 'boolean',
    default: false,
    describe:
      'run only the cases that failed (FAIL or ERROR) in the latest report, reports/latest; --suite, --only and --grep narrow them further',
  },
} as const satisfies Record<string, Options>;

/** What the command line gives a command with --last-failed (the library's run() has no latest report to read). */
export interface LastFailedArgs {
  lastFailed?: boolean;
}

/** A suite and its cases, of any kind, as selections see them. */
interface SuiteCases {
  name: string;
  cases: readonly { id: string }[];
}

const keysOf = (suites: readonly SuiteCases[]) => suites.flatMap((suite) => suite.cases.map((c) => `${suite.name}/${c.id}`));

/**
 * --last-failed: of the `selected` suites, only the cases that failed in the latest report;
 * says which report and how many cases. `loaded` are the suites the command loaded (all of its
 * kind unless `suitesNamed`, --suite): a failed case that they should hold and do not (renamed or
 * removed since that run) is a usage error, as is a selection that leaves none of the failed
 * cases, so that a re-run of nothing never passes for a re-run that passed.
 */
export function lastFailedCases<S extends SuiteCases>(
  loaded: readonly SuiteCases[],
  selected: S[],
  lastFailed: LastFailed,
  options: SelectionOptions,
): S[] {
  const { report, cases: failed } = lastFailed;
  const known = new Set(keysOf(loaded));
  const names = new Set(loaded.map((suite) => suite.name));
  const suitesNamed = listOf(options.suite).length > 0;
  const gone = failed.filter((key) => !known.has(key) && (!suitesNamed || names.has(key.slice(0, key.indexOf('/')))));
  if (gone.length > 0)
    throw new HarnessError(
      'USAGE',
      `--last-failed: ${plural(gone.length, 'case')} that failed in ${report} ${gone.length === 1 ? 'is' : 'are'} no case of this run (renamed or removed since, or of a suite this run does not load): ${someOf(gone, 5)}; run without --last-failed`,
    );
  const wanted = new Set(failed);
  const again = selected
    .map((suite) => ({ ...suite, cases: suite.cases.filter((c) => wanted.has(`${suite.name}/${c.id}`)) }))
    .filter((suite) => suite.cases.length > 0);
  const keys = keysOf(again);
  if (keys.length === 0) {
    const given = [
      ...(suitesNamed ? ['--suite'] : []),
      ...(listOf(options.only).length > 0 ? ['--only'] : []),
      ...(options.grep !== undefined ? ['--grep'] : []),
      ...(options.grepInvert !== undefined ? ['--grep-invert'] : []),
    ];
    throw new HarnessError(
      'USAGE',
      `--last-failed: ${failed.length === 1 ? 'the case' : `none of the ${failed.length} cases`} that failed in ${report} ${failed.length === 1 ? 'is not' : 'is'} among the cases ${given.join(' and ')} select${given.length === 1 ? 's' : ''}: ${someOf(failed, 5)}`,
    );
  }
  const of =
    keys.length === failed.length ? `the ${plural(keys.length, 'case')}` : `${keys.length} of the ${plural(failed.length, 'case')}`;
  process.stdout.write(`touchstone: --last-failed: running ${of} that failed in ${report} again: ${someOf(keys, 5)}\n`);
  return again;
}

/**
 * The cases of `suites` the options select (selectCases), narrowed with --last-failed to those
 * that failed in the latest report: what run, plugin and compiler go on with.
 */
export function selectedCases<S extends { name: string; cases: readonly SelectableCase[] }>(
  suites: S[],
  options: SelectionOptions,
  lastFailed?: LastFailed,
): S[] {
  const selected = selectCases(suites, selectionOf(options));
  return lastFailed ? lastFailedCases(suites, selected, lastFailed, options) : selected;
}

/** --shard, for yargs' .options(): one part of the selected cases, for `report merge` to join. */
export const SHARD_OPTION = {
  shard: {
    type: 'string',
    describe: 'run part i of n of the selected cases (i/n), one per CI machine; join the parts with `touchstone report merge`',
  },
} as const satisfies Record<string, Options>;

/** --workers N, or `fallback` when it is not given. */
export function parseWorkers(given: number | undefined, fallback: number): number {
  const workers = given ?? fallback;
  if (!Number.isInteger(workers) || workers < 1) throw new HarnessError('USAGE', `--workers ${given} is not a positive whole number`);
  return workers;
}

export const shardOf = (options: { shard?: string }) => (options.shard === undefined ? undefined : parseShard(options.shard));
