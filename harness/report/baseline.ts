// Known failures (--baseline FILE): a listed case that fails or warns becomes XFAIL; a
// listed case that passes fails the run as stale, so the list can only shrink honestly.
import { HarnessError } from '../core/errors.js';
import { readDataFile } from '../core/validated-file.js';
import type { CaseResult } from '../core/results.js';

export interface BaselineEntry {
  case: string;
  reason: string;
}

export function readBaseline(file: string): BaselineEntry[] {
  const data = readDataFile(file, '--baseline');
  const valid = Array.isArray(data) && data.every((e) => e && typeof e.case === 'string' && typeof e.reason === 'string');
  if (!valid) throw new HarnessError('CONFIG', `${file}: a baseline is a list of {case: "<suite>/<case-id>", reason: "..."}`);
  return data as BaselineEntry[];
}

export function applyBaseline(cases: CaseResult[], baseline: BaselineEntry[], file: string): CaseResult[] {
  const listed = new Map(baseline.map((e) => [e.case, e.reason]));
  return cases.map((c) => {
    const reason = listed.get(c.id);
    if (reason === undefined) return c;
    if (c.outcome === 'FAIL' || c.outcome === 'WARN')
      return { ...c, outcome: 'XFAIL', message: `known failure (${reason}): ${c.message ?? ''}` };
    if (c.outcome === 'PASS')
      return { ...c, outcome: 'FAIL', message: `stale baseline entry: the case passes now; remove ${c.id} from ${file}` };
    return c;
  });
}
