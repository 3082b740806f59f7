// JUnit XML for CI systems that only understand pass, failure, error and skipped. Our finer
// outcomes survive as <properties> on every testcase, so a WARN or XFAIL (a pass in JUnit
// terms) is still findable; their explanation goes to <system-out>, which CI shows beside
// the test.
import { escapeXmlText, xml, type Markup } from './markup.js';
import { requestIdOf, type CaseResult, type Outcome, type RequirementResult, type Results } from '../core/results.js';
import { gapReasons, verdictHeadline } from './verdict-reasons.js';
import { describeTarget } from './target-description.js';

type JunitStatus = 'passed' | 'failure' | 'error' | 'skipped';

// No --strict special case: under --strict the case runner already records a broken SHOULD
// as FAIL, so a WARN here is always a pass.
function junitStatus(outcome: Outcome): JunitStatus {
  switch (outcome) {
    case 'FAIL':
      return 'failure';
    case 'ERROR':
      return 'error';
    case 'SKIP':
      return 'skipped';
    case 'PASS':
    case 'WARN':
    case 'XFAIL':
      return 'passed';
  }
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n', 1)[0]!.trim();
}

/** The plain-text story of a non-PASS case: what was required, what happened, how to reproduce. */
export function detailText(c: CaseResult, requirements: ReadonlyMap<string, RequirementResult>): string {
  const lines: string[] = [];
  if (c.message) lines.push(c.message, '');
  const cited = c.failures ? [...new Set(c.failures.map((f) => f.requirement))] : c.failure ? [c.failure.requirement] : c.requirements;
  for (const id of cited) {
    const req = requirements.get(id);
    lines.push(req ? `requirement: ${id} (${req.level}, ${req.basis}, ${req.source})` : `requirement: ${id}`);
    if (req) lines.push(`  "${req.quote}"`);
  }
  if (c.matrix) {
    lines.push('auth matrix:');
    for (const row of c.matrix)
      lines.push(
        `  ${row.outcome.padEnd(4)} ${row.role} (${row.token}): expected ${row.expected}, ${row.status === undefined ? 'not run, no token' : `got ${row.status}`}`,
      );
  }
  if (c.failure) {
    lines.push(`expected: ${c.failure.expected}`, `actual: ${c.failure.actual}`);
    const requestId = requestIdOf(c.failure.exchange);
    if (requestId) lines.push(`request id: ${requestId}`);
    if (c.failure.reproduce) lines.push(`reproduce: ${c.failure.reproduce}`);
  }
  if (c.rerun) lines.push(`run again: ${c.rerun}`);
  return lines.join('\n');
}

function renderProperties(c: CaseResult): Markup {
  const props: [string, string][] = [
    ['outcome', c.outcome],
    ['level', c.level],
    ...c.requirements.map((r): [string, string] => ['requirement', r]),
    ...c.endpoints.map((e): [string, string] => ['endpoint', e]),
    ...c.aspects.map((a): [string, string] => ['aspect', a]),
  ];
  if (c.role) props.push(['role', c.role]);
  for (const row of c.matrix ?? []) if (row.outcome === 'FAIL' || row.outcome === 'WARN') props.push(['broken-row', row.role]);
  return xml`      <properties>
${props.map(([name, value]) => xml`        <property name="${name}" value="${value}"/>\n`)}      </properties>
`;
}

function renderCase(c: CaseResult, requirements: ReadonlyMap<string, RequirementResult>): Markup {
  const status = junitStatus(c.outcome);
  const body = c.outcome === 'PASS' ? undefined : escapeXmlText(detailText(c, requirements));
  let result: Markup | string = '';
  if (status === 'failure' || status === 'error') {
    result = xml`      <${status} message="${firstLine(c.message)}" type="${c.outcome}">${body}</${status}>\n`;
  } else if (status === 'skipped') {
    result = xml`      <skipped message="${firstLine(c.message)}"/>\n`;
  } else if (body) {
    result = xml`      <system-out>${body}</system-out>\n`;
  }
  return xml`    <testcase name="${c.title}" classname="${c.suite}" time="${seconds(c.duration_ms)}">
${renderProperties(c)}${result}    </testcase>
`;
}

interface Tally {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

function tally(cases: readonly CaseResult[]): Tally {
  const t: Tally = { tests: cases.length, failures: 0, errors: 0, skipped: 0 };
  for (const c of cases) {
    const status = junitStatus(c.outcome);
    if (status === 'failure') t.failures++;
    else if (status === 'error') t.errors++;
    else if (status === 'skipped') t.skipped++;
  }
  return t;
}

function tallyAttributes(t: Tally): Markup {
  return xml`tests="${t.tests}" failures="${t.failures}" errors="${t.errors}" skipped="${t.skipped}"`;
}

/**
 * The verdict as one more testsuite, `touchstone`, with one testcase: a CI test tab then
 * shows an incomplete run as a failure with its reasons, even when every case passed or
 * was skipped, and the verdict survives in a property.
 */
function renderVerdict(results: Results): Markup {
  const failed = results.verdict !== 'conforming';
  const reasons = [verdictHeadline(results), ...gapReasons(results, Number.POSITIVE_INFINITY)].join('\n');
  const result = failed
    ? xml`      <failure message="${results.verdict}: ${verdictHeadline(results)}" type="${results.verdict}">${escapeXmlText(reasons)}</failure>\n`
    : '';
  return xml`  <testsuite name="touchstone" tests="1" failures="${failed ? 1 : 0}" errors="0" skipped="0" time="0.000" timestamp="${results.started_at}">
    <testcase name="verdict" classname="touchstone" time="0.000">
      <properties>
        <property name="verdict" value="${results.verdict}"/>
${results.target.recordings && xml`        <property name="${results.target.recordings.mode}" value="${results.target.recordings.folder}"/>\n`}${results.gaps.untested.map((id) => xml`        <property name="untested" value="${id}"/>\n`)}${results.gaps.roles.map((role) => xml`        <property name="missing-role" value="${role}"/>\n`)}${results.gaps.capabilities.map((c) => xml`        <property name="missing-capability" value="${c}"/>\n`)}      </properties>
${result}    </testcase>
  </testsuite>
`;
}

export function renderJunit(results: Results): string {
  const requirements = new Map(results.requirements.map((r) => [r.id, r]));
  const bySuite = new Map<string, CaseResult[]>();
  for (const c of results.cases) {
    const list = bySuite.get(c.suite) ?? [];
    list.push(c);
    bySuite.set(c.suite, list);
  }
  const suites = [...bySuite].map(([name, cases]) => {
    const time = seconds(cases.reduce((sum, c) => sum + c.duration_ms, 0));
    return xml`  <testsuite name="${name}" ${tallyAttributes(tally(cases))} time="${time}" timestamp="${results.started_at}">
${cases.map((c) => renderCase(c, requirements))}  </testsuite>
`;
  });
  const totals = tally(results.cases);
  totals.tests += 1;
  if (results.verdict !== 'conforming') totals.failures += 1;
  const root = xml`<testsuites name="touchstone ${describeTarget(results)}" ${tallyAttributes(totals)} time="${seconds(results.duration_ms)}" timestamp="${results.started_at}">
${renderVerdict(results)}${suites}</testsuites>
`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}`;
}
