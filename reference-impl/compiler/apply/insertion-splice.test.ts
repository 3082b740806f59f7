// The in-place splicer against the straightforward algorithm it replaced (a new buffer per
// insertion), over many insertions into the same files: reuse of a buffer, growth past
// its room, every marker form, and entries replaced behind its back.
import { expect, test } from '@playwright/test';
import { createInsertionSplicer } from './insertion-splice.js';

test.describe.configure({ mode: 'parallel' });

const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : Buffer.from(bytes).toString('latin1'));

/** protoc's rule written the obvious way, on strings (latin1: one character per byte). */
function naiveInsert(
  target: string,
  point: string,
  content: string,
): { text: string; offset: number; length: number; indent: number } | undefined {
  const found = target.indexOf(`@@protoc_insertion_point(${point})`);
  if (found < 0) return undefined;
  const offset = found > 3 && target.slice(found - 3, found - 1) === '/*' ? found - 3 : target.lastIndexOf('\n', found) + 1;
  const indent = /^[ \t]*/.exec(target.slice(offset))![0];
  if (content !== '' && !content.endsWith('\n')) content += '\n';
  const lines = content.match(/[^\n]*\n/g) ?? [];
  const inserted = lines.map((line) => indent + line).join('');
  return { text: target.slice(0, offset) + inserted + target.slice(offset), offset, length: inserted.length, indent: indent.length };
}

// The last line ends in the start of a marker, so content put in at its inline "/*" can
// complete a marker that begins before the insertion, which later searches must find.
const BASE =
  'head\n  // @@protoc_insertion_point(spaces)\n\t// @@protoc_insertion_point(tab)\nx = [/* @@protoc_insertion_point(inline) */];\n' +
  '@@protoc_insertion_point(first)\n \t @@protoc_insertion_point(mixed)\n// @@protoc_insertion_point(a)b)\n' +
  'y @@protoc_insertion_po/* @@protoc_insertion_point(straddle) */';

test('many insertions into the same files match the obvious algorithm byte for byte', () => {
  const splicer = createInsertionSplicer();
  const files = new Map<string, Uint8Array>();
  const expected = new Map<string, string>();
  for (const name of ['a', 'b']) {
    files.set(name, Buffer.from(BASE, 'latin1'));
    expected.set(name, BASE);
  }
  // 'firs' is a prefix of a name and 'a)b' holds the ')' that ends one: neither is 'first' or 'a'.
  const points = ['spaces', 'tab', 'inline', 'first', 'mixed', 'absent', 'straddle', 'late', 'firs', 'a)b', 'a'];
  for (let i = 0; i < 600; i++) {
    const name = i % 3 === 0 ? 'b' : 'a';
    const point = points[i % points.length];
    // Some contents are long, so a file outgrows its room several times; some are empty;
    // some carry a marker of their own, which later insertions must then find first.
    // Every other one lacks its final newline, which the splice then adds.
    // Bytes that are not UTF-8 (\xe9, \xff, \x80 alone) must come out as they went in.
    // Content starting 'int(late)' completes a 'late' marker, found nowhere else, when it goes in at 'straddle'.
    const full = `line ${i} caf\xe9 \xff\x80\n${'x'.repeat((i * 7919) % 5000)}\n\n${i % 5 === 0 ? '@@protoc_insertion_point(first)\n' : ''}`;
    const body = i % 17 === 0 ? '' : i % 7 === 0 ? `int(late)\n${full}` : i % 2 === 0 ? full : `${full}last line`;
    const result = splicer.insert(name, files.get(name)!, Buffer.from(point, 'latin1'), Buffer.from(body, 'latin1'));
    const naive = naiveInsert(expected.get(name)!, point, body);
    expect(
      result && { text: text(result.bytes), offset: result.offset, length: result.length, indent: result.indent },
      `insertion ${i}`,
    ).toEqual(naive);
    if (result && naive) {
      files.set(name, result.bytes);
      expected.set(name, naive.text);
    }
  }
  expect(text(files.get('a'))).toBe(expected.get('a'));
});

test('an entry replaced by someone else is not written through; earlier views keep their bytes', () => {
  const splicer = createInsertionSplicer();
  const first = splicer.insert('f', Buffer.from('@@protoc_insertion_point(p)\n'), Buffer.from('p'), Buffer.from('one\n'))!;
  const snapshot = text(first.bytes);
  // The entry is now a copy (as insertion-metadata.ts does for a .pb.meta): a new buffer must be used.
  const copy = Uint8Array.from(first.bytes);
  const second = splicer.insert('f', copy, Buffer.from('p'), Buffer.from('two\n'))!;
  expect(text(second.bytes)).toBe('one\ntwo\n@@protoc_insertion_point(p)\n');
  expect(text(first.bytes)).toBe(snapshot);
  expect(text(copy)).toBe(snapshot);
});

test("a marker in another file is never found, and a first line starts at its file's start", () => {
  const splicer = createInsertionSplicer();
  const insert = (name: string, target: Uint8Array, point: string, content: string) =>
    splicer.insert(name, target, Buffer.from(point), Buffer.from(content));
  const a = insert('a', Buffer.from('x\n@@protoc_insertion_point(a)\n'), 'a', 'A\n')!;
  const b = insert('b', Buffer.from('  @@protoc_insertion_point(b)\n'), 'b', 'B\n')!;
  expect(text(b.bytes)).toBe('  B\n  @@protoc_insertion_point(b)\n');
  expect(insert('a', a.bytes, 'b', 'nope\n'), 'only b has that marker').toBeUndefined();
  expect(text(insert('a', a.bytes, 'a', 'A2\n')!.bytes)).toBe('x\nA\nA2\n@@protoc_insertion_point(a)\n');
});

test('faults: content below the annotated line, and without its indentation', () => {
  const target = Buffer.from('a\n  @@protoc_insertion_point(p)\nb\n');
  const insert = (switches: Parameters<typeof createInsertionSplicer>[0]) =>
    text(createInsertionSplicer(switches).insert('f', target, Buffer.from('p'), Buffer.from('X\n'))!.bytes);
  expect(insert(new Set())).toBe('a\n  X\n  @@protoc_insertion_point(p)\nb\n');
  expect(insert(new Set(['compiler.insertion-below-line']))).toBe('a\n  @@protoc_insertion_point(p)\nX\nb\n');
  expect(insert(new Set(['compiler.insertion-unindented']))).toBe('a\nX\n  @@protoc_insertion_point(p)\nb\n');
});
