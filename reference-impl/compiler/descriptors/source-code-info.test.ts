// The parser's FileDescriptorProtos, source_code_info included, against protoc 3.21's byte
// for byte: every .proto of the plugin suites' fixtures, every one of the parser's fixtures
// that protoc accepts (fixtures/source-info/ covers comments of every kind and layouts:
// tabs, CRLF, a byte order mark, non-ASCII text, no final newline, on every kind of
// declaration), and protobuf 3.21's own google/protobuf/*.proto where Debian installed them.
// Each file is compiled alone with its imports, as a plugin gets it; the imports are
// compared too, except the well-known files that are not on the import path (the parser
// takes protobufjs's copies, which have no source to locate).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { expect, test } from '@playwright/test';
import protobuf from 'protobufjs';
import { createDescriptorCodec } from './descriptor-codec.js';
import { createSymbolTable } from './descriptor-symbols.js';
import { parseProtoFiles } from './proto-parser.js';
import { sourceCodeInfo, walkSource } from './source-code-info.js';
import { walkFile } from './source-info-declarations.js';
import { tokenizeForSourceInfo } from './source-info-tokens.js';
import { runDebianProtoc, skipWithoutDebianProtoc } from '../../../test-support/debian-protoc.js';

const PARSER_FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));
const SUITE_FIXTURES = fileURLToPath(new URL('../../../suites/plugin/fixtures', import.meta.url));

function protoFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? protoFiles(root, join(dir, e.name)) : e.name.endsWith('.proto') ? [relative(root, join(dir, e.name))] : [],
    )
    .sort();
}

/** protoc's --include_source_info --include_imports set for one file: each file's bytes as protoc wrote them, by name. */
function protocFiles(root: string, file: string): Map<string, Uint8Array> | { rejected: string } {
  const dir = mkdtempSync(join(tmpdir(), 'touchstone-source-info-'));
  try {
    const out = join(dir, 'set.pb');
    const run = runDebianProtoc(['-I', root, '--include_source_info', '--include_imports', `--descriptor_set_out=${out}`, file], {
      cwd: root,
    });
    if (run.status !== 0) return { rejected: run.stderr };
    const reader = protobuf.Reader.create(readFileSync(out));
    const files = new Map<string, Uint8Array>();
    const codec = createDescriptorCodec();
    while (reader.pos < reader.len) {
      if (reader.uint32() !== 0x0a) throw new Error('a FileDescriptorSet holds only field 1');
      const bytes = reader.bytes();
      files.set(codec.decodeFile(bytes).name as string, bytes);
    }
    return files;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Location = { path?: number[]; span?: number[] };

/** Where two decoded files first differ, readable: a location of source_code_info, or the descriptor. */
function firstDifference(theirs: Record<string, unknown>, ours: Record<string, unknown>): string {
  const locations = (f: Record<string, unknown>) => ((f.source_code_info as { location?: Location[] })?.location ?? []) as Location[];
  const [a, b] = [locations(theirs), locations(ours)];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (!isDeepStrictEqual(a[i], b[i])) return `location ${i}: protoc ${JSON.stringify(a[i])}, ours ${JSON.stringify(b[i])}`;
  }
  const rest = (f: Record<string, unknown>) => ({ ...f, source_code_info: undefined });
  return `outside source_code_info: protoc ${JSON.stringify(rest(theirs))}\nours ${JSON.stringify(rest(ours))}`;
}

function compareFile(root: string, file: string): void {
  const theirs = protocFiles(root, file);
  // Only parser fixtures are chosen this way (errors/ holds files protoc rejects on purpose); every other file must be accepted.
  if ('rejected' in theirs) {
    expect(root === PARSER_FIXTURES && file.startsWith('errors/'), `protoc rejects ${file}: ${theirs.rejected}`).toBe(true);
    return;
  }
  const ours = parseProtoFiles([join(root, file)], [root]);
  expect([...ours.keys()], "every file once, imports first, in protoc's order").toEqual([...theirs.keys()]);
  const codec = createDescriptorCodec();
  for (const [name, bytes] of theirs) {
    if (name.startsWith('google/protobuf/') && !existsSync(join(root, name))) continue;
    const mine = ours.get(name)!.bytes;
    if (!Buffer.from(mine).equals(Buffer.from(bytes))) {
      expect.soft(false, `${name} differs from protoc's at ${firstDifference(codec.decodeFile(bytes), codec.decodeFile(mine))}`).toBe(true);
    }
  }
}

for (const [title, root] of [
  ['suites/plugin/fixtures', SUITE_FIXTURES],
  ['descriptors/fixtures', PARSER_FIXTURES],
] as const) {
  test.describe(`byte for byte with protoc 3.21: ${title}`, () => {
    for (const file of protoFiles(root)) {
      test(file, () => {
        skipWithoutDebianProtoc(test);
        compareFile(root, file);
      });
    }
  });
}

// Real-world files with long comments: protobuf 3.21's own, which Debian's libprotobuf-dev
// (recommended by protobuf-compiler) installs, read from disk like any file on an import path.
const PROTOC_INCLUDE = '/usr/include';
const WELL_KNOWN_SOURCES = join(PROTOC_INCLUDE, 'google/protobuf');
test.describe('byte for byte with protoc 3.21: its own google/protobuf/*.proto', () => {
  const files = existsSync(WELL_KNOWN_SOURCES) ? protoFiles(PROTOC_INCLUDE, WELL_KNOWN_SOURCES) : ['(none installed)'];
  for (const file of files) {
    test(file, () => {
      skipWithoutDebianProtoc(test);
      test.skip(!existsSync(WELL_KNOWN_SOURCES), `${WELL_KNOWN_SOURCES} not found: Debian's libprotobuf-dev installs it`);
      compareFile(PROTOC_INCLUDE, file);
    });
  }
});

test.describe('source locations without protoc (pinned from protoc 3.21 runs)', () => {
  test('comments lead, trail and stand detached; columns count tabs to the next multiple of 8', () => {
    const source = '// detached\n\n// leads\nsyntax = "proto3"; // trails\n\nmessage M {\n\tint32 a = 1;\n}\n';
    const { locations } = walkFile(tokenizeForSourceInfo(source), '');
    expect(locations.slice(0, 2)).toEqual([
      { path: [], span: [3, 0, 7, 1], leading_detached_comments: [] },
      {
        path: [12],
        span: [3, 0, 18],
        leading_comments: ' leads\n',
        trailing_comments: ' trails\n',
        leading_detached_comments: [' detached\n'],
      },
    ]);
    expect(locations.find((l) => isDeepStrictEqual(l.path, [4, 0, 2, 0]))?.span).toEqual([6, 8, 20]);
  });

  test("an option's location is rewritten to the option field it sets, its parts dropped", () => {
    const source = 'syntax = "proto3";\noption java_package = "x";\n';
    const file = {
      name: 'a.proto',
      dependency: [],
      public_dependency: [],
      weak_dependency: [],
      message_type: [],
      enum_type: [],
      service: [],
      extension: [],
    };
    const info = sourceCodeInfo(walkSource(source, '')!, file, {
      descriptorRoot: createDescriptorCodec().root,
      symbols: createSymbolTable(),
    });
    expect(info?.location.map((l) => l.path)).toEqual([[], [12], [8], [8, 1]]);
  });
});
