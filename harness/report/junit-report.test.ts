import { expect, test } from '@playwright/test';
import { renderJunit } from './junit-report.js';
import { createResultsFixture } from '../../test-support/results-fixture.js';

/** The <testcase> element whose name attribute is exactly the given (already escaped) value. */
function testcase(xml: string, name: string): string {
  const start = xml.indexOf(`<testcase name="${name}"`);
  expect(start, `testcase "${name}"`).toBeGreaterThanOrEqual(0);
  return xml.slice(start, xml.indexOf('</testcase>', start) + '</testcase>'.length);
}

test('one testsuite per suite with JUnit counts, one testcase per case, and the verdict first', () => {
  const xml = renderJunit(createResultsFixture());
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
  expect(xml).toContain('tests="9" failures="2" errors="1" skipped="1" time="31.250"');
  const suites = [...xml.matchAll(/<testsuite name="([^"]*)" tests="(\d+)" failures="(\d+)" errors="(\d+)" skipped="(\d+)"/g)].map((m) =>
    m.slice(1).join(' '),
  );
  expect(suites).toEqual([
    'touchstone 1 1 0 0',
    'assignees 3 1 0 0',
    'conventions 1 0 0 0',
    'interaction-limits 2 0 0 1',
    'git-blobs 1 0 1 0',
    'auth 1 0 0 0',
  ]);
  expect(xml.match(/<testcase /g)).toHaveLength(9);
  expect(xml).toContain(
    '<testcase name="GET assignees with every result on one page omits the link header" classname="assignees" time="0.057">',
  );
});

test('FAIL becomes <failure> with requirement, expected, actual and the reproduction in its body', () => {
  const xml = renderJunit(createResultsFixture());
  const fail = testcase(xml, 'GET assignees with every result on one page omits the link header');
  expect(fail).toContain(
    '<failure message="pagination.link-omitted-single-page: expected no link header, got link: &lt;…&amp;page=1&gt;; rel=&quot;first&quot;" type="FAIL">',
  );
  expect(fail).toContain('requirement: pagination.link-omitted-single-page (MUST, quoted, spec 1 § Pagination)');
  expect(fail).toContain('"When the endpoint is not paginated, or all results fit on one page, the `link` header is omitted."');
  expect(fail).toContain('expected: no link header (2 assignees fit on one page of 100)');
  expect(fail).toContain(
    'actual: link: &lt;https://impl.example/repos/octo-org/hello-world/assignees?per_page=100&amp;page=1&gt;; rel="first"',
  );
  expect(fail).toContain(`reproduce: curl -sS -i -H 'accept: application/vnd.service+json' -H "authorization: Bearer $TOKEN"`);
  expect(fail).toContain('request id: 7f3c2a91-req');
});

test('ERROR becomes <error>, SKIP becomes <skipped message>', () => {
  const xml = renderJunit(createResultsFixture());
  const error = testcase(xml, 'GET a blob returns its content in Base64');
  expect(error).toContain(
    '<error message="TARGET_IO: socket hang up after 30000 ms" type="ERROR">TARGET_IO: socket hang up after 30000 ms\n    at request',
  );
  expect(error).toContain('actual: no response: socket hang up</error>');
  const skip = testcase(xml, 'PUT repository interaction-limits without expiry expires after one day');
  expect(skip).toContain('<skipped message="the target lacks capability control.clock"/>');
  expect(skip).not.toMatch(/<failure|<error/);
});

test('WARN and XFAIL pass in JUnit terms but carry their outcome, level, requirements and endpoints', () => {
  const xml = renderJunit(createResultsFixture());
  const warn = testcase(xml, 'GET assignees with the recommended media type answers in it');
  expect(warn).not.toMatch(/<failure|<error|<skipped/);
  for (const property of [
    '<property name="outcome" value="WARN"/>',
    '<property name="level" value="SHOULD"/>',
    '<property name="requirement" value="conventions.media-type-recommended"/>',
    '<property name="endpoint" value="GET /repos/{owner}/{repo}/assignees"/>',
  ]) {
    expect(warn).toContain(property);
  }
  expect(warn).toContain('<system-out>conventions.media-type-recommended: expected content-type');
  const xfail = testcase(xml, 'PUT organization interaction-limits with an unknown limit returns 422');
  expect(xfail).not.toMatch(/<failure|<error|<skipped/);
  expect(xfail).toContain('<property name="outcome" value="XFAIL"/>');
  expect(xfail).toContain('<property name="requirement" value="interaction-limits.org-put-422"/>');
});

test('markup, quotes and characters XML 1.0 forbids cannot break the file', () => {
  const results = createResultsFixture();
  const c = results.cases[1]!;
  c.title = 'a "quoted" <title> & \'more\'';
  c.message = 'bad bytes \u0000\u0001\u001b[31mred\u001b[0m\ud800 and ]]> end\nsecond line';
  c.failure!.actual = 'body: \u0000\u0008\u000b\u000c\u001f\ufffe</failure><script>';
  const xml = renderJunit(results);
  expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
  expect(xml).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  expect(xml).toContain('<testcase name="a &quot;quoted&quot; &lt;title&gt; &amp; &apos;more&apos;" classname="assignees"');
  expect(xml).toContain('<failure message="bad bytes \ufffd\ufffdred\ufffd and ]]&gt; end" type="FAIL">');
  expect(xml).toContain('actual: body: \ufffd\ufffd\ufffd\ufffd\ufffd\ufffd&lt;/failure&gt;&lt;script&gt;');
  expect(xml.match(/<\/failure>/g)).toHaveLength(2);
});

test('the verdict is a testcase of its own: a failure with the reasons unless the run conforms', () => {
  const results = createResultsFixture();
  results.verdict = 'incomplete';
  results.cases = results.cases.filter((c) => c.outcome !== 'FAIL');
  const verdict = testcase(renderJunit(results), 'verdict');
  expect(verdict).toContain('<property name="verdict" value="incomplete"/>');
  expect(verdict).toContain('<property name="untested" value="interaction-limits.repo-409-owner-limit"/>');
  expect(verdict).toContain('<property name="missing-capability" value="control.clock"/>');
  expect(verdict).toContain(
    '<failure message="incomplete: nothing failed, but the run does not show conformance: 2 MUST requirements went unchecked and 1 case errored" type="incomplete">',
  );
  expect(verdict).toContain('the target lacks capability control.clock (the optional control API)');
  const conforming = testcase(
    renderJunit({ ...results, verdict: 'conforming', gaps: { untested: [], roles: [], capabilities: [], errors: [] } }),
    'verdict',
  );
  expect(conforming).not.toMatch(/<failure|<error|<skipped/);
});
