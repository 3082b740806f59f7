// report.html: one self-contained page a person opens to see whether a target conforms and,
// when it does not, exactly why. No external resources, so it works offline and as a CI
// artifact; the page's own CSP allows only its inline style and script (pinned by hash), so
// even a mistake in escaping could not run a hostile target's script.
import { createHash } from 'node:crypto';
import { formatDuration } from './duration-format.js';
import { renderCaseTable } from './html-case-table.js';
import { DETAILED_OUTCOMES, renderFailure } from './html-failure.js';
import { renderMatrix } from './html-matrix.js';
import { REPORT_SCRIPT } from './html-report-script.js';
import { REPORT_STYLE } from './html-report-style.js';
import { renderRequirementTable } from './html-requirement-table.js';
import { html, Markup, withCodeSpans } from './markup.js';
import { compareWorstFirst, OUTCOMES_WORST_FIRST } from '../core/outcome-order.js';
import type { Results, Verdict } from '../core/results.js';
import { verdictHeadline } from './verdict-reasons.js';
import { describeTarget } from './target-description.js';

const VERDICT_FACE: Readonly<Record<Verdict, { mark: string; title: string }>> = {
  conforming: { mark: '✓', title: 'Conforming' },
  incomplete: { mark: '!', title: 'Incomplete' },
  'non-conforming': { mark: '✗', title: 'Non-conforming' },
};

function cspSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** A policy that lets the page run only this style and, when given, this script: nothing a target wrote can. */
function contentSecurityPolicy(style: string, script?: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource(style)}`,
    `script-src ${script === undefined ? "'none'" : cspSource(script)}`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** A self-contained page's head: the policy that allows only its own style (and script), and the title. */
export function pageHead(title: string, style: string, script?: string): Markup {
  return html`<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(style, script)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${new Markup(style)}</style>
</head>`;
}

// A fixed UTC rendering, so two renders of the same results are byte-identical wherever they run.
export function formatTimestamp(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC');
}

function renderBanner(results: Results): Markup {
  const face = VERDICT_FACE[results.verdict];
  const target = withCodeSpans(describeTarget(results));
  const given = results.target.plugin;
  const fact = (label: string, value: string | Markup, testId: string) =>
    html`<div><dt>${label}</dt><dd data-testid="${testId}">${value}</dd></div>`;
  return html`<header class="verdict-banner" data-verdict="${results.verdict}">
  <div class="verdict-mark" aria-hidden="true">${face.mark}</div>
  <div>
    <p class="eyebrow">touchstone ${results.kind} conformance report</p>
    <h1 data-testid="verdict" data-verdict="${results.verdict}">${face.title}</h1>
    <p class="verdict-headline" data-testid="verdict-headline">${verdictHeadline(results)}</p>
    <dl class="facts">
      ${fact('Target', target, 'target')}
      ${given?.parameter !== undefined && fact('Parameter', html`<code>${given.parameter}</code>`, 'parameter')}
      ${given?.proto && fact('Your schema files', html`<code>${given.proto.join(' ')}</code>`, 'proto')}
      ${fact('Started', formatTimestamp(results.started_at), 'started')}
      ${fact('Duration', formatDuration(results.duration_ms), 'duration')}
      ${fact('Mode', results.strict ? 'strict (WARN fails)' : 'standard', 'mode')}
      ${fact('Tool', `touchstone ${results.tool.version}`, 'tool')}
    </dl>
  </div>
</header>`;
}

/** Right under the banner when the run did not check everything: what it lacked, and what went unchecked. */
function renderGaps(results: Results): Markup | undefined {
  const { roles, capabilities, errors, untested, shared_state } = results.gaps;
  const codes = (ids: string[]) => ids.map((id, i) => html`${i > 0 ? ', ' : ''}<code>${id}</code>`);
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  const items = [
    roles.length > 0 &&
      html`<li data-testid="gap-roles">No token for role ${codes(roles)}: map ${roles.length === 1 ? 'it' : 'them'} to tokens of the target with <code>--tokens</code>.</li>`,
    capabilities.length > 0 &&
      html`<li data-testid="gap-capabilities">The target lacks capability ${codes(capabilities)} (the optional control API).</li>`,
    errors.length > 0 &&
      html`<li data-testid="gap-errors">${count(errors.length, 'case')} in ERROR: the harness or the environment failed, so their checks did not run: ${codes(errors)}.</li>`,
    untested.length > 0 &&
      html`<li data-testid="gap-untested">${count(untested.length, 'MUST requirement')} unchecked: ${untested.map((id, i) => html`${i > 0 ? ', ' : ''}<a href="#requirement-${id}"><code>${id}</code></a>`)}.</li>`,
    shared_state === true &&
      html`<li data-testid="gap-shared-state">The target has no <code>control.reset</code>: cases ran on shared state, each on what the cases before it left, so a failure may come from an earlier case.</li>`,
  ].filter((item) => item !== false);
  if (items.length === 0) return undefined;
  return html`<section class="gaps" data-testid="gaps" aria-labelledby="gaps-heading">
<h2 id="gaps-heading">What this run could not check</h2>
<ul>${items}</ul>
</section>`;
}

function renderCounts(results: Results): Markup {
  return html`<ul class="counts" data-testid="counts">
  <li><a href="#cases" data-filter-outcome="" data-testid="count-total"><span class="n">${results.summary.total}</span><span class="label">TOTAL</span></a></li>
  ${OUTCOMES_WORST_FIRST.map(
    (o) =>
      html`<li><a href="#cases" data-filter-outcome="${o}" data-outcome="${o}" data-count="${results.summary[o]}" data-testid="count-${o}"><span class="n">${results.summary[o]}</span><span class="label">${o}</span></a></li>`,
  )}
</ul>`;
}

function renderFailures(results: Results): Markup {
  const requirements = new Map(results.requirements.map((r) => [r.id, r]));
  const failing = results.cases
    .map((c, index) => ({ c, index }))
    .filter(({ c }) => DETAILED_OUTCOMES.has(c.outcome))
    .sort((a, b) => compareWorstFirst(a.c.outcome, b.c.outcome));
  if (failing.length === 0) return html`<p class="note">No case failed, warned or errored.</p>`;
  return html`<p class="note">Worst first. Open one for the requirement, the exchange and a command to reproduce it.</p>
${failing.map(({ c, index }) => renderFailure(c, index, requirements))}`;
}

export function renderHtmlReport(results: Results): string {
  const failureCount = results.cases.filter((c) => DETAILED_OUTCOMES.has(c.outcome)).length;
  const untested = results.requirements.filter((r) => r.status === 'UNTESTED').length;
  // Plugin and compiler cases exercise no endpoint: their report has no matrix to show.
  const hasMatrix = results.cases.some((c) => c.endpoints.length > 0);
  const page = html`<!DOCTYPE html>
<html lang="en">
${pageHead(`touchstone: ${results.verdict} · ${describeTarget(results).replaceAll('`', '')}`, REPORT_STYLE, REPORT_SCRIPT)}
<body>
${renderBanner(results)}
<nav class="sections" aria-label="Sections"><ul>
  ${hasMatrix && html`<li><a href="#matrix">Matrix</a></li>`}
  <li><a href="#failures">Failures (${failureCount})</a></li>
  <li><a href="#cases">Cases (${results.cases.length})</a></li>
  <li><a href="#requirements">Requirements (${results.requirements.length}${untested > 0 ? `, ${untested} untested` : ''})</a></li>
</ul></nav>
<main>
${renderGaps(results)}
${renderCounts(results)}
<div class="search" data-testid="search" role="search" hidden>
  <input type="search" aria-label="Search cases and requirements" placeholder="Search cases and requirements: id, title, message, spec text" autocomplete="off">
  <span class="note" data-testid="search-count" aria-live="polite"></span>
</div>
${
  hasMatrix &&
  html`<section id="matrix" aria-labelledby="matrix-heading">
<h2 id="matrix-heading">Endpoints × aspects</h2>
<p class="note">Each cell shows the worst outcome of the cases that exercise that endpoint for that aspect, and how many there are. Select one to list its cases.</p>
${renderMatrix(results.cases)}
</section>`
}
<section id="failures" aria-labelledby="failures-heading">
<h2 id="failures-heading">Failures, warnings and errors (${failureCount})</h2>
${renderFailures(results)}
</section>
<section id="cases" aria-labelledby="cases-heading">
<h2 id="cases-heading">All cases (${results.cases.length})</h2>
${renderCaseTable(results)}
</section>
<section id="requirements" aria-labelledby="requirements-heading">
<h2 id="requirements-heading">Requirements (${results.requirements.length})</h2>
${renderRequirementTable(results.requirements)}
</section>
<footer>Generated by touchstone ${results.tool.version} from results.json (${results.started_at} – ${results.finished_at}).</footer>
</main>
<script>${new Markup(REPORT_SCRIPT)}</script>
</body>
</html>
`;
  return page.text;
}
