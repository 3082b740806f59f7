// Why a run got its verdict, in plain sentences every renderer shows (console, report.html,
// summary.md, junit.xml), so they all say the same thing. A verdict other than conforming
// always comes with its reasons: which MUST requirements went unchecked and why (roles
// without a token, capabilities the target lacks, cases in ERROR), or what is broken.
import type { Results } from '../core/results.js';
import { plural, someOf } from '../core/plural.js';
import { whyNotReached } from '../core/case-outcome.js';

/** The headline: what the verdict means for this run. */
export function verdictHeadline(results: Results): string {
  const { suites, only, grep, shard } = results.scope;
  const parts = [
    suites.length > 0 && `suite ${suites.join(', ')}`,
    only && (only.length === 1 ? `case ${only[0]}` : `${only.length} cases: ${someOf(only, 3)}`),
    grep !== undefined && `cases matching /${grep}/`,
    shard !== undefined && `shard ${shard}, merge the shards for the whole run's verdict`,
  ].filter(Boolean);
  const scope = parts.length > 0 ? ` (scope: ${parts.join('; ')})` : '';
  switch (results.verdict) {
    case 'conforming':
      return `every MUST requirement in scope was checked and held${scope}`;
    case 'incomplete':
      return `nothing failed, but the run does not show conformance: ${[
        results.gaps.untested.length > 0 && `${plural(results.gaps.untested.length, 'MUST requirement')} went unchecked`,
        results.gaps.errors.length > 0 && `${plural(results.gaps.errors.length, 'case')} errored`,
      ]
        .filter(Boolean)
        .join(' and ')}${scope}`;
    case 'non-conforming': {
      const known = results.summary.XFAIL > 0 && results.summary.FAIL === 0 ? ' (every one listed in the baseline)' : '';
      return `a MUST requirement is broken${known}${scope}`;
    }
  }
}

const listed = (ids: string[], max: number) => ids.slice(0, max).join(', ') + (ids.length > max ? ` … and ${ids.length - max} more` : '');

/** What kept the run from checking everything; empty on a complete run. Long lists stop after `maxIds`. */
export function gapReasons(results: Results, maxIds = 12): string[] {
  const { gaps } = results;
  const reasons: string[] = [];
  if (gaps.roles.length > 0)
    reasons.push(
      `no token for role ${gaps.roles.join(', ')}: map ${gaps.roles.length === 1 ? 'it' : 'them'} to tokens of the target with --tokens`,
    );
  if (gaps.capabilities.length > 0) reasons.push(`the target lacks capability ${gaps.capabilities.join(', ')} (the optional control API)`);
  if (gaps.errors.length > 0)
    reasons.push(`${plural(gaps.errors.length, 'case')} in ERROR (the harness or the environment failed): ${listed(gaps.errors, maxIds)}`);
  // One line per cause, which a plugin refusing every request makes one line in all.
  const byCause = new Map<string, string[]>();
  for (const c of results.cases) {
    if (!c.not_reached) continue;
    const cause = whyNotReached(c.not_reached);
    byCause.set(cause, [...(byCause.get(cause) ?? []), c.id]);
  }
  for (const [cause, ids] of byCause) reasons.push(`not reached, ${listed(ids, maxIds)}: ${cause}`);
  if (gaps.untested.length > 0) reasons.push(`unchecked MUST requirements: ${listed(gaps.untested, maxIds)}`);
  if (gaps.shared_state)
    reasons.push(
      'the target has no control.reset: cases ran on shared state, each on what the cases before it left (a failure may come from an earlier case)',
    );
  return reasons;
}
