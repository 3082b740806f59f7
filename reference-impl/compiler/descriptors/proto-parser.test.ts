// The parser against protoc 3.21 itself: for every fixture, protoc's FileDescriptorSet and
// ours are decoded with the same descriptor.proto and compared file by file
// (source_code_info aside: source-code-info.test.ts compares it, bytes and all). Differences that remain are listed in
// KNOWN_DIFFERENCES with the reason; an entry that stops differing fails the test so the
// list stays true. Error texts are compared with protoc's stderr the same way, and the
// main ones are also pinned as literals so they are checked where protoc is absent.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { expect, test } from '@playwright/test';
import { createDescriptorCodec } from './descriptor-codec.js';
import { parseProtoFiles, ProtoParseError } from './proto-parser.js';
import { DEBIAN_PROTOC, skipWithoutDebianProtoc } from '../../../test-support/debian-protoc.js';

const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));
const PROTOC = DEBIAN_PROTOC;

function runProtoc(args: string[]): { status: number | null; stderr: string } {
  const result = spawnSync(PROTOC, args, { cwd: FIXTURES, encoding: 'utf8' });
  return { status: result.status, stderr: result.stderr };
}

/** protoc's error lines: warnings (unused imports, missing syntax) are not errors and have no counterpart here. */
function errorLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l !== '' && !l.includes('warning:') && !l.startsWith('[libprotobuf WARNING'));
}

const ENTRIES = [
  'proto3/everything.proto',
  'proto3/scoping.proto',
  'proto2/defaults.proto',
  'proto2/numbers.proto',
  'imports/api/service.proto',
  'options/use.proto',
  'proto3/well-known.proto',
];

interface KnownDifference {
  file: string;
  /** Dotted path into the decoded FileDescriptorProto; '' for everything but the name. */
  path: string;
  why: string;
}

const KNOWN_DIFFERENCES: KnownDifference[] = [
  {
    file: 'google/protobuf/descriptor.proto',
    path: '',
    why: "not on the import path, so it comes from protobufjs, whose copy is newer than protoc 3.21's (editions, features, option_dependency …); protoc reads its own copy",
  },
];

function at(object: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], object);
}

function withoutPath(object: Record<string, unknown>, path: string): Record<string, unknown> {
  const copy = structuredClone(object);
  const keys = path.split('.');
  const parent = at(copy, keys.slice(0, -1).join('.')) as Record<string, unknown> | undefined;
  if (parent) delete parent[keys[keys.length - 1]];
  return copy;
}

/** protoc's --include_imports descriptor set for `files`, decoded, source_code_info dropped. */
function protocDescriptors(files: string[]): Record<string, unknown>[] {
  const dir = mkdtempSync(join(tmpdir(), 'touchstone-proto-parser-'));
  try {
    const out = join(dir, 'set.pb');
    const result = runProtoc(['-I', FIXTURES, '--include_imports', `--descriptor_set_out=${out}`, ...files]);
    expect(errorLines(result.stderr), 'protoc accepts the fixture').toEqual([]);
    expect(result.status).toBe(0);
    return createDescriptorCodec()
      .decodeFileSet(readFileSync(out))
      .map((file) => {
        delete file.source_code_info;
        return file;
      });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test.describe('descriptors match protoc 3.21', () => {
  for (const entry of ENTRIES) {
    test(`${entry} and its imports`, () => {
      skipWithoutDebianProtoc(test);
      const theirs = protocDescriptors([entry]);
      const ours = parseProtoFiles([join(FIXTURES, entry)], [FIXTURES]);
      const codec = createDescriptorCodec();
      expect([...ours.keys()], "every file once, imports first, in protoc's order").toEqual(theirs.map((f) => f.name));
      for (const expected of theirs) {
        const name = expected.name as string;
        let mine = codec.decodeFile(ours.get(name)!.bytes);
        delete mine.source_code_info;
        let wanted = expected;
        for (const known of KNOWN_DIFFERENCES.filter((k) => k.file === name)) {
          const differs =
            known.path === '' ? !isDeepStrictEqual(wanted, mine) : !isDeepStrictEqual(at(wanted, known.path), at(mine, known.path));
          expect(differs, `known difference still there (else remove it from the list): ${name} ${known.path}: ${known.why}`).toBe(true);
          if (known.path === '') {
            wanted = { name: wanted.name, package: wanted.package };
            mine = { name: mine.name, package: mine.package };
          } else {
            wanted = withoutPath(wanted, known.path);
            mine = withoutPath(mine, known.path);
          }
        }
        expect(mine, `${name} decodes like protoc's`).toEqual(wanted);
      }
    });
  }

  test("all fixtures on one command line: one file each, in protoc's order", () => {
    skipWithoutDebianProtoc(test);
    const theirs = protocDescriptors(ENTRIES);
    const ours = parseProtoFiles(
      ENTRIES.map((e) => join(FIXTURES, e)),
      [FIXTURES],
    );
    expect([...ours.keys()]).toEqual(theirs.map((f) => f.name));
  });
});

const ERROR_FIXTURES = [
  'missing-import',
  'syntax-error',
  'unknown-type',
  'not-imported',
  'cycle-a',
  'enum-scope',
  'inner-scope',
  'proto3-default',
  'bad-option',
  'end-of-input',
  'bad-syntax',
  'extension-range',
  'duplicate-number',
  'not-a-message',
];

function ourError(files: string[], importPaths: string[] = [FIXTURES]): ProtoParseError {
  try {
    parseProtoFiles(files, importPaths);
  } catch (e) {
    if (e instanceof ProtoParseError) return e;
    throw e;
  }
  throw new Error(`expected a ProtoParseError for ${files.join(' ')}`);
}

test.describe('error messages match protoc 3.21', () => {
  for (const name of ERROR_FIXTURES) {
    test(`errors/${name}.proto`, () => {
      skipWithoutDebianProtoc(test);
      const file = `errors/${name}.proto`;
      const protoc = runProtoc(['-I', '.', '-o', '/dev/null', file]);
      expect(protoc.status).toBe(1);
      // Named relative to the -I given, like protoc: the same -I '.' from the fixtures folder.
      const previous = process.cwd();
      process.chdir(FIXTURES);
      try {
        expect(ourError([file], ['.']).lines).toEqual(errorLines(protoc.stderr));
      } finally {
        process.chdir(previous);
      }
    });
  }

  test('command-line files outside every -I, missing, or shadowed', () => {
    skipWithoutDebianProtoc(test);
    const cases: [string[], string][] = [
      [['-I', 'proto2', 'proto3/everything.proto'], 'proto3/everything.proto'],
      [['-I', '.', 'nowhere.proto'], 'nowhere.proto'],
      [['-I', 'imports', '-I', '.', 'imports/unpackaged.proto'], 'imports/unpackaged.proto'],
    ];
    const previous = process.cwd();
    process.chdir(FIXTURES);
    try {
      for (const [args, file] of cases) {
        const importPaths = args.filter((_, i) => args[i - 1] === '-I');
        const protoc = runProtoc([...args, '-o', '/dev/null']);
        let ours: string[] = [];
        try {
          parseProtoFiles([file], importPaths);
        } catch (e) {
          ours = e instanceof ProtoParseError ? [...e.lines] : [String(e)];
        }
        expect(ours, args.join(' ')).toEqual(errorLines(protoc.stderr));
      }
    } finally {
      process.chdir(previous);
    }
  });
});

test.describe('errors without protoc', () => {
  test('a missing import names the file and the importing statement', () => {
    expect(ourError([join(FIXTURES, 'errors/missing-import.proto')]).lines).toEqual([
      'errors/does-not-exist.proto: File not found.',
      'errors/missing-import.proto:4:1: Import "errors/does-not-exist.proto" was not found or had errors.',
    ]);
  });

  test('a syntax error is located like protoc does', () => {
    expect(ourError([join(FIXTURES, 'errors/syntax-error.proto')]).message).toBe('errors/syntax-error.proto:6:3: Expected ";".');
  });

  test('an unknown type is reported at the type name', () => {
    const error = ourError([join(FIXTURES, 'errors/unknown-type.proto')]);
    expect(error.message).toBe('errors/unknown-type.proto:7:3: "Missing" is not defined.');
    expect(error.code).toBe('PROTO_PARSE');
    expect(error.name).toBe('ProtoParseError');
  });

  test('a type from a file that is not imported', () => {
    expect(ourError([join(FIXTURES, 'errors/not-imported.proto')]).message).toBe(
      'errors/not-imported.proto:7:3: "errors.helper.Helper" seems to be defined in "errors/helper.proto", which is not imported by "errors/not-imported.proto".  To use it here, please add the necessary import.',
    );
  });

  test('a command-line file that does not exist, and one outside the import paths', () => {
    expect(ourError([join(FIXTURES, 'nowhere.proto')]).message).toBe(
      `Could not make proto path relative: ${join(FIXTURES, 'nowhere.proto')}: No such file or directory`,
    );
    expect(ourError([join(FIXTURES, 'proto2/defaults.proto')], [join(FIXTURES, 'imports')]).message).toMatch(
      /proto2\/defaults\.proto: File does not reside within any path specified using --proto_path \(or -I\)\./,
    );
  });

  test('an import cycle', () => {
    expect(ourError([join(FIXTURES, 'errors/cycle-a.proto')]).lines).toEqual([
      'errors/cycle-a.proto:4:1: File recursively imports itself: errors/cycle-a.proto -> errors/cycle-b.proto -> errors/cycle-a.proto',
      'errors/cycle-b.proto:4:1: Import "errors/cycle-a.proto" was not found or had errors.',
      'errors/cycle-a.proto:4:1: Import "errors/cycle-b.proto" was not found or had errors.',
    ]);
  });
});

test.describe('files and names', () => {
  test('names are relative to the import path; dependencies in declaration order; proto3Optional per file', () => {
    const files = parseProtoFiles([join(FIXTURES, 'imports/api/service.proto'), join(FIXTURES, 'proto3/everything.proto')], [FIXTURES]);
    const reexport = files.get('imports/common/reexport.proto')!;
    expect(reexport.dependency).toEqual(['imports/common/weak.proto', 'imports/common/types.proto', 'imports/unpackaged.proto']);
    expect(files.get('proto3/everything.proto')!.proto3Optional).toBe(true);
    expect(files.get('imports/api/service.proto')!.proto3Optional).toBe(false);
    expect(files.get('google/protobuf/timestamp.proto')!.proto3Optional).toBe(false);
    const decoded = createDescriptorCodec().decodeFile(reexport.bytes);
    expect(decoded).toMatchObject({ public_dependency: [1], weak_dependency: [0], syntax: 'proto3' });
  });

  test('without import paths, the current directory is the one path (protoc 3.21 does the same)', () => {
    const previous = process.cwd();
    process.chdir(FIXTURES);
    try {
      expect([...parseProtoFiles(['./proto2/defaults.proto'], []).keys()]).toEqual(['proto2/defaults.proto']);
    } finally {
      process.chdir(previous);
    }
  });

  test('a file may be named by its virtual name, as protoc allows', () => {
    expect([...parseProtoFiles(['imports/common/types.proto'], [FIXTURES]).keys()]).toEqual(['imports/common/types.proto']);
  });

  test("well-known imports come from protobufjs, with protoc's file options restored", () => {
    const files = parseProtoFiles([join(FIXTURES, 'proto3/everything.proto')], [FIXTURES]);
    const timestamp = createDescriptorCodec().decodeFile(files.get('google/protobuf/timestamp.proto')!.bytes);
    expect(timestamp).toMatchObject({
      package: 'google.protobuf',
      syntax: 'proto3',
      options: { go_package: 'google.golang.org/protobuf/types/known/timestamppb' },
    });
  });
});
