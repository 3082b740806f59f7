// A summary short enough for a CI pull-request comment (GitHub caps one at 65,536
// characters): the verdict, the counts, the cases that did not pass, and the requirements no
// case covers. The full story lives in report.html.
//
// Text a target can influence (messages) is put in code spans: GitHub renders raw HTML such
// as <img> in comments, and turns @name into a notification, but leaves code spans alone.
import { replaceControlCharacters } from './control-characters.js';
import { formatDuration } from './duration-format.js';
import { compareWorstFirst } from '../core/outcome-order.js';
import { OUTCOMES, type CaseResult, type RequirementResult, type Results } from '../core/results.js';
import { gapReasons, verdictHeadline } from './verdict-reasons.js';
import { describeTarget } from './target-description.js';

const MAX_CASE_ROWS = 50;
const MAX_UNTESTED_IDS = 200;
const MAX_MESSAGE_CHARS = 160;

function oneLine(text: string): string {
  return replaceControlCharacters(text)
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .trim();
}

/** Plain table-cell text: Markdown punctuation and pipes escaped, one line. */
export function cellText(text: string): string {
  return oneLine(text).replace(/[\\`*_[\]<>|~&!]/g, (c) => `\\${c}`);
}

/** A code span that survives any backticks inside it; pipes stay escaped because GFM splits table cells before parsing spans. */
export function codeSpan(text: string): string {
  const content = oneLine(text);
  if (content === '') return '';
  const longestRun = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = content.startsWith('`') || content.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${content.replace(/\|/g, '\\|')}${pad}${fence}`;
}

export function truncatedMessage(message: string | undefined): string {
  const lines = (message ?? '').split('\n').filter((line) => line.trim() !== '');
  let first = lines[0] ?? '';
  let cut = lines.length > 1;
  if (first.length > MAX_MESSAGE_CHARS) {
    first = first.slice(0, MAX_MESSAGE_CHARS);
    cut = true;
  }
  return codeSpan(first) + (cut ? ' …' : '');
}

/** Every broken check of a case on a line of its own (a matrix's rows among them), or the message of a case with none. */
function messageCell(c: CaseResult): string {
  const lines = (c.message ?? '').split('\n').filter((line) => line.trim() !== '');
  if (c.failures === undefined || lines.length <= 1) return truncatedMessage(c.message);
  return lines.map((line) => truncatedMessage(line)).join('<br>');
}

/** A requirement id with its level and basis: `social.duplicate` MAY, reference's choice. */
function requirementCell(id: string, requirements: ReadonlyMap<string, RequirementResult>): string {
  const requirement = requirements.get(id);
  if (!requirement) return codeSpan(id);
  return `${codeSpan(id)} ${requirement.level}${requirement.basis === 'choice' ? ", reference's choice" : requirement.basis === 'convention' ? ', convention' : ''}`;
}

function caseRow(c: CaseResult, requirements: ReadonlyMap<string, RequirementResult>): string {
  const cited = c.failures ? [...new Set(c.failures.map((f) => f.requirement))] : c.failure ? [c.failure.requirement] : c.requirements;
  return `| **${c.outcome}** | ${cellText(c.title)}<br>${codeSpan(c.id)} | ${cited.map((id) => requirementCell(id, requirements)).join('<br>')} | ${messageCell(c)} |`;
}

const MARKS = { conforming: '✅', incomplete: '⚠️', 'non-conforming': '❌' } as const;

function verdictLine(results: Results): string {
  const mark = MARKS[results.verdict];
  const target = describeTarget(results);
  const facts = [
    `${results.kind} target ${codeSpan(target)}`,
    `${results.summary.total} cases in ${formatDuration(results.duration_ms)}`,
    results.strict ? 'strict (WARN counts as FAIL)' : undefined,
    `touchstone ${cellText(results.tool.version)}`,
  ];
  return `## ${mark} touchstone: **${results.verdict}**\n\n${cellText(verdictHeadline(results))}\n\n${facts.filter(Boolean).join(' · ')}`;
}

function gapsSection(results: Results): string | undefined {
  const reasons = gapReasons(results, MAX_UNTESTED_IDS);
  if (reasons.length === 0) return undefined;
  return `### What this run could not check\n\n${reasons.map((reason) => `- ${cellText(reason)}`).join('\n')}`;
}

function countsTable(results: Results): string {
  const header = [...OUTCOMES, 'total'];
  const values = [...OUTCOMES.map((o) => results.summary[o]), results.summary.total];
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---:').join('|')}|`, `| ${values.join(' | ')} |`].join('\n');
}

function notPassingSection(results: Results): string {
  const cases = results.cases.filter((c) => c.outcome !== 'PASS').sort((a, b) => compareWorstFirst(a.outcome, b.outcome));
  if (cases.length === 0) return '### Every case passed';
  const shown = cases.slice(0, MAX_CASE_ROWS);
  const requirements = new Map(results.requirements.map((r) => [r.id, r]));
  const rows = ['| outcome | case | requirement | message |', '|---|---|---|---|', ...shown.map((c) => caseRow(c, requirements))];
  const more = cases.length > shown.length ? `\n\n… and ${cases.length - shown.length} more; see the HTML report.` : '';
  return `### Not passing (${cases.length})\n\n${rows.join('\n')}${more}`;
}

function untestedSection(results: Results): string {
  const untested = results.requirements.filter((r) => r.status === 'UNTESTED').map((r) => r.id);
  const heading = `### Untested requirements: ${untested.length} of ${results.requirements.length}`;
  if (untested.length === 0) return heading;
  const shown = untested.slice(0, MAX_UNTESTED_IDS).map(codeSpan).join(', ');
  const more = untested.length > MAX_UNTESTED_IDS ? `, … and ${untested.length - MAX_UNTESTED_IDS} more` : '';
  const noun = untested.length === 1 ? 'requirement was' : 'requirements were';
  return `${heading}\n\n<details><summary>${untested.length} ${noun} not checked by any case</summary>\n\n${shown}${more}\n\n</details>`;
}

export function renderMarkdownSummary(results: Results): string {
  return `${[verdictLine(results), gapsSection(results), countsTable(results), notPassingSection(results), untestedSection(results)].filter(Boolean).join('\n\n')}\n`;
}
