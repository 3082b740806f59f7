// --min-coverage: thresholds on what a run covered (results.json `coverage`) a CI can gate on.
// `--min-coverage 90` holds every kind to 90 %, `--min-coverage endpoint-aspects=80` one kind.
// A run below a threshold is incomplete (exit 4), even with --allow-incomplete: that flag
// forgives unchecked requirements, the threshold says how many.
import { HarnessError } from './errors.js';
import type { Coverage, Results, RunKind } from './results.js';

export const COVERAGE_KINDS = { requirements: 'requirements', endpoints: 'endpoints', 'endpoint-aspects': 'endpoint_aspects' } as const;
export type CoverageKind = keyof typeof COVERAGE_KINDS;
export type MinCoverage = Partial<Record<CoverageKind, number>>;

/** The kinds of coverage a run of this kind measures: plugin and compiler cases exercise no endpoints. */
export function coverageKindsOf(run: RunKind): CoverageKind[] {
  return run === 'service' ? (Object.keys(COVERAGE_KINDS) as CoverageKind[]) : ['requirements'];
}

/** --min-coverage's values for a run of kind `run`: a bare percentage holds each of its kinds to it. */
export function parseMinCoverage(values: string[], run: RunKind): MinCoverage {
  const known = coverageKindsOf(run);
  const min: MinCoverage = {};
  for (const value of values) {
    const match = /^(?:([a-z-]+)=)?(\d+(?:\.\d+)?)%?$/.exec(value.trim());
    const percent = match && Number(match[2]);
    const kinds = match?.[1] === undefined ? known : [match[1] as CoverageKind];
    if (!match || percent! > 100 || kinds.some((k) => !known.includes(k)))
      throw new HarnessError(
        'USAGE',
        `--min-coverage ${value}: give a percentage, or KIND=PERCENT with KIND ${known.length === 1 ? known[0] : `one of ${known.join(', ')}`}`,
      );
    for (const kind of kinds) min[kind] = percent!;
  }
  return min;
}

const percentOf = ({ covered, total }: Coverage[keyof Coverage]) => (total === 0 ? 100 : (100 * covered) / total);

/** One sentence per kind below its threshold. */
export function coverageShortfalls(results: Results, min: MinCoverage): string[] {
  return (Object.entries(min) as [CoverageKind, number][]).flatMap(([kind, threshold]) => {
    const ratio = results.coverage[COVERAGE_KINDS[kind]];
    const percent = percentOf(ratio);
    return percent < threshold
      ? [`coverage of ${kind} is ${percent.toFixed(1)} % (${ratio.covered} of ${ratio.total}), below --min-coverage ${threshold} %`]
      : [];
  });
}
