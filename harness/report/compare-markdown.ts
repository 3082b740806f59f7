// compare.md: the comparison short enough for a pull-request comment: the runs, then what
// regressed and what was fixed against the first run. The full tables are in compare.html.
import { comparisonHeadline, regressed, type CaseRow, type Change, type Comparison, type RequirementRow } from './compare-runs.js';
import { cellText, codeSpan, truncatedMessage } from './markdown-summary.js';
import { describeTarget } from './target-description.js';

const MAX_ROWS = 50;

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

function section(title: string, rows: (CaseRow | RequirementRow)[], comparison: Comparison, withMessage: boolean): string | undefined {
  if (rows.length === 0) return undefined;
  const labels = comparison.runs.map((r) => cellText(r.label));
  const shown = rows
    .slice(0, MAX_ROWS)
    .map((row) => [
      codeSpan(row.id) + (row.textChanged ? ' (requirement text changed)' : ''),
      ...row.cells.map((cell, i) =>
        cell === undefined ? 'not run' : i > 0 && (row.changes[i] === 'regressed' || row.changes[i] === 'unchecked') ? `**${cell}**` : cell,
      ),
      ...(withMessage ? [truncatedMessage('messages' in row ? row.messages.filter(Boolean).at(-1) : undefined)] : []),
    ]);
  const more = rows.length > MAX_ROWS ? `\n\n… and ${rows.length - MAX_ROWS} more; see compare.html.` : '';
  return `### ${title} (${rows.length})\n\n${table(['', ...labels, ...(withMessage ? ['message'] : [])], shown)}${more}`;
}

/** The sections after the runs, in order: each change's cases (with their messages, but for fixes), then its requirements. */
const SECTIONS: [Change, string, string][] = [
  ['regressed', 'Newly failing cases', 'Requirements now worse'],
  ['unchecked', 'Cases no longer checked', 'Requirements no longer checked'],
  ['fixed', 'Newly passing cases', 'Requirements now better'],
];

export function renderCompareMarkdown(comparison: Comparison): string {
  const mark = regressed(comparison) ? '❌' : '✅';
  const headline = cellText(comparisonHeadline(comparison));
  const runs = table(
    ['run', 'target', 'verdict', 'PASS', 'FAIL', 'WARN', 'SKIP', 'ERROR', 'XFAIL'],
    comparison.runs.map(({ label, results: r }) => [
      cellText(label),
      codeSpan(describeTarget(r)),
      `**${r.verdict}**`,
      ...(['PASS', 'FAIL', 'WARN', 'SKIP', 'ERROR', 'XFAIL'] as const).map((o) => String(r.summary[o])),
    ]),
  );
  const parts = [
    `## ${mark} touchstone comparison: ${headline}`,
    runs,
    comparison.notes.length > 0 ? comparison.notes.map((n) => `- ⚠️ ${cellText(n)}`).join('\n') : undefined,
    ...SECTIONS.flatMap(([change, cases, requirements]) => [
      section(
        cases,
        comparison.cases.filter((r) => r.change === change),
        comparison,
        change !== 'fixed',
      ),
      section(
        requirements,
        comparison.requirements.filter((r) => r.change === change),
        comparison,
        false,
      ),
    ]),
  ];
  return `${parts.filter(Boolean).join('\n\n')}\n`;
}
