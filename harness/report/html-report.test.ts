import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { renderHtmlReport } from './html-report.js';
import { REPORT_SCRIPT } from './html-report-script.js';
import { REPORT_STYLE } from './html-report-style.js';
import { createResultsFixture } from '../../test-support/results-fixture.js';
import type { Results } from '../core/results.js';

const ASSIGNEES = 'GET /repos/{owner}/{repo}/assignees';

/** The opening tag of the element carrying the given attribute text. */
function openingTag(page: string, attribute: string): string {
  const at = page.indexOf(attribute);
  expect(at, attribute).toBeGreaterThanOrEqual(0);
  return page.slice(page.lastIndexOf('<', at), page.indexOf('>', at) + 1);
}

function failureBlocks(page: string): string[] {
  return page
    .split('<details class="failure"')
    .slice(1)
    .map((block) => block.slice(0, block.indexOf('</details>')));
}

/** A results object whose target answered with script in a header value and in the body. */
function hostileResults(): Results {
  const results = createResultsFixture();
  const response = results.cases[1]!.failure!.exchange!.response!;
  response.headers.push(['x-evil', '<script>window.__pwned = "header"</script>']);
  response.body = '<script>window.__pwned = "body"</script><img src=x onerror="window.__pwned = 1">';
  results.cases[1]!.failure!.actual = '"><script>window.__pwned = "actual"</script>';
  results.cases[1]!.message = '</pre></details><script>window.__pwned = "message"</script>';
  results.cases[0]!.title = '<svg onload="window.__pwned = 2">';
  return results;
}

test('one self-contained page: no external resources, one style, one script, both pinned by the CSP', () => {
  const page = renderHtmlReport(createResultsFixture());
  expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
  expect(page.match(/<script/g)).toHaveLength(1);
  expect(page.match(/<style/g)).toHaveLength(1);
  expect(page).not.toMatch(/\b(src|srcset|action|poster)=/);
  expect(page).not.toMatch(/\bhref="(?!#)/);
  expect(page).not.toMatch(/url\(|@import/);
  const sha = (text: string) => createHash('sha256').update(text).digest('base64');
  const csp = openingTag(page, 'http-equiv="Content-Security-Policy"').replaceAll('&#39;', "'");
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain(`script-src 'sha256-${sha(REPORT_SCRIPT)}'`);
  expect(csp).toContain(`style-src 'sha256-${sha(REPORT_STYLE)}'`);
  expect(page).toContain(`<script>${REPORT_SCRIPT}</script>`);
  expect(page).toContain(`<style>${REPORT_STYLE}</style>`);
});

test('the verdict, target and counts lead the page', () => {
  const page = renderHtmlReport(createResultsFixture());
  expect(page).toContain('<h1 data-testid="verdict" data-verdict="non-conforming">Non-conforming</h1>');
  expect(page).toContain('<dd data-testid="target">https://impl.example</dd>');
  expect(page).toContain('<dd data-testid="started">2025-11-22 12:00:00 UTC</dd>');
  expect(openingTag(page, 'data-testid="count-FAIL"')).toContain('data-count="1"');
  expect(openingTag(page, 'data-testid="count-PASS"')).toContain('data-count="3"');
  const conforming = renderHtmlReport({
    ...createResultsFixture(),
    verdict: 'conforming',
    gaps: { untested: [], roles: [], capabilities: [], errors: [] },
    target: { url: 'http://127.0.0.1:4010', embedded: true },
  });
  expect(conforming).not.toContain('data-testid="gaps"');
  expect(conforming).toContain('>Conforming</h1>');
  expect(conforming).toContain('embedded reference (http://127.0.0.1:4010)');
});

test('the matrix has a cell per endpoint and aspect holding the worst outcome and the case count', () => {
  const page = renderHtmlReport(createResultsFixture());
  const cell = (key: string) => openingTag(page, `data-cell="${key}"`);
  expect(cell(`${ASSIGNEES}|pagination`)).toContain('data-outcome="FAIL" data-count="2"');
  expect(cell(`${ASSIGNEES}|status`)).toContain('data-outcome="WARN" data-count="2"');
  expect(cell(`${ASSIGNEES}|schema`)).toContain('data-outcome="PASS" data-count="1"');
  expect(cell('GET /repos/{owner}/{repo}/git/blobs/{file_sha}|schema')).toContain('data-outcome="ERROR"');
  expect(cell('PUT /orgs/{org}/interaction-limits|status')).toContain('data-outcome="XFAIL"');
  expect(cell('PUT /repos/{owner}/{repo}/interaction-limits|state')).toContain('data-outcome="SKIP"');
  expect(cell(`${ASSIGNEES}|limits`)).toBe(`<td class="matrix-cell empty" data-cell="${ASSIGNEES}|limits" data-count="0">`);
  expect(page.match(/data-cell="/g)).toHaveLength(4 * 6);
  // The cell links to its cases by their row index in the case table.
  expect(page).toContain(`<a href="#cases" data-filter-cases="1 2" data-filter-label="${ASSIGNEES} · pagination"`);
});

test('each FAIL, WARN and ERROR gets a failure block, worst first, with requirement, spec text, expected, actual, exchange and reproduction', () => {
  const page = renderHtmlReport(createResultsFixture());
  const blocks = failureBlocks(page);
  expect(blocks.map((b) => /data-outcome="(\w+)"/.exec(b)![1])).toEqual(['ERROR', 'FAIL', 'WARN']);
  const fail = blocks[1]!;
  expect(fail).toContain('data-case="assignees/single-page-omits-link"');
  expect(fail).toContain(
    '<code class="requirement-id">pagination.link-omitted-single-page</code> <span class="level" data-level="MUST">MUST</span>',
  );
  expect(fail).toContain(
    '<blockquote data-testid="spec-quote">When the endpoint is not paginated, or all results fit on one page, the `link` header is omitted.</blockquote>',
  );
  expect(fail).toContain('<cite data-testid="spec-source">spec 1 § Pagination</cite>');
  expect(fail).toContain(
    '<div data-testid="expected"><h4>Expected</h4><pre>no link header (2 assignees fit on one page of 100)</pre></div>',
  );
  expect(fail).toContain(
    '<div data-testid="actual"><h4>Actual</h4><pre>link: &lt;https://impl.example/repos/octo-org/hello-world/assignees?per_page=100&amp;page=1&gt;; rel=&quot;first&quot;</pre>',
  );
  expect(fail).toContain('<span class="start-line">GET https://impl.example/repos/octo-org/hello-world/assignees?per_page=100</span>');
  expect(fail).toContain('<span class="header-name">authorization</span>: Bearer $TOKEN');
  expect(fail).toContain('<span class="start-line">200 OK</span>');
  expect(fail).toContain('<pre class="body" data-testid="response-body">[\n  {\n    &quot;login&quot;: &quot;octocat&quot;,');
  expect(fail).toContain('JSON, pretty-printed');
  expect(fail).toContain(
    `<pre class="reproduce" id="reproduce-1" data-testid="reproduce">curl -sS -i -H &#39;accept: application/vnd.service+json&#39; -H &quot;authorization: Bearer $TOKEN&quot;`,
  );
  expect(fail).toContain('data-copy-target="reproduce-1" data-testid="copy-reproduce"');
  expect(fail).toContain('<dt>Request id</dt><dd><code data-testid="request-id">7f3c2a91-req</code></dd>');
  expect(blocks[2]).not.toContain('Request id');
  expect(blocks[0]).toContain('No response: the request never got an answer');
  expect(blocks[0]).toContain('<pre class="message" data-testid="message">TARGET_IO: socket hang up after 30000 ms\n    at request');
});

test('a requirement missing from the registry is named as such instead of quoted', () => {
  const results = createResultsFixture();
  results.cases[1]!.failure!.requirement = 'pagination.not-registered';
  expect(failureBlocks(renderHtmlReport(results))[1]).toContain(
    '<code class="requirement-id">pagination.not-registered</code> <span class="note">not in the requirement registry</span>',
  );
});

test('bodies beyond 64 KiB are truncated with a note', () => {
  const results = createResultsFixture();
  results.cases[1]!.failure!.exchange!.response!.body = `${'a'.repeat(200 * 1024)}THE-END`;
  const page = renderHtmlReport(results);
  expect(page).toContain('<p class="note" data-truncated="true">truncated: first 64.0 KiB of 200.0 KiB shown</p>');
  expect(page).not.toContain('THE-END');
  expect(page.length).toBeLessThan(200 * 1024);
});

test('the case table has every case and filter buttons for the outcomes present', () => {
  const page = renderHtmlReport(createResultsFixture());
  expect(page.match(/<tr data-index="/g)).toHaveLength(8);
  expect(page).toContain('<tr data-index="1" data-case="assignees/single-page-omits-link" data-outcome="FAIL">');
  expect(page).toContain('<a href="#failure-1">GET assignees with every result on one page omits the link header</a>');
  for (const outcome of ['ERROR', 'FAIL', 'WARN', 'XFAIL', 'SKIP', 'PASS'])
    expect(page).toContain(`<button type="button" data-filter-outcome="${outcome}"`);
});

test('the requirements list flags UNTESTED ones', () => {
  const page = renderHtmlReport(createResultsFixture());
  expect(page).toContain(
    '<tr id="requirement-interaction-limits.repo-409-owner-limit" data-requirement="interaction-limits.repo-409-owner-limit" data-status="UNTESTED" data-level="MUST" class="untested">',
  );
  expect(page).toContain('<div class="note" data-testid="untested-reason">not run: no control.clock</div>');
  expect(page).toContain(
    '<p data-testid="untested-count"><strong>2</strong> of 9 requirements were not checked (UNTESTED): no case cites them, or every case that does was skipped or stopped before checking them.</p>',
  );
  expect(page.match(/<tr id="requirement-[^"]*" data-requirement="/g)).toHaveLength(9);
});

test("every requirement shows its basis beside its level; a choice is named the reference's, in the table and in a failure", () => {
  const results = createResultsFixture();
  results.requirements.find((r) => r.id === 'conventions.media-type-recommended')!.basis = 'choice';
  const page = renderHtmlReport(results);
  expect(page.match(/<span class="basis" data-basis="quoted"/g)?.length).toBeGreaterThanOrEqual(8);
  const row = page.slice(page.indexOf('<tr id="requirement-conventions.media-type-recommended"'));
  expect(row.slice(0, row.indexOf('</tr>'))).toContain(`data-basis="choice" title="the spec is silent or open here`);
  const block = page.slice(page.indexOf('data-case="conventions/vnd-media-type" data-outcome="WARN"'));
  expect(block.slice(0, block.indexOf('</details>'))).toMatch(/>reference(&#39;|&#x27;|')s choice<\/span>/);
});

test('script in a response body, a header value, a message or a title is rendered inert, as text', () => {
  const page = renderHtmlReport(hostileResults());
  expect(page.match(/<script/gi)).toHaveLength(1);
  // Only escaped text: no element the target named, so no attribute of one can run.
  expect(page).not.toMatch(/<(img|svg)\b/i);
  expect(page).toContain('<span class="header-name">x-evil</span>: &lt;script&gt;window.__pwned = &quot;header&quot;&lt;/script&gt;');
  expect(page).toContain(
    '&lt;script&gt;window.__pwned = &quot;body&quot;&lt;/script&gt;&lt;img src=x onerror=&quot;window.__pwned = 1&quot;&gt;',
  );
  expect(page).toContain('&quot;&gt;&lt;script&gt;window.__pwned = &quot;actual&quot;&lt;/script&gt;');
  expect(page).toContain('&lt;/pre&gt;&lt;/details&gt;&lt;script&gt;');
  expect(page).toContain('&lt;svg onload=&quot;window.__pwned = 2&quot;&gt;');
});

test('rendering is deterministic', () => {
  expect(renderHtmlReport(createResultsFixture())).toBe(renderHtmlReport(createResultsFixture()));
});

test('a run whose cases exercise no endpoint (plugin, compiler) has no empty matrix section', () => {
  const service = renderHtmlReport(createResultsFixture());
  expect(service).toContain('id="matrix"');
  const base = createResultsFixture();
  const page = renderHtmlReport({ ...base, kind: 'plugin', cases: base.cases.map((c) => ({ ...c, endpoints: [] })) });
  expect(page).not.toContain('id="matrix"');
  expect(page).not.toContain('href="#matrix"');
  expect(page).toContain('id="requirements"');
});

test('an incomplete run has an amber banner, then what it could not check: roles, capabilities, errors, requirements', () => {
  const page = renderHtmlReport({
    ...createResultsFixture(),
    verdict: 'incomplete',
    gaps: { untested: ['a.must'], roles: ['org-owner'], capabilities: ['control.clock'], errors: ['git-blobs/content-base64'] },
  });
  expect(page).toContain('<header class="verdict-banner" data-verdict="incomplete">');
  expect(page).toContain('<h1 data-testid="verdict" data-verdict="incomplete">Incomplete</h1>');
  expect(page).toContain(
    '<li data-testid="gap-roles">No token for role <code>org-owner</code>: map it to tokens of the target with <code>--tokens</code>.</li>',
  );
  expect(page).toContain(
    '<li data-testid="gap-untested">1 MUST requirement unchecked: <a href="#requirement-a.must"><code>a.must</code></a>.</li>',
  );
  expect(page).toContain('data-testid="gap-capabilities"');
  expect(page).toContain('data-testid="gap-errors"');
});

test('a kill-matrix run shows, per requirement, the faults that break it and whether a case caught them', () => {
  const plain = renderHtmlReport(createResultsFixture());
  expect(plain).not.toContain('<th>Faults caught</th>');
  const results = createResultsFixture();
  results.requirements[0]!.faults = [{ id: 'assignees.list-without-owners', caught_by: ['assignees/list-returns-users'] }];
  results.requirements[1]!.faults = [{ id: 'pagination.link-on-single-page', caught_by: [] }];
  const page = renderHtmlReport(results);
  expect(page).toContain('<th>Faults caught</th>');
  expect(page).toContain(
    '<div class="fault" data-fault="assignees.list-without-owners" data-caught="true" title="caught by assignees/list-returns-users"><code>assignees.list-without-owners</code> <span class="note">caught by 1 case</span></div>',
  );
  expect(page).toContain('data-fault="pagination.link-on-single-page" data-caught="false"');
  expect(page).toContain('<span class="note">not caught</span>');
  expect(page).toContain('<td data-testid="faults"><span class="note">none</span></td>');
});
