// The coloured outcome and level labels the HTML report uses everywhere; the colours live in
// html-report-style.ts, keyed on data-outcome and data-level.
import { html, type Markup } from './markup.js';
import type { Level, Outcome } from '../core/results.js';

export function outcomeBadge(outcome: Outcome | 'UNTESTED'): Markup {
  return html`<span class="badge" data-outcome="${outcome}">${outcome}</span>`;
}

export function levelBadge(level: Level): Markup {
  return html`<span class="level" data-level="${level}">${level}</span>`;
}
