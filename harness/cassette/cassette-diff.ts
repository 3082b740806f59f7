// Semantic diff of recordings: what a reviewer (`touchstone cassette diff`) or the proxy's
// verify mode wants to know, not what changed byte for byte. Bodies compare as JSON values
// when both sides parse (so a `text` and a `json` body of the same value are equal),
// headers as ordered value lists per name, and volatile fields are ignored by default.
// Two folders of cassettes compare cassette by cassette, paired by their path in the folder.
//
// Decisions where the brief is silent:
// - A path's interaction index is seq − 1 (interactions are paired by seq).
// - An added or removed interaction carries a one-line summary ("GET /x → 200"), not the
//   whole interaction: that is what the CLI prints and what verify reports.
// - Only interactions are compared; name, recordedAt and the redaction notes are bookkeeping.
// - set-cookie is compared without its value and Expires (cookie name and other attributes
//   still count); content-length only when the bodies differ.
// - `ignoreFields` entries starting with `$` are JSON paths (`$.a[*].b` or `$.a[0].b`);
//   others are field names at any depth.
// - Binary bodies that differ are shown as their size and SHA-256.
// - A folder's cassette found in one folder only is listed by its path, not compared with an
//   empty one (its interactions would be a list of additions saying nothing more); it is still
//   loaded, so an invalid one is an error rather than an entry.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { HeaderPairs } from '../core/results.js';
import { inlineBodyBytes } from './body-codec.js';
import { plural } from '../core/plural.js';
import { strictUtf8Text } from '../core/strict-utf8.js';
import {
  isDigestOnly,
  type Body,
  type Cassette,
  type DigestOnlyBody,
  type Interaction,
  type RecordedRequest,
  type RecordedResponse,
} from './cassette-format.js';

export interface DiffEntry {
  /** e.g. "interactions[3].response.body.$.title" */
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

export interface DiffOptions {
  /** Header names to ignore, on top of the volatile defaults. */
  ignoreHeaders?: string[];
  /** JSON body field names (any depth) or `$` paths to ignore, on top of the defaults. */
  ignoreFields?: string[];
  /** Decoded bytes of a body of the first (recorded) side; defaults to inline bodies only. */
  readBody?: (b: Body) => Buffer;
  /** Decoded bytes of a body of the second (live) side; defaults to readBody. */
  readLiveBody?: (b: Body) => Buffer;
}

const VOLATILE_HEADERS = ['date', 'etag', 'last-modified', 'expires', 'age', 'x-request-id'];
const VOLATILE_FIELDS = ['id', 'node_id'];
const isTimestampField = (key: string) => key.endsWith('_at');

interface Rules {
  headers: Set<string>;
  fieldNames: Set<string>;
  fieldPaths: Set<string>;
  readBefore: (b: Body) => Buffer;
  readAfter: (b: Body) => Buffer;
}

function rulesOf(options: DiffOptions = {}): Rules {
  const fields = [...VOLATILE_FIELDS, ...(options.ignoreFields ?? [])];
  const readBefore = options.readBody ?? inlineBodyBytes;
  return {
    headers: new Set([...VOLATILE_HEADERS, ...(options.ignoreHeaders ?? [])].map((h) => h.toLowerCase())),
    fieldNames: new Set(fields.filter((f) => !f.startsWith('$'))),
    fieldPaths: new Set(fields.filter((f) => f.startsWith('$'))),
    readBefore,
    readAfter: options.readLiveBody ?? readBefore,
  };
}

const propertyPath = (path: string, key: string) =>
  /^[A-Za-z_$][\w$-]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/** Structural JSON diff below `path`; `generic` is the same path with [*] for indices. */
function diffJson(before: unknown, after: unknown, path: string, generic: string, rules: Rules, out: DiffEntry[]): void {
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (Array.isArray(before) && Array.isArray(after)) {
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      const at = `${path}[${i}]`;
      if (i >= after.length) out.push({ path: at, kind: 'removed', before: before[i] });
      else if (i >= before.length) out.push({ path: at, kind: 'added', after: after[i] });
      else diffJson(before[i], after[i], at, `${generic}[*]`, rules, out);
    }
    return;
  }
  if (isObject(before) && isObject(after)) {
    const keys = [...Object.keys(before), ...Object.keys(after).filter((k) => !Object.hasOwn(before, k))];
    for (const key of keys) {
      const at = propertyPath(path, key);
      const atGeneric = propertyPath(generic, key);
      const jsonPath = (p: string) => p.slice(p.indexOf('$'));
      if (
        rules.fieldNames.has(key) ||
        isTimestampField(key) ||
        rules.fieldPaths.has(jsonPath(at)) ||
        rules.fieldPaths.has(jsonPath(atGeneric))
      )
        continue;
      if (!Object.hasOwn(after, key)) out.push({ path: at, kind: 'removed', before: before[key] });
      else if (!Object.hasOwn(before, key)) out.push({ path: at, kind: 'added', after: after[key] });
      else diffJson(before[key], after[key], at, atGeneric, rules, out);
    }
    return;
  }
  if (!Object.is(before, after)) out.push({ path, kind: 'changed', before, after });
}

/** What a body means for comparison: a JSON value, text, or a binary digest. */
function bodyValue(
  body: Body | DigestOnlyBody | undefined,
  read: (b: Body) => Buffer,
): { json: unknown } | { text: string } | { binary: string } {
  if (!body) return { text: '' };
  // A request body kept as its digest compares by digest, whatever it was.
  if (isDigestOnly(body)) return { binary: `${body.size} bytes, sha256 ${body.sha256}` };
  if ('json' in body) return { json: body.json };
  const bytes = read(body);
  const text = strictUtf8Text(bytes);
  if (text === undefined) return { binary: `${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}` };
  if (/^\s*[[{]/.test(text)) {
    try {
      return { json: JSON.parse(text) };
    } catch {
      // not JSON: compared as text
    }
  }
  return { text };
}

function diffBody(
  before: Body | DigestOnlyBody | undefined,
  after: Body | DigestOnlyBody | undefined,
  path: string,
  rules: Rules,
): DiffEntry[] {
  const a = bodyValue(before, rules.readBefore);
  const b = bodyValue(after, rules.readAfter);
  const out: DiffEntry[] = [];
  if ('json' in a && 'json' in b) diffJson(a.json, b.json, `${path}.$`, `${path}.$`, rules, out);
  else {
    const shown = (v: typeof a) => ('json' in v ? v.json : 'text' in v ? v.text : v.binary);
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ path, kind: 'changed', before: shown(a), after: shown(b) });
  }
  return out;
}

const comparableHeaderValue = (name: string, value: string) =>
  name === 'set-cookie' ? value.replace(/^([^=;]*=)[^;]*/, '$1…').replace(/;\s*expires=[^;]*/i, '') : value;

function headerLists(headers: HeaderPairs, ignored: Set<string>): Map<string, string[]> {
  const lists = new Map<string, string[]>();
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (ignored.has(lower)) continue;
    lists.set(lower, [...(lists.get(lower) ?? []), comparableHeaderValue(lower, value)]);
  }
  return lists;
}

function diffHeaders(before: HeaderPairs, after: HeaderPairs, path: string, ignored: Set<string>): DiffEntry[] {
  const a = headerLists(before, ignored);
  const b = headerLists(after, ignored);
  const one = (values: string[]) => (values.length === 1 ? values[0] : values);
  const out: DiffEntry[] = [];
  for (const name of [...a.keys(), ...[...b.keys()].filter((k) => !a.has(k))]) {
    const va = a.get(name);
    const vb = b.get(name);
    const at = `${path}.${name}`;
    if (!vb) out.push({ path: at, kind: 'removed', before: one(va!) });
    else if (!va) out.push({ path: at, kind: 'added', after: one(vb) });
    else if (JSON.stringify(va) !== JSON.stringify(vb)) out.push({ path: at, kind: 'changed', before: one(va), after: one(vb) });
  }
  return out;
}

/** Headers and body, shared by requests and responses. */
function diffMessage(
  before: RecordedRequest | RecordedResponse,
  after: RecordedRequest | RecordedResponse,
  path: string,
  rules: Rules,
): DiffEntry[] {
  const body = diffBody(before.body, after.body, `${path}.body`, rules);
  const ignored = body.length === 0 ? new Set([...rules.headers, 'content-length']) : rules.headers;
  return [...diffHeaders(before.headers, after.headers, `${path}.headers`, ignored), ...body];
}

function changed(path: string, before: unknown, after: unknown): DiffEntry[] {
  return before === after ? [] : [{ path, kind: 'changed', before, after }];
}

function diffResponsesWith(recorded: RecordedResponse, live: RecordedResponse, path: string, rules: Rules): DiffEntry[] {
  const reason = (r: RecordedResponse) => r.statusText ?? http.STATUS_CODES[r.status] ?? '';
  return [
    ...changed(`${path}.status`, recorded.status, live.status),
    ...changed(`${path}.statusText`, reason(recorded), reason(live)),
    ...diffMessage(recorded, live, path, rules),
  ];
}

/** How a live response differs from the recorded one (the proxy's verify mode). Paths start at `response`. */
export function diffResponses(recorded: RecordedResponse, live: RecordedResponse, options?: DiffOptions): DiffEntry[] {
  return diffResponsesWith(recorded, live, 'response', rulesOf(options));
}

const summary = (i: Interaction) => `${i.request.method} ${i.request.url} → ${i.response.status}`;

/** Differences between two cassettes, interactions paired by seq. */
export function diffCassettes(a: Cassette, b: Cassette, options?: DiffOptions): DiffEntry[] {
  const rules = rulesOf(options);
  const bySeq = (c: Cassette) => new Map(c.interactions.map((i) => [i.seq, i]));
  const before = bySeq(a);
  const after = bySeq(b);
  const seqs = [...new Set([...before.keys(), ...after.keys()])].sort((x, y) => x - y);
  const out: DiffEntry[] = [];
  for (const seq of seqs) {
    const path = `interactions[${seq - 1}]`;
    const x = before.get(seq);
    const y = after.get(seq);
    if (!x) out.push({ path, kind: 'added', after: summary(y!) });
    else if (!y) out.push({ path, kind: 'removed', before: summary(x) });
    else {
      out.push(
        ...changed(`${path}.request.method`, x.request.method, y.request.method),
        ...changed(`${path}.request.url`, x.request.url, y.request.url),
        ...diffMessage(x.request, y.request, `${path}.request`, rules),
        ...diffResponsesWith(x.response, y.response, `${path}.response`, rules),
      );
    }
  }
  return out;
}

const MAX_SHOWN = 120;
function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

/** One line per difference, for the CLI: `~ path: before → after`, `+ path: after`, `- path: before`. */
export function describeDiff(entries: DiffEntry[]): string {
  if (entries.length === 0) return 'no differences';
  return entries
    .map((e) =>
      e.kind === 'changed'
        ? `~ ${e.path}: ${show(e.before)} → ${show(e.after)}`
        : e.kind === 'added'
          ? `+ ${e.path}: ${show(e.after)}`
          : `- ${e.path}: ${show(e.before)}`,
    )
    .join('\n');
}

/** A cassette to compare, with how to read its bodies (sidecars beside its file). */
export interface DiffSide {
  cassette: Cassette;
  readBody: (b: Body) => Buffer;
}

/** Two folders' cassettes, by path in the folder. */
export interface FolderDiff {
  /** Only in the second folder. */
  added: string[];
  /** Only in the first. */
  removed: string[];
  /** In both, and different. */
  changed: { path: string; entries: DiffEntry[] }[];
  /** How many paths there were in all. */
  compared: number;
}

/**
 * The cassettes of two folders (`a` and `b`: their paths in each folder), each paired with the
 * one at the same path in the other; `load` gives a cassette of either side, one at a time.
 */
export function diffCassetteFolders(
  a: readonly string[],
  b: readonly string[],
  load: (side: 'a' | 'b', path: string) => DiffSide,
  options: Omit<DiffOptions, 'readBody' | 'readLiveBody'> = {},
): FolderDiff {
  const inA = new Set(a);
  const inB = new Set(b);
  const diff: FolderDiff = { added: [], removed: [], changed: [], compared: new Set([...a, ...b]).size };
  for (const path of [...inA].sort()) {
    const before = load('a', path);
    if (!inB.has(path)) {
      diff.removed.push(path);
      continue;
    }
    const after = load('b', path);
    const entries = diffCassettes(before.cassette, after.cassette, { ...options, readBody: before.readBody, readLiveBody: after.readBody });
    if (entries.length) diff.changed.push({ path, entries });
  }
  for (const path of [...inB].filter((p) => !inA.has(p)).sort()) {
    load('b', path);
    diff.added.push(path);
  }
  return diff;
}

/** How many cassettes differ: added, removed or changed (0: the folders are the same). */
export const differingCassettes = (diff: FolderDiff): number => diff.added.length + diff.removed.length + diff.changed.length;

/** For the CLI: the cassettes added, removed and changed (each change as describeDiff says it), then the counts. */
export function describeFolderDiff(diff: FolderDiff, a: string, b: string): string {
  const { added, removed, changed, compared } = diff;
  const differing = differingCassettes(diff);
  if (differing === 0) return `touchstone: no differences (${plural(compared, 'cassette')} compared)`;
  const lines = [
    ...added.map((path) => `+ ${path}: only in ${b}`),
    ...removed.map((path) => `- ${path}: only in ${a}`),
    ...changed.flatMap(({ path, entries }) => [
      `~ ${path}:`,
      ...describeDiff(entries)
        .split('\n')
        .map((line) => `  ${line}`),
    ]),
    `touchstone: ${differing} of ${compared} cassettes differ: ${added.length} added, ${removed.length} removed, ${changed.length} changed`,
  ];
  return lines.join('\n');
}
