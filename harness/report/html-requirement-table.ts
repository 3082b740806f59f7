// The requirement registry as this run saw it: each requirement's spec text and status, with
// the ones no case cites (UNTESTED) flagged, since a conforming verdict says nothing about them.
import { levelBadge, outcomeBadge } from './html-badge.js';
import { html, type Markup } from './markup.js';
import type { RequirementResult } from './results.js';

function renderRow(r: RequirementResult): Markup {
  return html`<tr data-requirement="${r.id}" data-status="${r.status}"${r.status === 'UNTESTED' ? html` class="untested"` : ''}>
  <td><code>${r.id}</code></td>
  <td>${levelBadge(r.level)}</td>
  <td>${outcomeBadge(r.status)}</td>
  <td class="quote-cell"><blockquote>${r.quote}</blockquote><cite>${r.source}</cite></td>
  <td>${r.cases.length === 0 ? html`<span class="note">no case</span>` : r.cases.map((id) => html`<code>${id}</code> `)}</td>
</tr>
`;
}

export function renderRequirementTable(requirements: readonly RequirementResult[]): Markup {
  const untested = requirements.filter((r) => r.status === 'UNTESTED').length;
  return html`<p data-testid="untested-count">${
    untested === 0
      ? 'Every requirement is cited by at least one case.'
      : html`<strong>${untested}</strong> of ${requirements.length} requirements have no case (UNTESTED).`
  }</p>
<div class="table-scroll"><table class="requirements" data-testid="requirements">
<thead><tr><th>Requirement</th><th>Level</th><th>Status</th><th>Spec text</th><th>Cases</th></tr></thead>
<tbody>
${requirements.map(renderRow)}</tbody>
</table></div>`;
}
