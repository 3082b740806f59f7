// The endpoint × aspect matrix: where a target breaks the spec, at a glance. Each filled
// cell names the worst outcome and how many cases it folds, and filters the case table to
// exactly those cases (html-report-script.ts reads data-filter-cases).
import { buildEndpointAspectMatrix, matrixCellKey, type MatrixCell } from './endpoint-aspect-matrix.js';
import { html, type Markup } from './markup.js';
import { OUTCOMES_WORST_FIRST } from '../core/outcome-order.js';
import type { Aspect, CaseResult } from '../core/results.js';

function breakdown(cell: MatrixCell): string {
  const parts = OUTCOMES_WORST_FIRST.filter((o) => cell.counts[o]).map((o) => `${cell.counts[o]} ${o}`);
  const noun = cell.caseIndexes.length === 1 ? 'case' : 'cases';
  return `${cell.endpoint} · ${cell.aspect}: ${cell.caseIndexes.length} ${noun} (${parts.join(', ')})`;
}

function renderCell(endpoint: string, aspect: Aspect, cell: MatrixCell | undefined): Markup {
  const key = matrixCellKey(endpoint, aspect);
  if (!cell) return html`<td class="matrix-cell empty" data-cell="${key}" data-count="0"></td>`;
  const label = breakdown(cell);
  return html`<td class="matrix-cell" data-cell="${key}" data-outcome="${cell.worst}" data-count="${cell.caseIndexes.length}"><a href="#cases" data-filter-cases="${cell.caseIndexes.join(' ')}" data-filter-label="${endpoint} · ${aspect}" title="${label}" aria-label="${label}"><span class="cell-outcome">${cell.worst}</span> <span class="cell-count">×${cell.caseIndexes.length}</span></a></td>`;
}

export function renderMatrix(cases: readonly CaseResult[]): Markup {
  const matrix = buildEndpointAspectMatrix(cases);
  return html`<div class="table-scroll"><table class="matrix" data-testid="matrix">
<thead><tr><th scope="col">Endpoint</th>${matrix.aspects.map((a) => html`<th scope="col">${a}</th>`)}</tr></thead>
<tbody>
${matrix.endpoints.map(
  (endpoint) =>
    html`<tr data-endpoint="${endpoint}"><th scope="row"><code>${endpoint}</code></th>${matrix.aspects.map((aspect) =>
      renderCell(endpoint, aspect, matrix.cell(endpoint, aspect)),
    )}</tr>\n`,
)}</tbody>
</table></div>`;
}
