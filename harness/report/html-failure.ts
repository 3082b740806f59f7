// One failing case (FAIL, WARN or ERROR) as a collapsible block: the requirement with the
// spec's own words, expected against actual, the exchange that showed it, and a command to
// reproduce it. Everything a person needs to file or fix the bug without opening a log.
import { formatDuration } from './duration-format.js';
import { basisBadge, levelBadge, outcomeBadge } from './html-badge.js';
import { renderExchange } from './html-exchange.js';
import { html, type Markup } from './markup.js';
import { requestIdOf, type CaseResult, type FailureDetail, type MatrixRow, type Outcome, type RequirementResult } from '../core/results.js';

/** The outcomes that get a failure block; SKIP and XFAIL explain themselves in one message line. */
export const DETAILED_OUTCOMES: ReadonlySet<Outcome> = new Set(['FAIL', 'WARN', 'ERROR']);

/** The element id of a case's failure block, so the case table and the URL hash can point at it. */
export function failureElementId(caseIndex: number): string {
  return `failure-${caseIndex}`;
}

function renderRequirement(id: string, requirement: RequirementResult | undefined): Markup {
  if (!requirement) {
    return html`<div class="requirement" data-testid="requirement" data-requirement="${id}">
  <p><code class="requirement-id">${id}</code> <span class="note">not in the requirement registry</span></p>
</div>`;
  }
  return html`<div class="requirement" data-testid="requirement" data-requirement="${id}">
  <p><code class="requirement-id">${id}</code> ${levelBadge(requirement.level)} ${basisBadge(requirement.basis)} <cite data-testid="spec-source">${requirement.source}</cite></p>
  <blockquote data-testid="spec-quote">${requirement.quote}</blockquote>
</div>`;
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n', 1)[0]!;
}

/** An auth matrix, a row per role: what its token is, the status expected and the one answered; broken rows marked. */
function renderMatrix(rows: readonly MatrixRow[]): Markup {
  return html`<h4>Auth matrix</h4>
<table class="auth-matrix" data-testid="auth-matrix">
<thead><tr><th>Role</th><th>Token</th><th>Expected</th><th>Answered</th><th>Row</th></tr></thead>
<tbody>
${rows.map(
  (
    row,
  ) => html`<tr data-testid="matrix-row" data-role="${row.role}" data-outcome="${row.outcome}"${row.outcome === 'FAIL' || row.outcome === 'WARN' ? html` class="broken"` : ''}>
  <td><code>${row.role}</code></td><td>${row.token}</td><td>${row.expected}</td><td>${row.status ?? html`<span class="note">not run: no token</span>`}</td><td>${outcomeBadge(row.outcome)}</td>
</tr>
`,
)}</tbody>
</table>`;
}

/** Every broken check of a case, in the order found: none is summed up. */
function renderBrokenChecks(failures: readonly FailureDetail[], requirements: ReadonlyMap<string, RequirementResult>): Markup {
  return html`<h4>Every broken check (${failures.length})</h4>
<table class="broken-checks" data-testid="broken-checks">
<thead><tr><th>Requirement</th><th>As</th><th>Request</th><th>Expected</th><th>Got</th></tr></thead>
<tbody>
${failures.map((f) => {
  const requirement = requirements.get(f.requirement);
  return html`<tr data-testid="broken-check" data-requirement="${f.requirement}">
  <td><code>${f.requirement}</code> ${requirement && levelBadge(requirement.level)}</td><td>${f.role ? html`<code>${f.role}</code>` : ''}</td><td>${f.endpoint ?? ''}</td><td>${f.expected}</td><td>${f.actual}</td>
</tr>
`;
})}</tbody>
</table>`;
}

export function renderFailure(c: CaseResult, caseIndex: number, requirements: ReadonlyMap<string, RequirementResult>): Markup {
  const { failure } = c;
  const cited = failure ? [failure.requirement] : c.requirements;
  const reproduceId = `reproduce-${caseIndex}`;
  const requestId = requestIdOf(failure?.exchange);
  return html`<details class="failure" id="${failureElementId(caseIndex)}" data-testid="failure" data-case="${c.id}" data-outcome="${c.outcome}">
<summary>${outcomeBadge(c.outcome)} <span class="failure-title">${c.title}</span> <code class="requirement-id">${cited.join(', ')}</code><span class="summary-message">${firstLine(c.message)}</span></summary>
<div class="failure-body">
  ${c.message?.includes('\n') && html`<pre class="message" data-testid="message">${c.message}</pre>`}
  <h4>Requirement</h4>
  ${cited.map((id) => renderRequirement(id, requirements.get(id)))}
  ${
    failure &&
    html`<div class="expected-actual">
    <div data-testid="expected"><h4>Expected</h4><pre>${failure.expected}</pre></div>
    <div data-testid="actual"><h4>Actual</h4><pre>${failure.actual}</pre></div>
  </div>`
  }
  ${c.matrix && renderMatrix(c.matrix)}
  ${c.failures && c.failures.length > 1 && renderBrokenChecks(c.failures, requirements)}
  ${failure?.exchange && html`<h4>Exchange${c.failures && c.failures.length > 1 ? ' of the first' : ''}</h4>${renderExchange(failure.exchange)}`}
  ${
    c.rerun &&
    html`<div class="reproduce">
    <h4>Run this case again</h4>
    <pre class="reproduce" data-testid="rerun">${c.rerun}</pre>
  </div>`
  }
  ${
    failure?.reproduce &&
    html`<div class="reproduce">
    <h4>Reproduce <button type="button" class="copy" data-copy-target="${reproduceId}" data-testid="copy-reproduce" hidden>Copy</button></h4>
    <pre class="reproduce" id="${reproduceId}" data-testid="reproduce">${failure.reproduce}</pre>
  </div>`
  }
  <dl class="case-facts">
    <dt>Case</dt><dd><code>${c.id}</code></dd>
    ${requestId && html`<dt>Request id</dt><dd><code data-testid="request-id">${requestId}</code></dd>`}
    <dt>Level</dt><dd>${levelBadge(c.level)}</dd>
    ${c.role && html`<dt>Role</dt><dd>${c.role}</dd>`}
    ${c.endpoints.length > 0 && html`<dt>Endpoints</dt><dd>${c.endpoints.join(', ')}</dd>`}
    ${c.aspects.length > 0 && html`<dt>Aspects</dt><dd>${c.aspects.join(', ')}</dd>`}
    <dt>Duration</dt><dd>${formatDuration(c.duration_ms)}</dd>
  </dl>
</div>
</details>`;
}
