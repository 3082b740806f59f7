// GeneratedCodeInfo merging after insertions (protoc's UpdateMetadata/InsertShiftedInfo),
// and the text format of .pb.meta files.
import { expect, test } from '@playwright/test';
import { decodeGeneratedCodeInfo, encodeGeneratedCodeInfo, type Annotation } from '../response/generated-code-info.js';
import { parseGeneratedCodeInfoText, printGeneratedCodeInfoText } from '../response/generated-code-info-text.js';
import { updateInsertionMetadata } from './insertion-metadata.js';

const at = (begin: number, end: number, extra: Partial<Annotation> = {}): Annotation => ({ path: [], begin, end, unknown: [], ...extra });
const spans = (annotations: Annotation[] | undefined) => annotations?.map((a) => [a.begin, a.end]);

test.describe.configure({ mode: 'parallel' });

test('inserted annotations shift by offset and indents, later ones by the inserted length', () => {
  // Base "AAA\n  // @@protoc_insertion_point(p)\nBBB\n", text meta [0,3) and [37,40);
  // "x1\nx2\n" inserted at 4 under a 2-space indent (10 bytes inserted).
  const files = new Map<string, Uint8Array>([['gen.txt.pb.meta', printGeneratedCodeInfoText([at(0, 3), at(37, 40)])]]);
  const messages: string[] = [];
  updateInsertionMetadata(
    files,
    { filename: 'gen.txt', content: Buffer.from('x1\nx2\n'), offset: 4, length: 10, indent: 2, annotations: [at(0, 5), at(3, 5)] },
    (m) => messages.push(m),
  );
  expect(messages).toEqual([]);
  const merged = parseGeneratedCodeInfoText(files.get('gen.txt.pb.meta')!);
  expect(spans(merged), 'kept as text, in order: AAA, x1..x2, x2, BBB').toEqual([
    [0, 3],
    [6, 13],
    [11, 13],
    [47, 50],
  ]);
});

test('no .pb.meta: created in wire format only when the insertion carries annotations', () => {
  const files = new Map<string, Uint8Array>();
  const facts = { filename: 'g', content: Buffer.from('abc\n'), offset: 0, length: 4, indent: 0, annotations: [] };
  updateInsertionMetadata(files, facts, () => undefined);
  expect(files.size).toBe(0);
  updateInsertionMetadata(files, { ...facts, annotations: [at(1, 2)] }, () => undefined);
  expect(spans(decodeGeneratedCodeInfo(files.get('g.pb.meta')!))).toEqual([[1, 2]]);
});

test("unreadable metadata is left alone, with protoc's message", () => {
  const files = new Map<string, Uint8Array>([['g.pb.meta', Buffer.from('not { metadata')]]);
  const messages: string[] = [];
  updateInsertionMetadata(
    files,
    { filename: 'g', content: Buffer.from('x\n'), offset: 0, length: 2, indent: 0, annotations: [at(0, 1)] },
    (m) => messages.push(m),
  );
  expect(messages).toEqual(['g.pb.meta: Could not parse metadata as wire or text format.\n']);
  expect(Buffer.from(files.get('g.pb.meta')!).toString()).toBe('not { metadata');
});

test('text format: the grammar protoc accepts for GeneratedCodeInfo, and only its 3.21 fields', () => {
  const parsed = parseGeneratedCodeInfoText(
    Buffer.from('# comment\nannotation < path: [4, 0x1] source_file: "a" \'\\303\\251\' begin: -1; end: 010 >, annotation: { }\n'),
  );
  expect(parsed).toEqual([
    { path: [4, 1], sourceFile: Buffer.from('a\u00e9'), begin: -1, end: 8, unknown: [] },
    { path: [], unknown: [] },
  ]);
  for (const bad of [
    'annotation { semantic: SET }',
    'annotation { begin: 1 begin: 2 }',
    'annotation { begin: 1.5 }',
    'other: 1',
    'annotation { begin: 3000000000 }',
    'annotation {',
  ]) {
    expect(parseGeneratedCodeInfoText(Buffer.from(bad)), bad).toBeUndefined();
  }
  expect(parseGeneratedCodeInfoText(Buffer.from(''))).toEqual([]);
});

test("printing: one line per path element, CEscape'd strings, unknown fields by number", () => {
  const withSemantic = decodeGeneratedCodeInfo(
    encodeGeneratedCodeInfo([at(1, 2, { path: [4, 0], sourceFile: Buffer.from('caf\u00e9'), unknown: [Uint8Array.of(0x28, 0x01)] })]),
  );
  expect(Buffer.from(printGeneratedCodeInfoText(withSemantic)).toString()).toBe(
    'annotation {\n  path: 4\n  path: 0\n  source_file: "caf\\303\\251"\n  begin: 1\n  end: 2\n  5: 1\n}\n',
  );
});

test('content lacking its final newline (added by the splice) shifts annotations as the same content with it', () => {
  const run = (content: string) => {
    const files = new Map<string, Uint8Array>([['g.pb.meta', encodeGeneratedCodeInfo([at(0, 3), at(20, 24)])]]);
    updateInsertionMetadata(
      files,
      { filename: 'g', content: Buffer.from(content), offset: 4, length: 13, indent: 2, annotations: [at(0, 2), at(3, 8), at(6, 9)] },
      () => undefined,
    );
    return spans(decodeGeneratedCodeInfo(files.get('g.pb.meta')!));
  };
  expect(run('ab\ncd\nef')).toEqual(run('ab\ncd\nef\n'));
});
