import { expect, test } from '@playwright/test';
import type { CaseFacts, CaseOutcome } from '../core/results.js';
import type { Fault, Variant } from './switch-registry.js';
import { isComplete, misattributedCount, runKillMatrix, type SideRunner } from './kill-matrix.js';
import { formatKillMatrix } from './kill-matrix-text.js';

const facts = (id: string, requirements: string[]): CaseFacts => ({
  id,
  suite: id.split('/')[0],
  title: id,
  level: 'MUST',
  requirements,
  endpoints: [],
  aspects: [],
});
const fault = (id: string, breaks: string[]): Fault => ({ id, does: `does ${id}`, breaks, side: 'service', file: 'f.yaml' });
const failing = (requirement: string, outcome: 'FAIL' | 'WARN' = 'FAIL'): CaseOutcome => ({
  outcome,
  message: `${requirement} broken`,
  failure: { requirement, expected: 'x', actual: 'y' },
});

const variant = (id: string, requirements: string[]): Variant => ({
  id,
  does: `does ${id}`,
  allowed_by: 'the spec does not say',
  requirements,
  side: 'service',
  file: 'v.yaml',
});

/** A side whose cases fail exactly as `behaviour` says for each fault or variation (undefined: neither). */
function side(cases: CaseFacts[], behaviour: (caseId: string, fault: string | undefined) => CaseOutcome): SideRunner & { calls: string[] } {
  const calls: string[] = [];
  return {
    side: 'service',
    cases,
    concurrency: 1,
    calls,
    async run(caseId, switched) {
      const name = switched && ('fault' in switched ? switched.fault : switched.variant);
      calls.push(`${caseId}@${name ?? '-'}`);
      return { ...behaviour(caseId, name), started_at: new Date(0).toISOString(), duration_ms: 1 };
    },
  };
}

test('each fault runs only the cases citing what it breaks; a failure citing a listed requirement catches it', async () => {
  const cases = [facts('a/list', ['r.list', 'r.shape']), facts('a/get', ['r.get']), facts('a/other', ['r.other'])];
  const runner = side(cases, (id, f) =>
    f === 'f.list' && id === 'a/list'
      ? failing('r.list')
      : f === 'f.get' && id === 'a/get'
        ? failing('r.get', 'WARN')
        : { outcome: 'PASS' },
  );
  const { matrix, baseline } = await runKillMatrix({
    faults: [fault('f.list', ['r.list']), fault('f.get', ['r.get'])],
    variants: [],
    runners: [runner],
    requirements: [
      { id: 'r.list', level: 'MUST', basis: 'quoted', side: 'service' },
      { id: 'r.get', level: 'MUST', basis: 'quoted', side: 'service' },
      { id: 'r.other', level: 'MAY', basis: 'quoted', side: 'service' },
    ],
  });
  expect(runner.calls).toEqual(['a/list@-', 'a/get@-', 'a/other@-', 'a/list@f.list', 'a/get@f.get']);
  expect(baseline.map((b) => b.found.outcome)).toEqual(['PASS', 'PASS', 'PASS']);
  expect(matrix.faults.map((f) => [f.id, f.caught_by])).toEqual([
    ['f.list', ['a/list']],
    ['f.get', ['a/get']],
  ]);
  expect(matrix).toMatchObject({ uncaught: [], uncovered: [], false_failures: [], baseline_cases: 3 });
  expect(matrix.requirements.find((r) => r.id === 'r.list')).toEqual({
    id: 'r.list',
    level: 'MUST',
    side: 'service',
    cases: ['a/list'],
    faults: [{ id: 'f.list', caught_by: ['a/list'] }],
  });
});

test('holes: a fault no case catches, a case failing for another reason, a MUST no caught fault covers, a false failure', async () => {
  const cases = [facts('a/one', ['r.one']), facts('a/two', ['r.two']), facts('a/flaky', ['r.three'])];
  const runner = side(cases, (id, f) => {
    if (id === 'a/flaky') return failing('r.three');
    if (f === 'f.misattributed' && id === 'a/one') return failing('r.unrelated');
    return { outcome: 'PASS' };
  });
  const { matrix } = await runKillMatrix({
    faults: [fault('f.missed', ['r.two']), fault('f.misattributed', ['r.one'])],
    variants: [],
    runners: [runner],
    requirements: ['r.one', 'r.two', 'r.three'].map((id) => ({
      id,
      level: 'MUST' as const,
      basis: 'quoted' as const,
      side: 'service' as const,
    })),
  });
  expect(matrix.uncaught).toEqual(['f.missed', 'f.misattributed']);
  expect(matrix.faults[1]!.misattributed).toEqual([
    { case: 'a/one', outcome: 'FAIL', requirement: 'r.unrelated', message: 'r.unrelated broken' },
  ]);
  expect(matrix.uncovered).toEqual(['r.one', 'r.two', 'r.three']);
  expect(matrix.false_failures).toEqual([{ case: 'a/flaky', outcome: 'FAIL', requirement: 'r.three', message: 'r.three broken' }]);
});

test('a fault caught by one case and by another for the wrong reason leaves the matrix incomplete, and says so', async () => {
  const cases = [facts('a/right', ['r.one']), facts('a/wrong', ['r.one'])];
  const runner = side(cases, (id, f) =>
    f && id === 'a/right' ? failing('r.one') : f && id === 'a/wrong' ? failing('r.other') : { outcome: 'PASS' },
  );
  const { matrix } = await runKillMatrix({
    faults: [fault('f.one', ['r.one'])],
    variants: [],
    runners: [runner],
    requirements: [{ id: 'r.one', level: 'MUST' as const, basis: 'quoted' as const, side: 'service' as const }],
  });
  expect(matrix.uncaught).toEqual([]);
  expect(misattributedCount(matrix)).toBe(1);
  expect(isComplete(matrix)).toBe(false);
  const text = formatKillMatrix(matrix, '/out');
  expect(text).toContain('MISATTRIBUTED with f.one: a/wrong failed citing r.other');
  expect(text).toContain('kill matrix HAS HOLES');
  expect(text).toContain('sensitivity 100%: 1 of 1 faults caught');
  expect(text).toContain('1 catches citing a requirement the fault does not list');
});

test('a requirement counts as covered only through a case citing it, even when the fault lists it', async () => {
  const cases = [facts('a/both', ['r.caught']), facts('a/silent', ['r.listed-too'])];
  const runner = side(cases, (id, f) => (f && id === 'a/both' ? failing('r.caught') : { outcome: 'PASS' }));
  const { matrix } = await runKillMatrix({
    faults: [fault('f.two', ['r.caught', 'r.listed-too'])],
    variants: [],
    runners: [runner],
    requirements: ['r.caught', 'r.listed-too'].map((id) => ({
      id,
      level: 'MUST' as const,
      basis: 'quoted' as const,
      side: 'service' as const,
    })),
  });
  expect(matrix.uncaught).toEqual([]);
  expect(matrix.uncovered).toEqual(['r.listed-too']);
});

test('an ERROR under a fault is not a catch', async () => {
  const runner = side([facts('a/x', ['r.x'])], (_id, f) => (f ? { outcome: 'ERROR', message: 'connection reset' } : { outcome: 'PASS' }));
  const { matrix } = await runKillMatrix({
    faults: [fault('f.x', ['r.x'])],
    variants: [],
    runners: [runner],
    requirements: [{ id: 'r.x', level: 'MUST', basis: 'quoted', side: 'service' }],
  });
  expect(matrix.uncaught).toEqual(['f.x']);
  expect(matrix.faults[0]!.runs).toEqual([{ case: 'a/x', outcome: 'ERROR', message: 'connection reset' }]);
});

test('a variation runs every case of its side; a PASS, or a WARN on a choice only, accepts it', async () => {
  const cases = [facts('a/dup', ['r.duplicate']), facts('a/list', ['r.list']), facts('b/other', ['r.other'])];
  const runner = side(cases, (id, v) => {
    if (v === 'v.accepted' && id === 'a/dup') return failing('r.duplicate', 'WARN');
    if (v === 'v.rejected' && id === 'a/list') return failing('r.list');
    if (v === 'v.warned-quoted' && id === 'a/list') return failing('r.list', 'WARN');
    return { outcome: 'PASS' };
  });
  const requirements = [
    { id: 'r.duplicate', level: 'MAY' as const, basis: 'choice' as const, side: 'service' as const },
    { id: 'r.list', level: 'MUST' as const, basis: 'quoted' as const, side: 'service' as const },
    { id: 'r.other', level: 'MUST' as const, basis: 'quoted' as const, side: 'service' as const },
  ];
  const { matrix } = await runKillMatrix({
    faults: [],
    variants: [variant('v.accepted', ['r.duplicate']), variant('v.rejected', ['r.duplicate']), variant('v.warned-quoted', ['r.duplicate'])],
    runners: [runner],
    requirements,
  });
  // Every case runs, not only those citing what the variation reads otherwise.
  expect(runner.calls.filter((c) => c.endsWith('@v.accepted'))).toEqual(['a/dup@v.accepted', 'a/list@v.accepted', 'b/other@v.accepted']);
  expect(matrix.variants.map((v) => [v.id, v.rejected_by.map((r) => `${r.case} ${r.outcome}`)])).toEqual([
    ['v.accepted', []],
    ['v.rejected', ['a/list FAIL']],
    // A SHOULD or MAY quoted from the spec is no choice: warning on it rejects the variation too.
    ['v.warned-quoted', ['a/list WARN']],
  ]);
  expect(matrix.rejected).toEqual(['v.rejected', 'v.warned-quoted']);
  expect(matrix.specificity).toEqual({ conforming: 1, total: 3 });
  expect(isComplete(matrix)).toBe(false);
  const text = formatKillMatrix(matrix, '/out');
  expect(text).toContain('specificity 33%: 1 of 3 variations judged conforming');
  expect(text).toContain('REJECTED v.rejected: a/list FAIL: r.list broken');
});
