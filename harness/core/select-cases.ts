// Which suites and cases a command takes, for every kind of suite (service, plugin, compiler):
// --suite names suites, --only, --grep and --grep-invert choose their cases. `run`, `plugin`
// and `compiler` run what this selects, and `list` lists it.
import { unknownNames } from './did-you-mean.js';
import { HarnessError } from './errors.js';

/**
 * The suites --suite names (all when it names none), for every kind of suite; a name of no
 * suite is a usage error with the closest name and the list.
 */
export function namedSuites<S extends { name: string }>(suites: S[], only: readonly string[]): S[] {
  const names = suites.map((s) => s.name);
  const unknown = only.filter((name) => !names.includes(name));
  if (unknown.length) throw new HarnessError('USAGE', unknownNames('suite', unknown, names));
  return only.length ? suites.filter((s) => only.includes(s.name)) : suites;
}

/**
 * Which cases of the loaded suites run: `only` names `suite/case` keys, `grep` matches a key or
 * a title, and `grepInvert` (Playwright's --grep-invert) leaves out what it matches of the rest.
 */
export interface CaseSelection {
  only: readonly string[];
  grep?: string;
  grepInvert?: string;
}

/** What the selection reads of a case, of any kind (service, plugin, compiler). */
export interface SelectableCase {
  id: string;
  title: string;
}

function pattern(option: string, text: string | undefined): RegExp | undefined {
  try {
    return text === undefined ? undefined : new RegExp(text);
  } catch (error) {
    throw new HarnessError('USAGE', `${option} is not a regular expression: ${(error as Error).message}`);
  }
}

/**
 * The suites with only the selected cases (suites left empty are dropped). An `only` key
 * naming no case, a `grep` or `grepInvert` that is not a regular expression, or a selection
 * that leaves nothing, is a usage error: a re-run of nothing must not pass for a re-run that passed.
 */
export function selectCases<S extends { name: string; cases: readonly SelectableCase[] }>(
  suites: S[],
  { only, grep, grepInvert }: CaseSelection,
): S[] {
  if (only.length === 0 && grep === undefined && grepInvert === undefined) return suites;
  const keys = suites.flatMap((suite) => suite.cases.map((c) => `${suite.name}/${c.id}`));
  const unknown = only.filter((key) => !keys.includes(key));
  if (unknown.length)
    throw new HarnessError('USAGE', `--only names no case: ${unknown.join(', ')} (a case is <suite>/<case id>, as reports show it)`);
  const wanted = pattern('--grep', grep);
  const unwanted = pattern('--grep-invert', grepInvert);
  const matches = (re: RegExp, key: string, c: SelectableCase) => re.test(key) || re.test(c.title);
  const chosen = (suite: S, c: SelectableCase) => {
    const key = `${suite.name}/${c.id}`;
    // Without --only or --grep every case is a candidate; --grep-invert then leaves some out.
    const candidate = (only.length === 0 && !wanted) || only.includes(key) || (wanted !== undefined && matches(wanted, key, c));
    return candidate && !(unwanted && matches(unwanted, key, c));
  };
  const selected = suites
    .map((suite) => ({ ...suite, cases: suite.cases.filter((c) => chosen(suite, c)) }))
    .filter((s) => s.cases.length > 0);
  if (selected.length === 0) {
    const given = [grep !== undefined && `--grep ${grep}`, grepInvert !== undefined && `--grep-invert ${grepInvert}`].filter(Boolean);
    throw new HarnessError(
      'USAGE',
      grepInvert === undefined
        ? `${given[0]} matches no case`
        : `${[...(only.length ? ['--only'] : []), ...given].join(' with ')} leaves no case to run`,
    );
  }
  return selected;
}
