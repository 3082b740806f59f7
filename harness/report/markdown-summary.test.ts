import { expect, test } from '@playwright/test';
import { renderMarkdownSummary } from './markdown-summary.js';
import { createResultsFixture } from '../../test-support/results-fixture.js';
import type { Results } from '../core/results.js';

/** Splits a GFM table row on the pipes GFM itself splits on: unescaped ones. */
function cells(row: string): string[] {
  return row
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

function tableRows(markdown: string, header: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(header);
  expect(start, header).toBeGreaterThanOrEqual(0);
  const rows: string[] = [];
  for (let i = start + 2; i < lines.length && lines[i]!.startsWith('|'); i++) rows.push(lines[i]!);
  return rows;
}

const NOT_PASSING_HEADER = '| outcome | case | requirement | message |';

test('verdict line, then the counts table', () => {
  const md = renderMarkdownSummary(createResultsFixture());
  expect(md.split('\n')[0]).toBe('## ❌ touchstone: **non-conforming**');
  expect(md).toContain('service target `https://impl.example` · 8 cases in 31.3 s · touchstone 0.1.0');
  expect(tableRows(md, '| PASS | FAIL | WARN | SKIP | ERROR | XFAIL | total |')).toEqual(['| 3 | 1 | 1 | 1 | 1 | 1 | 8 |']);
});

test('every non-PASS case is a row, worst first, with its requirement and one line of message', () => {
  const md = renderMarkdownSummary(createResultsFixture());
  expect(md).toContain('### Not passing (5)');
  const rows = tableRows(md, NOT_PASSING_HEADER).map(cells);
  expect(rows.map((r) => r[0])).toEqual(['**ERROR**', '**FAIL**', '**WARN**', '**XFAIL**', '**SKIP**']);
  expect(rows[1]).toEqual([
    '**FAIL**',
    'GET assignees with every result on one page omits the link header<br>`assignees/single-page-omits-link`',
    '`pagination.link-omitted-single-page` MUST',
    '`pagination.link-omitted-single-page: expected no link header, got link: <…&page=1>; rel="first"`',
  ]);
  // The ERROR's message has a stack trace on its second line: only the first line, marked as cut.
  expect(rows[0]![3]).toBe('`TARGET_IO: socket hang up after 30000 ms` …');
});

test("a broken requirement that records the reference's choice says so beside its level", () => {
  const results = createResultsFixture();
  results.requirements.find((r) => r.id === 'conventions.media-type-recommended')!.basis = 'choice';
  const rows = tableRows(renderMarkdownSummary(results), NOT_PASSING_HEADER).map(cells);
  expect(rows[2]![2]).toBe("`conventions.media-type-recommended` SHOULD, reference's choice");
});

test('pipes, newlines, backticks and HTML in cells cannot break the table or the comment', () => {
  const results = createResultsFixture();
  const c = results.cases[1]!;
  c.title = 'title | with pipe and <b>tags</b>\nand a newline';
  c.message = 'got `a|b` <img src=x onerror=alert(1)> @someone | end';
  const md = renderMarkdownSummary(results);
  const rows = tableRows(md, NOT_PASSING_HEADER);
  for (const row of rows) expect(cells(row)).toHaveLength(4);
  const row = rows.find((r) => r.includes('**FAIL**'))!;
  expect(row).not.toContain('\n');
  expect(cells(row)[1]).toBe('title \\| with pipe and \\<b\\>tags\\</b\\> and a newline<br>`assignees/single-page-omits-link`');
  // A code span: GitHub renders neither the <img> nor the @mention inside it.
  expect(cells(row)[3]).toBe('``got `a\\|b` <img src=x onerror=alert(1)> @someone \\| end``');
});

test('long messages are cut to one line', () => {
  const results = createResultsFixture();
  results.cases[1]!.message = 'x'.repeat(500);
  const row = tableRows(renderMarkdownSummary(results), NOT_PASSING_HEADER).find((r) => r.includes('**FAIL**'))!;
  expect(cells(row)[3]).toBe(`\`${'x'.repeat(160)}\` …`);
});

test('requirements no case checked are counted and named', () => {
  const md = renderMarkdownSummary(createResultsFixture());
  expect(md).toContain('### Untested requirements: 2 of 9');
  expect(md).toContain(
    '<details><summary>2 requirements were not checked by any case</summary>\n\n`interaction-limits.expiry-default-one-day`, `interaction-limits.repo-409-owner-limit`\n\n</details>',
  );
});

test('a conforming run says so and lists nothing', () => {
  const base = createResultsFixture();
  const results: Results = {
    ...base,
    verdict: 'conforming',
    gaps: { untested: [], roles: [], capabilities: [], errors: [] },
    cases: base.cases.filter((c) => c.outcome === 'PASS'),
    requirements: base.requirements.filter((r) => r.status === 'PASS'),
    summary: { PASS: 3, FAIL: 0, WARN: 0, SKIP: 0, ERROR: 0, XFAIL: 0, total: 3 },
  };
  const md = renderMarkdownSummary(results);
  expect(md.split('\n')[0]).toBe('## ✅ touchstone: **conforming**');
  expect(md).toContain('### Every case passed');
  expect(md).toContain('### Untested requirements: 0 of 3');
  expect(md).not.toContain('<details>');
  expect(md).not.toContain('could not check');
});

test('an incomplete run says so first, with what it could not check', () => {
  const base = createResultsFixture();
  const results: Results = {
    ...base,
    verdict: 'incomplete',
    gaps: { untested: ['a.must'], roles: ['org-owner', 'workflow'], capabilities: ['control.clock'], errors: [] },
  };
  const md = renderMarkdownSummary(results);
  expect(md.split('\n')[0]).toBe('## ⚠️ touchstone: **incomplete**');
  expect(md).toContain('nothing failed, but the run does not show conformance: 1 MUST requirement went unchecked');
  expect(md).toContain(
    '### What this run could not check\n\n- no token for role org-owner, workflow: map them to tokens of the target with --tokens\n',
  );
  expect(md).toContain('- the target lacks capability control.clock (the optional control API)\n- unchecked MUST requirements: a.must');
});

test('a huge run stays within a PR comment', () => {
  const base = createResultsFixture();
  const failing = base.cases[1]!;
  const cases = Array.from({ length: 2000 }, (_, i) => ({ ...failing, id: `assignees/generated-${i}`, message: 'm'.repeat(400) }));
  const requirements = Array.from({ length: 1000 }, (_, i) => ({ ...base.requirements.at(-1)!, id: `generated.requirement-${i}` }));
  const md = renderMarkdownSummary({ ...base, cases, requirements });
  expect(tableRows(md, NOT_PASSING_HEADER)).toHaveLength(50);
  expect(md).toContain('… and 1950 more; see the HTML report.');
  expect(md).toContain(', … and 800 more');
  expect(md.length).toBeLessThan(65_536);
});
