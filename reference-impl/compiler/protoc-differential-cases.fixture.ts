// The corpus of the differential tests against protoc 3.21 (protoc-differential.test.ts):
// canned plugin responses and flags, each run through both compilers. Kept as data, one
// case per behaviour of protoc's plugin handling, so adding a case is adding an entry.
import { readFileSync } from 'node:fs';
import { encodeCodeInfo, encodeResponse, nestedUnknown, type CannedPlugin, type RunResult, type Sandbox } from './canned-plugin.fixture.js';

export interface DiffCase {
  /** protoc's exit status: a guard that the case exercises what its title says. */
  code: 0 | 1;
  plugins: CannedPlugin[];
  args: string[];
  /** Instead of --descriptor_set_in=set.pb. */
  input?: string[];
  setup?: (box: Sandbox) => void;
  /** Where touchstone deliberately differs: what it does instead, and why. */
  differs?: { reason: string; ours: RunResult; oursTree?: Record<string, string> };
  /** Compare the requests the plugins saved, byte for byte. */
  compareRequests?: string[];
  /** Compare file_to_generate, parameter and proto_file names of the saved requests. */
  compareRequestNames?: string[];
}

export const file = (name: string, content: string, extra: object = {}) => ({ name, content, ...extra });
export const insert = (name: string, point: string, content: string) => ({ name, insertion_point: point, content });
export const GEN =
  'header\nA1\nA2 (no trailing newline)\n// @@protoc_insertion_point(top_level)\n    line0\n    # @@protoc_insertion_point(indented) trailing text\n' +
  '\t// @@protoc_insertion_point(tabbed)\nx = [/* @@protoc_insertion_point(inline) */];\ny = [/*@@protoc_insertion_point(nospace) */];\n' +
  '@@protoc_insertion_point(twice)\n@@protoc_insertion_point(twice)\nfooter\n';

export const DIFF_CASES: Record<string, DiffCase> = {
  'request bytes: order, parameter merging, compiler_version, json_name, source info': {
    code: 0,
    plugins: [{ name: 'dump', response: { supported_features: 1 } }, { name: 'plain' }],
    args: [
      '--dump_opt=o1',
      '--dump_out=p1,p2:out',
      '--dump_opt=o2=v',
      '--plain_out=out',
      'usesopt.proto',
      'foo.proto',
      'dep.proto',
      'foo.proto',
    ],
    compareRequests: ['dump', 'plain'],
  },
  'chunks continue the previous file': {
    code: 0,
    plugins: [
      {
        name: 'chunks',
        response: { file: [file('big.txt', 'part1\n'), { content: 'part2' }, { content: '-part3\n' }, file('empty.txt', '')] },
      },
    ],
    args: ['--chunks_out=out', 'foo.proto'],
  },
  'insertions: indentation, inline, first line, order within a response and across plugins, continuation': {
    code: 0,
    plugins: [
      { name: 'base', response: { file: [file('gen.txt', GEN), file('first.txt', '@@protoc_insertion_point(first)\nrest\n')] } },
      {
        name: 'insb',
        response: {
          file: [
            insert('gen.txt', 'top_level', 'A3-chunk-a '),
            { content: 'A3-chunk-b' },
            insert('gen.txt', 'indented', 'line1\nline2\n\nline4\n'),
            insert('gen.txt', 'tabbed', 'T'),
            insert('gen.txt', 'inline', '1, 2'),
            insert('gen.txt', 'nospace', '3'),
            insert('gen.txt', 'twice', 'from B\n'),
            insert('first.txt', 'first', 'F'),
            insert('gen.txt', 'top_level', ''),
          ],
        },
      },
      { name: 'insa', response: { file: [insert('gen.txt', 'twice', 'from A\n'), insert('gen.txt', 'indented', 'after\n')] } },
    ],
    args: ['--base_out=out', '--insb_out=out/', '--insa_out=out', 'foo.proto'],
  },
  'a plugin inserts into its own file': {
    code: 0,
    plugins: [
      { name: 'self', response: { file: [file('self.txt', 'a\n// @@protoc_insertion_point(p)\n'), insert('self.txt', 'p', 'inserted')] } },
    ],
    args: ['--self_out=out', 'foo.proto'],
  },
  'insertion point not found': {
    code: 1,
    plugins: [
      { name: 'base', response: { file: [file('gen.txt', GEN)] } },
      { name: 'notfound', response: { file: [insert('gen.txt', 'no_such_point', 'x')] } },
    ],
    args: ['--base_out=out', '--notfound_out=out', 'foo.proto'],
  },
  'insertion into a missing file, then into it again, then creating it': {
    code: 1,
    plugins: [
      {
        name: 'missing',
        response: {
          file: [
            file('ok.txt', 'ok'),
            insert('nope.txt', 'p', 'x'),
            insert('nope.txt', 'p', 'y'),
            file('nope.txt', '@@protoc_insertion_point(p)\n'),
          ],
        },
      },
    ],
    args: ['--missing_out=out', 'foo.proto'],
  },
  'insertion into another output directory, and out versus ./out': {
    code: 1,
    plugins: [
      { name: 'base', response: { file: [file('gen.txt', GEN)] } },
      { name: 'ins', response: { file: [insert('gen.txt', 'twice', 'x')] } },
    ],
    args: ['--base_out=out', '--ins_out=./out', 'foo.proto'],
  },
  'the same file twice, in one response and across plugins': {
    code: 1,
    plugins: [
      { name: 'dup', response: { file: [file('same.txt', 'first'), file('ok.txt', 'ok'), file('same.txt', 'second')] } },
      { name: 'dup2', response: { file: [file('ok.txt', 'again')] } },
    ],
    args: ['--dup_out=out', '--dup2_out=out', 'foo.proto'],
  },
  'the same file from two plugins into different directories: both written': {
    code: 0,
    plugins: [
      { name: 'one', response: { file: [file('same.txt', 'one')] } },
      { name: 'two', response: { file: [file('same.txt', 'two')] } },
    ],
    args: ['--one_out=out', '--two_out=o2', 'foo.proto'],
  },
  'a deferred error in one location, a clean one elsewhere': {
    code: 1,
    plugins: [
      { name: 'basic', response: { file: [file('hello.txt', 'hi')] } },
      { name: 'insmissing', response: { file: [insert('nope.txt', 'p', 'x')] } },
    ],
    args: ['--insmissing_out=out', '--basic_out=o2', 'foo.proto'],
    differs: {
      reason: 'protoc writes locations in hash order and may write o2; touchstone writes nothing once any location has an error',
      ours: { code: 1, stdout: '', stderr: "nope.txt: Tried to insert into file that doesn't exist.\n" },
      oursTree: { 'o2/': '', 'out/': '' },
    },
  },
  'error: fatal, verbatim, nothing written anywhere, later plugins never run': {
    code: 1,
    plugins: [
      { name: 'basic', response: { file: [file('hello.txt', 'hi')] } },
      { name: 'err', response: { error: 'something is wrong in foo.proto', file: [file('e.txt', 'e')] } },
      { name: 'never', response: { file: [file('never.txt', 'n')] } },
    ],
    args: ['--basic_out=o2', '--err_out=out', '--never_out=out', 'foo.proto'],
  },
  'error together with a nameless first chunk': {
    code: 1,
    plugins: [{ name: 'errbadfile', response: { error: 'the error', file: [{ content: 'nameless' }] } }],
    args: ['--errbadfile_out=out', 'foo.proto'],
  },
  'first chunk without a name, absent': {
    code: 1,
    plugins: [{ name: 'emptyfirst', response: { file: [{ content: 'no name\n' }, file('ok.txt', 'ok')] } }],
    args: ['--emptyfirst_out=out', 'foo.proto'],
  },
  'first chunk without a name, empty string': {
    code: 1,
    plugins: [{ name: 'emptystr', response: { file: [file('', 'x')] } }],
    args: ['--emptystr_out=out', 'foo.proto'],
  },
  'a non-zero exit wins over a valid response, stderr passes through': {
    code: 1,
    plugins: [{ name: 'exit3', response: { file: [file('ok.txt', 'ok')] }, exitCode: 3, stderr: 'plugin stderr line\n' }],
    args: ['--exit3_out=out', 'foo.proto'],
  },
  'killed by SIGSEGV': { code: 1, plugins: [{ name: 'killed', signal: 'SEGV' }], args: ['--killed_out=out', 'foo.proto'] },
  'killed by SIGTERM': { code: 1, plugins: [{ name: 'termed', signal: 'TERM' }], args: ['--termed_out=out', 'foo.proto'] },
  'garbage on stdout': {
    code: 1,
    plugins: [{ name: 'garbage', response: Buffer.from('this is not a protobuf\n') }],
    args: ['--garbage_out=out', 'foo.proto'],
  },
  'truncated response, C-escaped (octal, quotes, backslash, high bytes)': {
    code: 1,
    plugins: [
      {
        name: 'truncated',
        response: Buffer.from(encodeResponse({ error: 'q"\'\\\r\t\u00e9', file: [file('hello.txt', 'hell\u00ff')] })).subarray(0, -2),
      },
    ],
    args: ['--truncated_out=out', 'foo.proto'],
  },
  'tag 0 and a wrongly typed known field': {
    code: 1,
    plugins: [
      { name: 'tagzero', response: Buffer.from([0x00, 0x01]) },
      {
        name: 'wrongtype',
        response: Buffer.concat([Buffer.from([0x08, 0x05]), Buffer.from(encodeResponse({ file: [file('ok.txt', 'ok')] }))]),
      },
    ],
    args: ['--wrongtype_out=out', '--tagzero_out=o2', 'foo.proto'],
  },
  'empty stdout is an empty response; a plugin may ignore stdin': {
    code: 0,
    plugins: [{ name: 'empty' }, { name: 'deaf', ignoreStdin: true, response: { file: [file('deaf.txt', 'd')] } }],
    args: ['--empty_out=out', '--deaf_out=out', 'foo.proto'],
  },
  'invalid UTF-8 content and unknown fields': {
    code: 0,
    plugins: [
      {
        name: 'rawbytes',
        response: Buffer.concat([
          Buffer.from(encodeResponse({ file: [{ name: 'raw.bin', content: Uint8Array.of(0xff, 0xfe, 0, 0x41) }] })),
          Buffer.from([0x98, 0x06, 0x01]),
        ]),
      },
    ],
    args: ['--rawbytes_out=out', 'foo.proto'],
  },
  'proto3 optional without the feature': {
    code: 1,
    plugins: [{ name: 'nofeat', response: { file: [file('x.txt', 'x')] } }],
    args: ['--nofeat_out=out', 'foo.proto', 'opt.proto', 'usesopt.proto'],
  },
  'proto3 optional only in an import': {
    code: 0,
    plugins: [{ name: 'nofeat', response: { file: [file('x.txt', 'x')] } }],
    args: ['--nofeat_out=out', 'usesopt.proto'],
  },
  'proto3 optional with the feature': {
    code: 0,
    plugins: [{ name: 'feat', response: { supported_features: 1, file: [file('x.txt', 'x')] } }],
    args: ['--feat_out=out', 'opt.proto'],
  },
  'proto3 optional, error set too: only the error (3.21)': {
    code: 1,
    plugins: [{ name: 'nofeaterr', response: { error: 'plugin error text' } }],
    args: ['--nofeaterr_out=out', 'opt.proto'],
  },
  'proto3 optional, and a deferred error from the last stream': {
    code: 1,
    plugins: [{ name: 'nofeatdup', response: { file: [file('a.txt', 'a'), file('a.txt', 'b')] } }],
    args: ['--nofeatdup_out=out', 'opt.proto'],
  },
  'plugin not found, registered and in PATH': {
    code: 1,
    plugins: [],
    args: ['--plugin=protoc-gen-badplug=no_such_file', '--badplug_out=out', 'foo.proto'],
  },
  'plugin not found in PATH': { code: 1, plugins: [], args: ['--no_such_plugin_out=out', 'foo.proto'] },
  'orphan _opt flags, all reported': {
    code: 1,
    plugins: [],
    args: ['--zzz_opt=a', '--aaa_opt=b', '--mmm_opt=c', '--mmm_out=out', 'foo.proto'],
  },
  'missing output directives': { code: 1, plugins: [], args: ['foo.proto'] },
  'missing input file': { code: 1, plugins: [], args: ['--x_out=out'] },
  'missing flag value': { code: 1, plugins: [], args: ['foo.proto', '--x_out'] },
  'input not in the descriptor set': { code: 1, plugins: [], args: ['--x_out=out', 'nope.proto'] },
  'output directory missing, even for an empty response': {
    code: 1,
    plugins: [{ name: 'empty' }],
    args: ['--empty_out=nodir', 'foo.proto'],
  },
  'output directory is a file': {
    code: 1,
    plugins: [{ name: 'empty' }],
    args: ['--empty_out=afile', 'foo.proto'],
    setup: (box) => box.write('afile', ''),
  },
  'write errors: a name ending in /, in sorted order': {
    code: 1,
    plugins: [{ name: 'w', response: { file: [file('zz.txt', 'zz'), file('z/', 'z'), file('a.txt', 'a')] } }],
    args: ['--w_out=out', 'foo.proto'],
  },
  'write errors: a file where a directory is needed': {
    code: 1,
    plugins: [{ name: 'w', response: { file: [file('a/b.txt', 'b'), file('a', 'a')] } }],
    args: ['--w_out=out', 'foo.proto'],
  },
  'an empty location writes relative to the cwd': {
    code: 1,
    plugins: [{ name: 'here', response: { file: [file('here/x.txt', 'x')] } }],
    args: ['--here_out=', 'foo.proto'],
  },
  'archives: zip and jar': {
    code: 0,
    plugins: [{ name: 'z', response: { file: [file('b/two.txt', 'two'), file('a.txt', 'one')] } }],
    args: ['--z_out=out/x.zip', '--z_out=param:out/y.jar', '--z_out=out/z.srcjar', 'foo.proto'],
  },
  '.pb.meta: text metadata merged and kept as text': {
    code: 0,
    plugins: [
      {
        name: 'base',
        response: {
          file: [
            file('gen.txt', 'AAA\n  // @@protoc_insertion_point(p)\nBBB\n'),
            file(
              'gen.txt.pb.meta',
              'annotation {\n  path: 4\n  path: 0\n  source_file: "a.proto"\n  begin: 0\n  end: 3\n}\nannotation { path: [4, 1] source_file: "a.proto" begin: 37 end: 40 }\n',
            ),
          ],
        },
      },
      {
        name: 'ins',
        response: {
          file: [
            {
              ...insert('gen.txt', 'p', 'x1\nx2\n'),
              generated_code_info: encodeCodeInfo([
                { path: [4, 7], source_file: 'ins.proto', begin: 0, end: 5 },
                { source_file: 'ins.proto', begin: 3, end: 5 },
              ]),
            },
          ],
        },
      },
    ],
    args: ['--base_out=out', '--ins_out=out', 'foo.proto'],
  },
  '.pb.meta: unknown fields printed as messages 10 levels deep, deeper as a string': {
    code: 0,
    plugins: [
      {
        name: 'base',
        response: { file: [file('t.txt', '@@protoc_insertion_point(p)\n'), file('t.txt.pb.meta', 'annotation { begin: 0 end: 1 }\n')] },
      },
      {
        name: 'ins',
        response: {
          file: [
            { ...insert('t.txt', 'p', 'ab\n'), generated_code_info: encodeCodeInfo([{ begin: 0, end: 1, unknown9: nestedUnknown(10) }]) },
          ],
        },
      },
    ],
    args: ['--base_out=out', '--ins_out=out', 'foo.proto'],
  },
  '.pb.meta: annotated insertions lacking their final newline, under an indent': {
    code: 0,
    plugins: [
      {
        name: 'base',
        response: {
          file: [
            file('gen.txt', 'AAA\n  // @@protoc_insertion_point(p)\nBBB\n'),
            {
              name: 'gen.txt.pb.meta',
              content: encodeCodeInfo([
                { begin: 0, end: 3 },
                { begin: 37, end: 40 },
              ]),
            },
          ],
        },
      },
      {
        name: 'ins',
        response: {
          file: [
            {
              ...insert('gen.txt', 'p', 'x1\nx2'),
              generated_code_info: encodeCodeInfo([
                { begin: 0, end: 5 },
                { begin: 3, end: 5 },
                { begin: 4, end: 5 },
              ]),
            },
            { ...insert('gen.txt', 'p', 'y'), generated_code_info: encodeCodeInfo([{ begin: 0, end: 1 }]) },
          ],
        },
      },
    ],
    args: ['--base_out=out', '--ins_out=out', 'foo.proto'],
  },
  '.pb.meta: wire metadata shifted by an insertion without annotations': {
    code: 0,
    plugins: [
      {
        name: 'base',
        response: {
          file: [
            file('gen.txt', 'AAA\n\t@@protoc_insertion_point(p)\nBBB\n'),
            {
              name: 'gen.txt.pb.meta',
              content: encodeCodeInfo([
                { begin: 0, end: 3 },
                { source_file: 'b', begin: 32, end: 35 },
              ]),
            },
          ],
        },
      },
      { name: 'ins', response: { file: [insert('gen.txt', 'p', 'one\ntwo')] } },
    ],
    args: ['--base_out=out', '--ins_out=out', 'foo.proto'],
  },
  '.pb.meta: created in wire format; unreadable metadata is left alone': {
    code: 0,
    plugins: [
      {
        name: 'base',
        response: {
          file: [
            file('gen.txt', '@@protoc_insertion_point(p)\n'),
            file('bad.txt', '@@protoc_insertion_point(p)\n'),
            file('bad.txt.pb.meta', 'not { metadata'),
          ],
        },
      },
      {
        name: 'ins',
        response: {
          file: [
            { ...insert('gen.txt', 'p', 'abc\n'), generated_code_info: encodeCodeInfo([{ path: [1], begin: 1, end: 2 }]) },
            { ...insert('bad.txt', 'p', 'x\n'), generated_code_info: encodeCodeInfo([{ begin: 0, end: 1 }]) },
          ],
        },
      },
    ],
    args: ['--base_out=out', '--ins_out=out', 'foo.proto'],
  },
  '.pb.meta: unknown annotation fields (semantic is unknown to 3.21) kept in wire and printed in text': {
    code: 0,
    plugins: [
      {
        name: 'base',
        response: {
          file: [
            file('t.txt', '@@protoc_insertion_point(p)\n'),
            file('t.txt.pb.meta', 'annotation { path: 1 source_file: "caf\\303\\251.proto" begin: 0 end: 1 }\n'),
            file('w.txt', '@@protoc_insertion_point(p)\n'),
            {
              name: 'w.txt.pb.meta',
              content: Buffer.concat([
                encodeCodeInfo([{ begin: 0, end: 1, semantic: 1 }]),
                Buffer.from([0x0a, 0x07, 0x1d, 1, 2, 3, 4, 0x32, 0x00]),
              ]),
            },
          ],
        },
      },
      {
        name: 'ins',
        response: {
          file: [
            {
              ...insert('t.txt', 'p', 'ab\n'),
              generated_code_info: encodeCodeInfo([{ source_file: 'caf\u00e9.proto', begin: 0, end: 2, semantic: 2 }]),
            },
            { ...insert('w.txt', 'p', 'ab\n'), generated_code_info: encodeCodeInfo([{ begin: 1, end: 2, semantic: 1 }]) },
          ],
        },
      },
    ],
    args: ['--base_out=out', '--ins_out=out', 'foo.proto'],
  },
  '.pb.meta: text with a field 3.21 does not know is unreadable': {
    code: 0,
    plugins: [
      {
        name: 'base',
        response: {
          file: [
            file('gen.txt', '@@protoc_insertion_point(p)\n'),
            file('gen.txt.pb.meta', 'annotation { begin: 0 end: 1 semantic: SET }\n'),
          ],
        },
      },
      { name: 'ins', response: { file: [insert('gen.txt', 'p', 'x\n')] } },
    ],
    args: ['--base_out=out', '--ins_out=out', 'foo.proto'],
  },
  'generated_code_info on a plain file is ignored': {
    code: 0,
    plugins: [
      { name: 'gci', response: { file: [{ ...file('plain.txt', 'p'), generated_code_info: encodeCodeInfo([{ begin: 0, end: 1 }]) }] } },
    ],
    args: ['--gci_out=out', 'foo.proto'],
  },
  'a plugin file without #! given by path is not executable (protoc runs it with execv)': {
    code: 1,
    plugins: [{ name: 'bare', shebang: false, response: { file: [file('a.txt', 'x')] } }],
    args: ['--plugin=protoc-gen-bare=bin/protoc-gen-bare', '--bare_out=out', 'foo.proto'],
  },
  'a plugin file without #! found in PATH runs (protoc searches PATH with execvp, which falls back to sh)': {
    code: 0,
    plugins: [{ name: 'bare', shebang: false, response: { file: [file('a.txt', 'x')] } }],
    args: ['--bare_out=out', 'foo.proto'],
  },
  'descriptor set file missing': { code: 1, plugins: [], input: ['--descriptor_set_in=nofile'], args: ['--x_out=out', 'foo.proto'] },
  'descriptor set file unparseable': {
    code: 1,
    plugins: [],
    input: ['--descriptor_set_in=bad.pb'],
    args: ['--x_out=out', 'foo.proto'],
    setup: (box) => box.write('bad.pb', 'garbage\n'),
  },
  'descriptor sets: first occurrence wins, empty list entries skipped': {
    code: 0,
    plugins: [{ name: 'dump', response: { supported_features: 1 } }],
    input: ['--descriptor_set_in=:set.pb::set.pb:'],
    args: ['--dump_out=out', 'foo.proto'],
    compareRequests: ['dump'],
  },
  'descriptor sets of separators only are as if not given (twice is fine, -I . is added)': {
    code: 0,
    plugins: [{ name: 'dump', response: { supported_features: 1 } }],
    input: ['--descriptor_set_in=:', '--descriptor_set_in=::'],
    args: ['--dump_out=out', 'solo.proto'],
    setup: (box) => box.write('solo.proto', 'syntax = "proto3";\nmessage Solo { int32 n = 1; }\n'),
    compareRequests: ['dump'],
  },
  'request bytes from .proto files: descriptors and source info as protoc parses them': {
    code: 0,
    plugins: [{ name: 'dump', response: { supported_features: 1 } }],
    input: ['-Iprotos'],
    // No well-known imports: the parser's copies of those are protobufjs's, not the files protoc reads.
    args: [
      '--dump_out=out',
      'source-info/comments.proto',
      'usesopt.proto',
      'foo.proto',
      'source-info/proto2.proto',
      'source-info/tabs.proto',
    ],
    setup: (box) => {
      for (const name of ['comments.proto', 'imported.proto', 'proto2.proto', 'tabs.proto']) {
        box.write(`protos/source-info/${name}`, readFileSync(new URL(`./descriptors/fixtures/source-info/${name}`, import.meta.url)));
      }
    },
    compareRequests: ['dump'],
  },
};
