// --last-failed's narrowing of a command's selection (lastFailedCases): what it runs again, and
// the selections it refuses rather than running nothing.
import { expect, test } from '@playwright/test';
import { HarnessError } from '../core/errors.js';
import { lastFailedCases } from './case-selection.js';

const suites = [
  { name: 'alpha', cases: [{ id: 'one' }, { id: 'two' }, { id: 'three' }] },
  { name: 'beta', cases: [{ id: 'four' }] },
];
const latest = (...cases: string[]) => ({ report: 'reports/latest (2025-11-22T12-00-00Z)', cases });
const ids = (chosen: typeof suites) => chosen.flatMap((s) => s.cases.map((c) => `${s.name}/${c.id}`));

function refused(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('USAGE');
    return (error as HarnessError).message;
  }
  throw new Error('no error');
}

test('the failed cases among the selected ones, in the suites’ order; --only and --suite narrow them further', () => {
  const failed = latest('beta/four', 'alpha/two');
  expect(ids(lastFailedCases(suites, suites, failed, {}))).toEqual(['alpha/two', 'beta/four']);
  // --only alpha/two selected only that one of the failed.
  const onlyTwo = [{ name: 'alpha', cases: [{ id: 'two' }] }];
  expect(ids(lastFailedCases(suites, onlyTwo, failed, { only: ['alpha/two'] }))).toEqual(['alpha/two']);
  // --suite beta loads beta alone: alpha/two is not gone, it is of a suite this run leaves out.
  expect(ids(lastFailedCases([suites[1]], [suites[1]], failed, { suite: ['beta'] }))).toEqual(['beta/four']);
});

test('a failed case the suites no longer hold, or a selection that leaves none of them, is a usage error naming them', () => {
  expect(refused(() => lastFailedCases(suites, suites, latest('alpha/renamed', 'alpha/one'), {}))).toBe(
    '--last-failed: 1 case that failed in reports/latest (2025-11-22T12-00-00Z) is no case of this run (renamed or removed since, or of a suite this run does not load): alpha/renamed; run without --last-failed',
  );
  expect(refused(() => lastFailedCases([suites[1]], [suites[1]], latest('alpha/one', 'alpha/two'), { suite: ['beta'] }))).toBe(
    '--last-failed: none of the 2 cases that failed in reports/latest (2025-11-22T12-00-00Z) is among the cases --suite selects: alpha/one, alpha/two',
  );
  const onlyOne = [{ name: 'alpha', cases: [{ id: 'one' }] }];
  expect(refused(() => lastFailedCases(suites, onlyOne, latest('alpha/two'), { only: ['alpha/one'], grep: 'o' }))).toBe(
    '--last-failed: the case that failed in reports/latest (2025-11-22T12-00-00Z) is not among the cases --only and --grep select: alpha/two',
  );
});
