// Every case in one table, with outcome filter buttons. The buttons start hidden and the
// inline script reveals them, so where a CSP blocks the script the reader gets the full
// table instead of buttons that do nothing.
import { formatDuration } from './duration-format.js';
import { levelBadge, outcomeBadge } from './html-badge.js';
import { DETAILED_OUTCOMES, failureElementId } from './html-failure.js';
import { html, Markup } from './markup.js';
import { OUTCOMES_WORST_FIRST } from '../core/outcome-order.js';
import type { CaseResult, Results } from '../core/results.js';

function renderRow(c: CaseResult, index: number): Markup {
  const title = DETAILED_OUTCOMES.has(c.outcome) ? html`<a href="#${failureElementId(index)}">${c.title}</a>` : html`${c.title}`;
  return html`<tr data-index="${index}" data-case="${c.id}" data-outcome="${c.outcome}">
  <td>${outcomeBadge(c.outcome)}</td>
  <td class="case-title">${title}<div class="case-facts-inline"><code>${c.id}</code>${c.role && html` · as ${c.role}`}</div></td>
  <td>${levelBadge(c.level)}</td>
  <td class="endpoints">${c.endpoints.map((e) => html`<code>${e}</code>`)}<div class="aspects">${c.aspects.join(' · ')}</div></td>
  <td class="num">${formatDuration(c.duration_ms)}</td>
  <td><div class="case-message" title="${c.message ?? ''}">${c.message ?? ''}</div></td>
</tr>
`;
}

/**
 * A filter bar's buttons over one attribute (`data-filter-<attribute>`): All, then each value
 * present with its count; an outcome or status value takes its colour when pressed.
 */
export function filterButtons(
  attribute: 'outcome' | 'status' | 'level',
  values: readonly { value: string; count: number }[],
  total: number,
): Markup {
  const coloured = attribute !== 'level';
  return html`<button type="button" data-filter-${new Markup(attribute)}="" aria-pressed="true">All <span class="n">${total}</span></button>
  ${values
    .filter(({ count }) => count > 0)
    .map(
      ({ value, count }) =>
        html`<button type="button" data-filter-${new Markup(attribute)}="${value}"${coloured && html` data-outcome="${value}"`} aria-pressed="false">${value} <span class="n">${count}</span></button>`,
    )}`;
}

export function renderCaseTable(results: Results): Markup {
  const outcomes = OUTCOMES_WORST_FIRST.map((value) => ({ value, count: results.summary[value] }));
  return html`<div class="filters" data-testid="filters" hidden>
  <span class="filter-label">Show</span>
  ${filterButtons('outcome', outcomes, results.cases.length)}
  <span class="cell-filter" data-testid="cell-filter" hidden>in <strong class="cell-filter-label"></strong> <button type="button" data-clear-cases>×&#xa0;clear</button></span>
</div>
<div class="table-scroll"><table class="cases" data-testid="cases">
<thead><tr><th>Outcome</th><th>Case</th><th>Level</th><th>Endpoints · aspects</th><th class="num">Time</th><th>Message</th></tr></thead>
<tbody>
${results.cases.map(renderRow)}</tbody>
</table></div>
<p class="note no-match" data-testid="no-match" hidden>No case matches this filter.</p>`;
}
