// ctrf.json: the run in the Common Test Report Format (CTRF 0.0.0), for CI dashboards and
// tools that read it. Statuses map as in junit.xml: FAIL and ERROR fail, SKIP is skipped,
// PASS, WARN and XFAIL pass; the outcome itself stays in rawStatus. As in junit.xml, the
// verdict is a test of its own, failing unless the run conforms, so an incomplete run never
// shows green. The rest of the record (verdict, fingerprint, gaps, scope) is in `extra`.
import type { CaseResult, Outcome, Results } from '../core/results.js';
import { detailText } from './junit-report.js';
import { gapReasons, verdictHeadline } from './verdict-reasons.js';

type CtrfStatus = 'passed' | 'failed' | 'skipped' | 'pending' | 'other';

const STATUS: Record<Outcome, CtrfStatus> = {
  PASS: 'passed',
  WARN: 'passed',
  XFAIL: 'passed',
  FAIL: 'failed',
  ERROR: 'failed',
  SKIP: 'skipped',
};

/** Non-empty lists only: CTRF labels take a primitive or a non-empty array. */
function labels(c: CaseResult): Record<string, string | string[]> {
  const entries: [string, string | string[] | undefined][] = [
    ['case', c.id],
    ['level', c.level],
    ['requirements', c.requirements],
    ['endpoints', c.endpoints],
    ['aspects', c.aspects],
    ['role', c.role],
    ['broken-rows', (c.matrix ?? []).filter((row) => row.outcome === 'FAIL' || row.outcome === 'WARN').map((row) => row.role)],
  ];
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined && v.length > 0)) as Record<string, string | string[]>;
}

interface CtrfTest {
  name: string;
  status: CtrfStatus;
  rawStatus: string;
  duration: number;
  start: number;
  stop: number;
  suite: string[];
  type: 'conformance';
  tags: string[];
  labels: Record<string, string | string[]>;
  message?: string;
  trace?: string;
}

export function renderCtrf(results: Results): string {
  const requirements = new Map(results.requirements.map((r) => [r.id, r]));
  const start = Date.parse(results.started_at);
  const stop = Date.parse(results.finished_at);
  const tests = results.cases.map((c): CtrfTest => {
    const begun = Date.parse(c.started_at);
    const duration = Math.round(c.duration_ms);
    return {
      name: c.title,
      status: STATUS[c.outcome],
      rawStatus: c.outcome,
      duration,
      start: begun,
      stop: begun + duration,
      suite: [c.suite],
      type: 'conformance',
      tags: [c.level, ...c.aspects],
      labels: labels(c),
      ...(c.outcome !== 'PASS' && { message: (c.message ?? '').split('\n')[0], trace: detailText(c, requirements) }),
    };
  });
  const conforming = results.verdict === 'conforming';
  tests.unshift({
    name: 'verdict',
    status: conforming ? 'passed' : 'failed',
    rawStatus: results.verdict,
    duration: 0,
    start,
    stop,
    suite: ['touchstone'],
    type: 'conformance',
    tags: [],
    labels: { case: 'touchstone/verdict' },
    ...(!conforming && {
      message: `${results.verdict}: ${verdictHeadline(results)}`,
      trace: gapReasons(results, Number.POSITIVE_INFINITY).join('\n'),
    }),
  });
  const count = (status: CtrfStatus) => tests.filter((t) => t.status === status).length;
  const document = {
    reportFormat: 'CTRF',
    specVersion: '0.0.0',
    timestamp: results.finished_at,
    generatedBy: `touchstone ${results.tool.version}`,
    results: {
      tool: { name: 'touchstone', version: results.tool.version },
      summary: {
        tests: tests.length,
        passed: count('passed'),
        failed: count('failed'),
        skipped: count('skipped'),
        pending: 0,
        other: 0,
        suites: new Set(results.cases.map((c) => c.suite)).size + 1,
        start,
        stop,
        duration: stop - start,
      },
      tests,
      environment: {
        extra: {
          kind: results.kind,
          target: results.target.url,
          embedded: results.target.embedded,
          ...(results.target.recordings && { recordings: results.target.recordings }),
        },
      },
      extra: {
        verdict: results.verdict,
        fingerprint: results.fingerprint,
        scope: results.scope,
        gaps: results.gaps,
        strict: results.strict,
      },
    },
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
