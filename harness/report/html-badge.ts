// The coloured outcome and level labels the HTML report uses everywhere; the colours live in
// html-report-style.ts, keyed on data-outcome and data-level.
import { html, type Markup } from './markup.js';
import type { Basis, Level, Outcome } from '../core/results.js';

export function outcomeBadge(outcome: Outcome | 'UNTESTED'): Markup {
  return html`<span class="badge" data-outcome="${outcome}">${outcome}</span>`;
}

export function levelBadge(level: Level): Markup {
  return html`<span class="level" data-level="${level}">${level}</span>`;
}

const BASIS_TITLES: Record<Basis, string> = {
  quoted: "the spec's words force it",
  choice: "the spec is silent or open here: this records the reference's reading, and a target that reads it otherwise only warns",
  convention: 'a rule of HTTP or of this API family that the spec takes for granted',
};

/** Why a requirement says what it says, with the meaning in its tooltip. */
export function basisBadge(basis: Basis): Markup {
  return html`<span class="basis" data-basis="${basis}" title="${BASIS_TITLES[basis]}">${basis === 'choice' ? "reference's choice" : basis}</span>`;
}
