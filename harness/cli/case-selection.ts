// The options that choose which cases a command takes, said once for every command that has
// them: `run`, `plugin` and `compiler` run those cases, `list` lists them. What they select is
// selectCases' business (harness/suite/suite-loader.ts), the same for every kind of suite.
import type { Options } from 'yargs';
import { HarnessError } from '../core/errors.js';
import { parseShard, type RunConfig } from '../core/run-config.js';
import type { CaseSelection } from '../core/select-cases.js';
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

/** The selection as the run's configuration records it (the reports' scope and fingerprint). */
export function selectionConfig(options: SelectionOptions): Pick<RunConfig, 'suites' | 'only' | 'grep' | 'grepInvert'> {
  return { suites: listOf(options.suite), only: listOf(options.only), grep: options.grep, grepInvert: options.grepInvert };
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
