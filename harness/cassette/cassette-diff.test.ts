import { expect, test } from '@playwright/test';
import { describeDiff, describeFolderDiff, diffCassetteFolders, diffCassettes, diffResponses, type DiffSide } from './cassette-diff.js';
import { inlineBodyBytes } from './body-codec.js';
import type { Cassette, Interaction } from './cassette-format.js';

const issue = (title: string, updatedAt: string, id = 1): Interaction => ({
  seq: 1,
  request: { method: 'GET', url: '/repos/o/r/issues/1', headers: [['accept', 'application/json']] },
  response: {
    status: 200,
    headers: [
      ['content-type', 'application/json'],
      ['date', updatedAt],
      ['content-length', String(title.length + 60)],
    ],
    body: { json: { id, number: 1, title, labels: [{ id: 7, name: 'bug' }], updated_at: updatedAt } },
  },
});

const cassette = (...interactions: Interaction[]): Cassette => ({
  cassetteVersion: 1,
  name: 'c',
  recordedAt: '2026-01-01T00:00:00Z',
  redactions: [],
  interactions,
});

test('a changed field is reported with its JSON path', () => {
  const entries = diffCassettes(cassette(issue('old', 'x')), cassette(issue('new', 'x')));
  expect(entries).toEqual([{ path: 'interactions[0].response.body.$.title', kind: 'changed', before: 'old', after: 'new' }]);
  expect(describeDiff(entries)).toBe('~ interactions[0].response.body.$.title: "old" → "new"');
});

test('volatile fields are ignored: timestamps, ids, date, and content-length of an equal body', () => {
  const a = issue('same', '2026-01-01T00:00:00Z', 1);
  const b = issue('same', '2026-02-02T00:00:00Z', 99);
  b.response.headers.push(['x-request-id', 'abc']);
  b.response.headers[2] = ['content-length', '9999'];
  expect(diffCassettes(cassette(a), cassette(b))).toEqual([]);
  expect(describeDiff([])).toBe('no differences');
});

test('an added interaction is reported, and a removed one', () => {
  const second: Interaction = { seq: 2, request: { method: 'DELETE', url: '/x', headers: [] }, response: { status: 204, headers: [] } };
  expect(diffCassettes(cassette(issue('t', 'x')), cassette(issue('t', 'x'), second))).toEqual([
    { path: 'interactions[1]', kind: 'added', after: 'DELETE /x → 204' },
  ]);
  expect(diffCassettes(cassette(issue('t', 'x'), second), cassette(issue('t', 'x')))).toEqual([
    { path: 'interactions[1]', kind: 'removed', before: 'DELETE /x → 204' },
  ]);
});

test('text and json bodies of the same value are equal; headers compare as value lists per name', () => {
  const recorded = {
    status: 200,
    headers: [
      ['Set-Cookie', 'a=1; Path=/'],
      ['set-cookie', 'b=2'],
      ['vary', 'accept'],
    ] as [string, string][],
    body: { json: { a: [1, 2] } },
  };
  const live = {
    status: 201,
    headers: [
      ['set-cookie', 'a=9; Path=/'],
      ['set-cookie', 'c=2'],
    ] as [string, string][],
    body: { text: '{ "a": [1, 2, 3] }' },
  };
  expect(diffResponses(recorded, live)).toEqual([
    { path: 'response.status', kind: 'changed', before: 200, after: 201 },
    { path: 'response.statusText', kind: 'changed', before: 'OK', after: 'Created' },
    { path: 'response.headers.set-cookie', kind: 'changed', before: ['a=…; Path=/', 'b=…'], after: ['a=…; Path=/', 'c=…'] },
    { path: 'response.headers.vary', kind: 'removed', before: 'accept' },
    { path: 'response.body.$.a[2]', kind: 'added', after: 3 },
  ]);
  expect(
    diffResponses({ status: 200, headers: [], body: { text: '{"a":1}' } }, { status: 200, headers: [], body: { json: { a: 1 } } }),
  ).toEqual([]);
});

test('ignoreFields and ignoreHeaders take names and JSON paths; binary bodies show a digest', () => {
  const a = { status: 200, headers: [['server', 'a']] as [string, string][], body: { json: { items: [{ rev: 1, keep: 1 }], sha: 'x' } } };
  const b = { status: 200, headers: [['server', 'b']] as [string, string][], body: { json: { items: [{ rev: 2, keep: 1 }], sha: 'y' } } };
  expect(diffResponses(a, b, { ignoreHeaders: ['Server'], ignoreFields: ['$.items[*].rev', 'sha'] })).toEqual([]);
  const bin = (bytes: number[]) => ({ status: 200, headers: [], body: { base64: Buffer.from(bytes).toString('base64') } });
  const [entry] = diffResponses(bin([0xff, 1]), bin([0xff, 2]));
  expect(entry.path).toBe('response.body');
  expect(entry.before).toMatch(/^2 bytes, sha256 [0-9a-f]{64}$/);
});

test('two folders compare cassette by cassette, by path: added, removed and changed are listed, equal ones are not', () => {
  const side = (interaction: Interaction): DiffSide => ({ cassette: cassette(interaction), readBody: inlineBodyBytes });
  const folders: Record<'a' | 'b', Record<string, DiffSide>> = {
    a: {
      'same.cassette.json': side(issue('t', 'x')),
      'x/changed.cassette.json': side(issue('old', 'x')),
      'gone.cassette.json': side(issue('t', 'x')),
    },
    b: {
      'same.cassette.json': side(issue('t', 'y')),
      'x/changed.cassette.json': side(issue('new', 'x')),
      'x/y/new.cassette.json': side(issue('t', 'x')),
    },
  };
  const loaded: string[] = [];
  const load = (which: 'a' | 'b', name: string) => (loaded.push(`${which}:${name}`), folders[which][name]);
  const diff = diffCassetteFolders(Object.keys(folders.a), Object.keys(folders.b), load);
  expect(diff).toEqual({
    added: ['x/y/new.cassette.json'],
    removed: ['gone.cassette.json'],
    changed: [{ path: 'x/changed.cassette.json', entries: diffCassettes(cassette(issue('old', 'x')), cassette(issue('new', 'x'))) }],
    compared: 4,
  });
  // Every cassette is read, those on one side too: an invalid one is an error, not an entry.
  expect(loaded.sort()).toEqual([...Object.keys(folders.a).map((n) => `a:${n}`), ...Object.keys(folders.b).map((n) => `b:${n}`)].sort());
  expect(describeFolderDiff(diff, 'before', 'after')).toBe(
    [
      '+ x/y/new.cassette.json: only in after',
      '- gone.cassette.json: only in before',
      '~ x/changed.cassette.json:',
      '  ~ interactions[0].response.body.$.title: "old" → "new"',
      'touchstone: 3 of 4 cassettes differ: 1 added, 1 removed, 1 changed',
    ].join('\n'),
  );
  const same = diffCassetteFolders(['a.cassette.json'], ['a.cassette.json'], () => side(issue('t', 'x')));
  expect(describeFolderDiff(same, 'before', 'after')).toBe('touchstone: no differences (1 cassette compared)');
});
