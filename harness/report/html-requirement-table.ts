// The requirement registry as this run saw it: each requirement's spec text and status, with
// the ones no case cites (UNTESTED) flagged, since a conforming verdict says nothing about them.
import { basisBadge, levelBadge, outcomeBadge } from './html-badge.js';
import { html, type Markup } from './markup.js';
import { LEVELS, type Outcome, type RequirementResult, type RequirementStatus } from '../core/results.js';
import { OUTCOMES_WORST_FIRST } from '../core/outcome-order.js';
import { filterButtons } from './html-case-table.js';

/** Why an UNTESTED requirement went unchecked, when its cases say. */
function untestedReason(r: RequirementResult): Markup | undefined {
  if (r.status !== 'UNTESTED' || r.cases.length === 0) return undefined;
  const lacked = [
    ...(r.missing?.roles ?? []).map((role) => `a token for ${role}`),
    ...(r.missing?.capabilities ?? []).map((capability) => capability),
  ];
  return html`<div class="note" data-testid="untested-reason">${lacked.length > 0 ? `not run: no ${lacked.join(', ')}` : 'its cases stopped before checking it'}</div>`;
}

function renderFaults(r: RequirementResult): Markup {
  if (!r.faults || r.faults.length === 0) return html`<span class="note">none</span>`;
  return html`${r.faults.map(
    (f) =>
      html`<div class="fault" data-fault="${f.id}" data-caught="${f.caught_by.length > 0 ? 'true' : 'false'}" title="${f.caught_by.length > 0 ? `caught by ${f.caught_by.join(', ')}` : 'no case citing this requirement caught it'}"><code>${f.id}</code> <span class="note">${
        f.caught_by.length > 0 ? `caught by ${f.caught_by.length} case${f.caught_by.length === 1 ? '' : 's'}` : 'not caught'
      }</span></div>`,
  )}`;
}

function renderRow(r: RequirementResult, withFaults: boolean): Markup {
  return html`<tr id="requirement-${r.id}" data-requirement="${r.id}" data-status="${r.status}" data-level="${r.level}"${r.status === 'UNTESTED' ? html` class="untested"` : ''}>
  <td><code>${r.id}</code></td>
  <td>${levelBadge(r.level)} ${basisBadge(r.basis)}</td>
  <td>${outcomeBadge(r.status)}</td>
  <td class="quote-cell"><blockquote>${r.quote}</blockquote><cite>${r.source}</cite></td>
  <td>${r.cases.length === 0 ? html`<span class="note">no case</span>` : r.cases.map((id) => html`<code>${id}</code> `)}${untestedReason(r)}</td>
${withFaults && html`  <td data-testid="faults">${renderFaults(r)}</td>\n`}</tr>
`;
}

/** The requirement statuses, worst first (as the case outcomes' filter), UNTESTED last. */
const REQUIREMENT_STATUSES_WORST_FIRST: readonly RequirementStatus[] = [
  ...OUTCOMES_WORST_FIRST.filter((o): o is Exclude<Outcome, 'SKIP'> => o !== 'SKIP'),
  'UNTESTED',
];

export function renderRequirementTable(requirements: readonly RequirementResult[]): Markup {
  const count = (values: readonly string[], of: (r: RequirementResult) => string) =>
    values.map((value) => ({ value, count: requirements.filter((r) => of(r) === value).length }));
  const untested = requirements.filter((r) => r.status === 'UNTESTED').length;
  // Only a kill-matrix run knows which built-in faults each requirement's cases catch.
  const withFaults = requirements.some((r) => r.faults !== undefined);
  return html`<p data-testid="untested-count">${
    untested === 0
      ? 'Every requirement was checked by at least one case.'
      : html`<strong>${untested}</strong> of ${requirements.length} requirements were not checked (UNTESTED): no case cites them, or every case that does was skipped or stopped before checking them.`
  }</p>
<div class="filters" data-testid="requirement-filters" hidden>
  <span class="filter-label">Status</span>
  ${filterButtons(
    'status',
    count(REQUIREMENT_STATUSES_WORST_FIRST, (r) => r.status),
    requirements.length,
  )}
  <span class="filter-label">Level</span>
  ${filterButtons(
    'level',
    count(LEVELS, (r) => r.level),
    requirements.length,
  )}
</div>
<div class="table-scroll"><table class="requirements" data-testid="requirements">
<thead><tr><th>Requirement</th><th>Level · basis</th><th>Status</th><th>Spec text</th><th>Cases</th>${withFaults && html`<th>Faults caught</th>`}</tr></thead>
<tbody>
${requirements.map((r) => renderRow(r, withFaults))}</tbody>
</table></div>
<p class="note no-match" data-testid="no-requirement-match" hidden>No requirement matches this filter.</p>`;
}
