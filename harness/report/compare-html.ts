// compare.html: the runs of a comparison side by side in one self-contained page (the report's
// stylesheet, no script, a CSP that allows nothing else). What changed comes first: cases and
// requirements a later run made worse than the first, then the ones it no longer checked, then
// the ones it fixed, then the rest.
import { outcomeBadge } from './html-badge.js';
import { formatTimestamp, pageHead } from './html-report.js';
import { REPORT_STYLE } from './html-report-style.js';
import { html, type Markup, withCodeSpans } from './markup.js';
import {
  comparisonHeadline,
  regressed,
  type CaseRow,
  type Cell,
  type Change,
  type Comparison,
  type RequirementRow,
} from './compare-runs.js';
import { formatDuration } from './duration-format.js';
import { describeTarget } from './target-description.js';
import { plural } from '../core/plural.js';

const STYLE = `${REPORT_STYLE}
.compare-banner { padding: 24px max(24px, calc((100% - 1232px) / 2)); color: #fff; background: linear-gradient(120deg, #116329, #1a7f37); }
.compare-banner[data-regressed="true"] { background: linear-gradient(120deg, #a40e26, #cf222e); }
.compare-banner h1 { margin: 2px 0 6px; font-size: 30px; }
.change { font-size: 12px; font-weight: 700; white-space: nowrap; }
.change[data-change="regressed"] { color: var(--FAIL); }
.change[data-change="fixed"] { color: var(--PASS); }
.change[data-change="unchecked"] { color: var(--UNTESTED); }
tr[data-change="regressed"] td:first-child { box-shadow: inset 4px 0 var(--FAIL); }
tr[data-change="unchecked"] td:first-child { box-shadow: inset 4px 0 var(--UNTESTED); }
tr[data-change="fixed"] td:first-child { box-shadow: inset 4px 0 var(--PASS); }
td.cell { min-width: 120px; }
td.cell .case-message { margin-top: 4px; }
.text-changed { color: var(--UNTESTED); font-size: 12px; font-weight: 700; }
.verdict { font-weight: 700; }
.verdict[data-verdict="conforming"] { color: var(--PASS); }
.verdict[data-verdict="non-conforming"] { color: var(--FAIL); }
.verdict[data-verdict="incomplete"] { color: var(--WARN); }
.notes li { color: var(--WARN); }
`;

const CHANGE_LABEL: Record<Change, string> = {
  regressed: '▼ regressed',
  unchecked: '○ no longer checked',
  fixed: '▲ fixed',
  changed: '≠ changed',
  removed: '− not run',
  added: '+ new',
  same: '',
};

function changeMark(change: Change): Markup {
  return html`<span class="change" data-change="${change}">${CHANGE_LABEL[change]}</span>`;
}

/** One cell per run; with `messages`, a case's message in that run under its outcome. */
function cells(row: { cells: (Cell | undefined)[]; changes: Change[] }, messages?: (string | undefined)[]): Markup[] {
  return row.cells.map(
    (cell, i) =>
      html`<td class="cell" title="${messages?.[i] ?? ''}">${cell === undefined ? html`<span class="note">not run</span>` : outcomeBadge(cell)} ${i > 0 && row.changes[i] !== 'same' && changeMark(row.changes[i])}${messages?.[i] && html`<div class="case-message">${messages[i]}</div>`}</td>`,
  );
}

function caseTable(rows: CaseRow[], comparison: Comparison, testId: string, withMessages = true): Markup {
  return html`<div class="table-scroll"><table data-testid="${testId}">
<thead><tr><th>case</th>${comparison.runs.map((r) => html`<th>${r.label}</th>`)}</tr></thead>
<tbody>${rows.map(
    (row) => html`<tr data-change="${row.change}" data-case="${row.id}">
<td><code>${row.id}</code><div class="note">${row.title}</div>${row.textChanged && html`<div class="text-changed">a requirement it cites was reworded between these runs</div>`}</td>
${cells(row, withMessages ? row.messages : undefined)}</tr>`,
  )}</tbody></table></div>`;
}

function requirementTable(rows: RequirementRow[], comparison: Comparison): Markup {
  return html`<div class="table-scroll"><table data-testid="requirements">
<thead><tr><th>requirement</th><th>level</th>${comparison.runs.map((r) => html`<th>${r.label}</th>`)}</tr></thead>
<tbody>${rows.map(
    (row) => html`<tr data-change="${row.change}" data-requirement="${row.id}">
<td><code>${row.id}</code>${row.textChanged && html`<div class="text-changed">its text differs between these runs</div>`}</td><td>${row.level}</td>
${cells(row)}</tr>`,
  )}</tbody></table></div>`;
}

function runsTable(comparison: Comparison): Markup {
  return html`<div class="table-scroll"><table data-testid="runs">
<thead><tr><th>run</th><th>target</th><th>verdict</th><th class="num">PASS</th><th class="num">FAIL</th><th class="num">WARN</th><th class="num">SKIP</th><th class="num">ERROR</th><th class="num">XFAIL</th><th>started</th><th class="num">took</th><th>touchstone</th></tr></thead>
<tbody>${comparison.runs.map(({ label, results: r }, i) => {
    const target = describeTarget(r);
    return html`<tr><td><strong>${label}</strong>${i === 0 && html`<div class="note">compared against</div>`}</td><td>${withCodeSpans(target)}</td>
<td><span class="verdict" data-verdict="${r.verdict}">${r.verdict}</span></td>
${(['PASS', 'FAIL', 'WARN', 'SKIP', 'ERROR', 'XFAIL'] as const).map((o) => html`<td class="num">${r.summary[o]}</td>`)}
<td>${formatTimestamp(r.started_at)}</td><td class="num">${formatDuration(r.duration_ms)}</td><td>${r.tool.version}</td></tr>`;
  })}</tbody></table></div>`;
}

export function renderCompareHtml(comparison: Comparison): string {
  const regressedCases = comparison.cases.filter((c) => c.change === 'regressed');
  const fixedCases = comparison.cases.filter((c) => c.change === 'fixed');
  const uncheckedCases = comparison.cases.filter((c) => c.change === 'unchecked');
  const [first, ...later] = comparison.runs.map((r) => r.label);
  const headline = comparisonHeadline(comparison);
  const page = html`<!DOCTYPE html>
<html lang="en">
${pageHead(`touchstone comparison: ${comparison.runs.map((r) => r.label).join(' · ')}`, STYLE)}
<body>
<header class="compare-banner" data-regressed="${regressed(comparison)}">
<p class="eyebrow">touchstone comparison of ${comparison.runs.length} runs</p>
<h1 data-testid="headline">${headline[0].toUpperCase()}${headline.slice(1)}</h1>
<p>${later.join(', ')} against ${first}: ${plural(regressedCases.length, 'case')} newly failing, ${uncheckedCases.length} no longer checked, ${fixedCases.length} newly passing.</p>
</header>
<main>
<section aria-labelledby="runs-heading"><h2 id="runs-heading">Runs</h2>${runsTable(comparison)}
${comparison.notes.length > 0 && html`<ul class="notes" data-testid="notes">${comparison.notes.map((n) => html`<li>${n}</li>`)}</ul>`}</section>
<section aria-labelledby="regressed-heading"><h2 id="regressed-heading">Newly failing (${regressedCases.length})</h2>
${regressedCases.length > 0 ? caseTable(regressedCases, comparison, 'regressed') : html`<p class="note">No case is worse than in ${first}.</p>`}</section>
${
  uncheckedCases.length > 0 &&
  html`<section aria-labelledby="unchecked-heading"><h2 id="unchecked-heading">No longer checked (${uncheckedCases.length})</h2>
<p class="note">Checked in ${first}, skipped in a later run: not failing, but no longer judged.</p>
${caseTable(uncheckedCases, comparison, 'unchecked')}</section>`
}
<section aria-labelledby="fixed-heading"><h2 id="fixed-heading">Newly passing (${fixedCases.length})</h2>
${fixedCases.length > 0 ? caseTable(fixedCases, comparison, 'fixed') : html`<p class="note">No case is better than in ${first}.</p>`}</section>
<section aria-labelledby="requirements-heading"><h2 id="requirements-heading">Requirements (${comparison.requirements.length})</h2>
<p class="note">Changes first. A requirement's status folds the outcomes of the cases that check it.</p>
${requirementTable(comparison.requirements, comparison)}</section>
<section aria-labelledby="cases-heading"><h2 id="cases-heading">All cases (${comparison.cases.length})</h2>
<p class="note">Changes first; hover a cell for the case's message in that run.</p>
${caseTable(comparison.cases, comparison, 'cases', false)}</section>
</main>
</body>
</html>
`;
  return page.text;
}
