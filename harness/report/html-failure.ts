// One failing case (FAIL, WARN or ERROR) as a collapsible block: the requirement with the
// spec's own words, expected against actual, the exchange that showed it, and a command to
// reproduce it. Everything a person needs to file or fix the bug without opening a log.
import { formatDuration } from './duration-format.js';
import { levelBadge, outcomeBadge } from './html-badge.js';
import { renderExchange } from './html-exchange.js';
import { html, type Markup } from './markup.js';
import { requestIdOf, type CaseResult, type Outcome, type RequirementResult } from '../core/results.js';

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
  <p><code class="requirement-id">${id}</code> ${levelBadge(requirement.level)} <cite data-testid="spec-source">${requirement.source}</cite></p>
  <blockquote data-testid="spec-quote">${requirement.quote}</blockquote>
</div>`;
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n', 1)[0]!;
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
  ${failure?.exchange && html`<h4>Exchange</h4>${renderExchange(failure.exchange)}`}
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
