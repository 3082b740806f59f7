// `touchstone baseline update FILE --from DIR`: today's failures written into the baseline,
// comments and order of the file kept (edited as a YAML document, not rewritten).
// - a failing case not listed is added, with its message's first line as the expected message;
// - with --fix, entries of cases that now pass are removed, and an expected message the
//   failure no longer contains is replaced by today's;
// - without --fix those, and expired or skipped entries, are only reported: shrinking the
//   list or excusing a new message is a decision the user makes by asking for it.
// Only the cases the run ran are considered: a run of one suite leaves the rest of the file alone.
import { isMap, isSeq, parseDocument, type YAMLMap, type YAMLSeq } from 'yaml';
import { HarnessError } from '../core/errors.js';
import { compileSchemaFile, createAjv } from '../core/validated-file.js';
import { describeSchemaErrors } from '../../lib/located-yaml.js';
import type { Results } from '../core/results.js';
import { baselineSchemaFile, firstLine, normaliseBaseline, type BaselineFile } from './baseline.js';
import { projectPath } from '../../lib/project-files.js';

export type BaselineChangeKind = 'added' | 'removed' | 'message' | 'passes' | 'differs' | 'expired' | 'skipped';

export interface BaselineChange {
  kind: BaselineChangeKind;
  case: string;
  detail: string;
  /** Whether the file changed for it (false: reported only). */
  written: boolean;
}

const validate = compileSchemaFile(createAjv(), projectPath(baselineSchemaFile.path));

export function updateBaseline(text: string | undefined, file: string, results: Results, options: { fix: boolean; today: string }) {
  const doc = parseDocument(text?.trim() ? text : 'known: []\n');
  if (doc.errors.length > 0) throw new HarnessError('CONFIG', `${file}: not valid YAML: ${doc.errors[0].message}`);
  const data = doc.toJS() as BaselineFile;
  if (!validate(data)) throw new HarnessError('CONFIG', `${file}: invalid: ${describeSchemaErrors(validate.errors)}`);
  const baseline = normaliseBaseline(data);
  if (!isSeq(doc.contents) && !doc.has('known')) doc.set('known', doc.createNode([]));
  const known = (isSeq(doc.contents) ? doc.contents : doc.get('known')) as YAMLSeq<YAMLMap>;
  const flaky = new Set(baseline.flaky.map((e) => e.case));
  const entries = new Map(baseline.known.map((e, i) => [e.case, { entry: e, node: known.items[i] }]));

  const changes: BaselineChange[] = [];
  const removed: YAMLMap[] = [];
  const note = (kind: BaselineChangeKind, id: string, detail: string, written: boolean) =>
    changes.push({ kind, case: id, detail, written });
  for (const c of results.cases) {
    if (flaky.has(c.id)) continue;
    const outcome = c.baseline?.was ?? c.outcome;
    const message = firstLine(c.baseline ? c.baseline.was_message : c.message);
    const listed = entries.get(c.id);
    if (outcome === 'FAIL' || outcome === 'WARN') {
      if (!listed) {
        known.add(doc.createNode({ case: c.id, reason: `new failure on ${options.today}: say why it is accepted`, message }));
        note('added', c.id, message, true);
        continue;
      }
      if (listed.entry.expires !== undefined && options.today > listed.entry.expires)
        note('expired', c.id, `expired on ${listed.entry.expires}: extend it or fix the target`, false);
      if (listed.entry.message !== undefined && !message.includes(listed.entry.message)) {
        if (options.fix) isMap(listed.node) && listed.node.set('message', message);
        note(options.fix ? 'message' : 'differs', c.id, `expected "${listed.entry.message}", now "${message}"`, options.fix);
      }
    } else if (listed && outcome === 'PASS') {
      if (options.fix) removed.push(listed.node);
      note(options.fix ? 'removed' : 'passes', c.id, 'the case passes now', options.fix);
    } else if (listed && outcome === 'SKIP') {
      note('skipped', c.id, `skipped, so not checked: ${message}`, false);
    }
  }
  known.items = known.items.filter((node) => !removed.includes(node));
  return { text: String(doc), changes };
}
