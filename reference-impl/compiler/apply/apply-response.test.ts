// Applying plugin responses with protoc 3.21's semantics, end to end and in-process: canned
// plugins (sh scripts) in a sandbox, inputs from a hand-built descriptor set. Every expected
// text is protoc 3.21's unless the test says touchstone differs on purpose.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { encodeCodeInfo, encodeResponse, expect, DESCRIPTOR_SET_IN, test, withPlugins } from '../canned-plugin.fixture.js';
import { loadPluginMessages } from '../common/plugin-messages.js';

const IN = DESCRIPTOR_SET_IN;
const messages = loadPluginMessages();

test.describe.configure({ mode: 'parallel' });

test.describe('applying responses', () => {
  test('nameless chunks continue the open file, including an insertion', async ({ sandbox }) => {
    const box = withPlugins(
      sandbox,
      {
        name: 'base',
        response: {
          file: [{ name: 'big.txt', content: 'part1\n' }, { content: 'part2' }, { content: '-part3\n// @@protoc_insertion_point(p)\n' }],
        },
      },
      { name: 'ins', response: { file: [{ name: 'big.txt', insertion_point: 'p', content: 'A-chunk-a ' }, { content: 'A-chunk-b' }] } },
    );
    expect((await box.runOurs([IN, '--base_out=out', '--ins_out=out', 'foo.proto'])).code).toBe(0);
    expect(box.tree('out')).toEqual({ 'big.txt': 'part1\npart2-part3\nA-chunk-a A-chunk-b\n// @@protoc_insertion_point(p)\n' });
  });

  test('insertions: first marker, indentation on every line (empty ones too), inline /* */, order across plugins', async ({ sandbox }) => {
    const base =
      'header\n    # @@protoc_insertion_point(indented) trailing\n\t// @@protoc_insertion_point(tabbed)\nx = [/* @@protoc_insertion_point(inline) */];\n@@protoc_insertion_point(twice)\n@@protoc_insertion_point(twice)\n';
    const box = withPlugins(
      sandbox,
      { name: 'base', response: { file: [{ name: 'gen.txt', content: base }] } },
      {
        name: 'b',
        response: {
          file: [
            { name: 'gen.txt', insertion_point: 'indented', content: 'line1\nline2\n\nline4' },
            { name: 'gen.txt', insertion_point: 'tabbed', content: 'T\n' },
            { name: 'gen.txt', insertion_point: 'inline', content: '1, 2' },
            { name: 'gen.txt', insertion_point: 'twice', content: 'from B\n' },
          ],
        },
      },
      { name: 'a', response: { file: [{ name: 'gen.txt', insertion_point: 'twice', content: 'from A\n' }] } },
    );
    expect((await box.runOurs([IN, '--base_out=out', '--b_out=out/', '--a_out=out', 'foo.proto'])).code).toBe(0);
    expect(box.tree('out')['gen.txt']).toBe(
      'header\n    line1\n    line2\n    \n    line4\n    # @@protoc_insertion_point(indented) trailing\n\tT\n\t// @@protoc_insertion_point(tabbed)\n' +
        'x = [1, 2\n/* @@protoc_insertion_point(inline) */];\nfrom B\nfrom A\n@@protoc_insertion_point(twice)\n@@protoc_insertion_point(twice)\n',
    );
  });

  test('insertions reach only the same location string: out and ./out are separate', async ({ sandbox }) => {
    const box = withPlugins(
      sandbox,
      { name: 'base', response: { file: [{ name: 'gen.txt', content: '@@protoc_insertion_point(p)\n' }] } },
      { name: 'ins', response: { file: [{ name: 'gen.txt', insertion_point: 'p', content: 'x\n' }] } },
    );
    const result = await box.runOurs([IN, '--base_out=out', '--ins_out=./out', 'foo.proto']);
    expect(result).toEqual({ code: 1, stdout: '', stderr: "gen.txt: Tried to insert into file that doesn't exist.\n" });
    expect(box.tree('out')).toEqual({});
  });

  test('deferred errors: every one printed, generation goes on, nothing is written anywhere', async ({ sandbox }) => {
    const box = withPlugins(
      sandbox,
      { name: 'ok', response: { file: [{ name: 'ok.txt', content: 'ok\n' }] } },
      {
        name: 'bad',
        response: {
          file: [
            { name: 'self.txt', insertion_point: 'p', content: 'x' },
            { name: 'self.txt', content: 'body @@protoc_insertion_point(p)\n' },
            { name: 'self.txt', insertion_point: 'p', content: 'y' },
            { name: 'a.txt', content: 'a\n' },
            { name: 'a.txt', content: 'again\n' },
            { name: 'a.txt', insertion_point: 'nowhere', content: 'z' },
          ],
        },
      },
      { name: 'after', response: { file: [{ name: 'after.txt', content: 'ran\n' }] } },
    );
    const result = await box.runOurs([IN, '--ok_out=o2', '--bad_out=out', '--after_out=out', 'foo.proto']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "self.txt: Tried to insert into file that doesn't exist.\n" +
        'self.txt: Tried to write the same file twice.\n' +
        'self.txt: insertion point "p" not found.\n' +
        'a.txt: Tried to write the same file twice.\n' +
        'a.txt: insertion point "nowhere" not found.\n',
    );
    expect(box.request('after'), 'the plugin after a deferred error still ran').toBeDefined();
    expect(box.tree('out')).toEqual({});
    expect(box.tree('o2'), 'touchstone writes no location at all (protoc might write o2)').toEqual({});
  });

  test('error: fatal, verbatim, later plugins do not run, nothing written; checked after the files', async ({ sandbox }) => {
    const box = withPlugins(
      sandbox,
      { name: 'ok', response: { file: [{ name: 'ok.txt', content: 'ok\n' }] } },
      { name: 'err', response: { error: 'something is wrong in foo.proto', file: [{ name: 'e.txt', content: 'e' }] } },
      { name: 'errbadfile', response: { error: 'ignored', file: [{ content: 'nameless' }] } },
      { name: 'never', response: {} },
    );
    expect(await box.runOurs([IN, '--ok_out=o2', '--err_out=out', '--never_out=out', 'foo.proto'])).toEqual({
      code: 1,
      stdout: '',
      stderr: '--err_out: something is wrong in foo.proto\n',
    });
    expect(box.request('never')).toBeUndefined();
    expect({ ...box.tree('out'), ...box.tree('o2') }).toEqual({});
    expect((await box.runOurs([IN, '--errbadfile_out=out', 'foo.proto'])).stderr).toBe(
      '--errbadfile_out: protoc-gen-errbadfile: First file chunk returned by plugin did not specify a file name.\n',
    );
  });

  test('a first chunk without a name is fatal, absent or empty', async ({ sandbox }) => {
    const box = withPlugins(
      sandbox,
      { name: 'absent', response: { file: [{ content: 'no name\n' }, { name: 'ok.txt', content: 'ok' }] } },
      { name: 'empty', response: { file: [{ name: '', content: 'x' }] } },
    );
    for (const name of ['absent', 'empty']) {
      const result = await box.runOurs([IN, `--${name}_out=out`, 'foo.proto']);
      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr: `--${name}_out: protoc-gen-${name}: First file chunk returned by plugin did not specify a file name.\n`,
      });
    }
    expect(box.tree('out')).toEqual({});
  });

  test('proto3 optional in a file to generate without FEATURE_PROTO3_OPTIONAL: 3.21 text, no newline before --NAME_out', async ({
    sandbox,
  }) => {
    const box = withPlugins(
      sandbox,
      { name: 'nofeat', response: { file: [{ name: 'x.txt', content: 'x' }] } },
      { name: 'feat', response: { supported_features: 1, file: [{ name: 'x.txt', content: 'x' }] } },
      { name: 'nofeaterr', response: { error: 'plugin error text' } },
    );
    expect(await box.runOurs([IN, '--nofeat_out=out', 'foo.proto', 'opt.proto'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "opt.proto: is a proto3 file that contains optional fields, but code generator protoc-gen-nofeat hasn't been updated to support optional fields in proto3. " +
        'Please ask the owner of this code generator to support proto3 optional.--nofeat_out: \n',
    });
    expect(box.tree('out')).toEqual({});
    expect((await box.runOurs([IN, '--nofeat_out=out', 'usesopt.proto'])).code, 'optional only in an import is fine').toBe(0);
    expect((await box.runOurs([IN, '--feat_out=o2', 'opt.proto'])).code).toBe(0);
    expect((await box.runOurs([IN, '--nofeaterr_out=out', 'opt.proto'])).stderr, 'error short-circuits the check in 3.21').toBe(
      '--nofeaterr_out: plugin error text\n',
    );
  });

  test('content is bytes: invalid UTF-8 is written raw; unknown fields are ignored', async ({ sandbox }) => {
    const raw = Buffer.concat([
      Buffer.from(encodeResponse({ file: [{ name: 'raw.bin', content: Uint8Array.of(0xff, 0xfe, 0x00, 0x41) }] })),
      Buffer.from([0x98, 0x06, 0x01]),
    ]);
    const box = withPlugins(sandbox, { name: 'raw', response: raw });
    expect((await box.runOurs([IN, '--raw_out=out', 'foo.proto'])).code).toBe(0);
    expect([...readFileSync(path.join(box.dir, 'out', 'raw.bin'))]).toEqual([0xff, 0xfe, 0x00, 0x41]);
  });

  test('generated_code_info of an insertion is merged into <file>.pb.meta (created in wire format)', async ({ sandbox }) => {
    const box = withPlugins(
      sandbox,
      { name: 'base', response: { file: [{ name: 'gen.txt', content: 'AAA\n  // @@protoc_insertion_point(p)\nBBB\n' }] } },
      {
        name: 'ins',
        response: {
          file: [
            {
              name: 'gen.txt',
              insertion_point: 'p',
              content: 'x1\nx2\n',
              generated_code_info: encodeCodeInfo([
                { source_file: 'ins.proto', begin: 0, end: 5 },
                { source_file: 'ins.proto', begin: 3, end: 5 },
              ]),
            },
          ],
        },
      },
    );
    expect((await box.runOurs([IN, '--base_out=out', '--ins_out=out', 'foo.proto'])).code).toBe(0);
    expect(box.tree('out')['gen.txt']).toBe('AAA\n  x1\n  x2\n  // @@protoc_insertion_point(p)\nBBB\n');
    const meta = messages.fileDescriptorProto.root.lookupType('google.protobuf.GeneratedCodeInfo');
    const decoded = meta.toObject(meta.decode(readFileSync(path.join(box.dir, 'out', 'gen.txt.pb.meta'))));
    expect(decoded.annotation.map((a: { begin: number; end: number }) => [a.begin, a.end])).toEqual([
      [6, 13],
      [11, 13],
    ]);
  });
});

test.describe('names touchstone refuses (stricter than protoc 3.21)', () => {
  const refusals: [string, { name?: string; insertion_point?: string }, string][] = [
    [
      'absolute',
      { name: '/abs_target/abs.txt' },
      'File name "/abs_target/abs.txt" is absolute: names are relative to the output directory',
    ],
    ['dotdot', { name: '../escaped.txt' }, 'File name "../escaped.txt" has a ".." component'],
    ['innerdotdot', { name: 'a/../b.txt' }, 'File name "a/../b.txt" has a ".." component'],
    ['dot', { name: './dot.txt' }, 'File name "./dot.txt" has a "." component'],
    ['onlydot', { name: '.' }, 'File name "." has a "." component'],
    ['backslash', { name: 'a\\b.txt' }, 'File name "a\\\\b.txt" contains a backslash: "/" is the only separator'],
    [
      'noname',
      { insertion_point: 'p' },
      'File with insertion_point "p" has no name: an insertion needs the name of the file to insert into',
    ],
  ];
  for (const [plugin, file, problem] of refusals) {
    test(`${plugin}: ${file.name ?? '(no name)'}`, async ({ sandbox }) => {
      const box = withPlugins(
        sandbox,
        { name: 'ok', response: { file: [{ name: 'ok.txt', content: 'ok' }] } },
        {
          name: plugin,
          response: {
            file: [
              { name: 'first.txt', content: '1' },
              { ...file, content: 'x' },
            ],
          },
        },
      );
      const result = await box.runOurs([IN, '--ok_out=o2', `--${plugin}_out=out`, 'foo.proto']);
      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr: `--${plugin}_out: protoc-gen-${plugin}: ${problem} (touchstone refuses what the plugin protocol forbids; protoc 3.21 would not)\n`,
      });
      expect({ ...box.tree('out'), ...box.tree('o2') }).toEqual({});
      expect(existsSync(path.join(box.dir, 'escaped.txt'))).toBe(false);
    });
  }

  test('names the spec allows are kept: foo..bar.txt, nested/dirs, a//b', async ({ sandbox }) => {
    const box = withPlugins(sandbox, {
      name: 'fine',
      response: {
        file: [
          { name: 'foo..bar.txt', content: '1' },
          { name: 'n/e/s/t.txt', content: '2' },
          { name: 'a//b.txt', content: '3' },
        ],
      },
    });
    expect((await box.runOurs([IN, '--fine_out=out', 'foo.proto'])).code).toBe(0);
    expect(box.tree('out')).toEqual({
      'a/': '',
      'a/b.txt': '3',
      'foo..bar.txt': '1',
      'n/': '',
      'n/e/': '',
      'n/e/s/': '',
      'n/e/s/t.txt': '2',
    });
  });
});

// Built-in variations: other readings of what spec 3 leaves open, each off unless given
// (the tests above run without them and show the default).
test.describe('variations of applying a response', () => {
  test('compiler.names-written-as-given: names as protoc 3.21 writes them, `../x` beside the output directory', async ({ sandbox }) => {
    const box = withPlugins(sandbox, {
      name: 'bad',
      response: {
        file: [
          { name: 'ok.txt', content: 'ok\n' },
          { name: '../escaped.txt', content: 'out\n' },
          { name: '/abs/x.txt', content: 'abs\n' },
          { name: 'a/./b.txt', content: 'dot\n' },
        ],
      },
    });
    expect(await box.runOurs(['--variant=compiler.names-written-as-given', IN, '--bad_out=out', 'foo.proto'])).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect(box.tree('out')).toEqual({ 'a/': '', 'a/b.txt': 'dot\n', 'abs/': '', 'abs/x.txt': 'abs\n', 'ok.txt': 'ok\n' });
    expect(readFileSync(path.join(box.dir, 'escaped.txt'), 'utf8')).toBe('out\n');
  });

  test('compiler.unsafe-names-skipped: the File and its chunks skipped with a warning, the rest written, exit 0', async ({ sandbox }) => {
    const box = withPlugins(sandbox, {
      name: 'bad',
      response: {
        file: [
          { name: 'ok.txt', content: 'ok\n' },
          { name: '../escaped.txt', content: 'out' },
          { content: 'side\n' },
          { insertion_point: 'p', content: 'nameless insertion\n' },
          { name: 'after.txt', content: 'after\n' },
        ],
      },
    });
    const result = await box.runOurs(['--variant=compiler.unsafe-names-skipped', IN, '--bad_out=out', 'foo.proto']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('protoc-gen-bad: warning: File skipped: File name "../escaped.txt" has a ".." component');
    expect(result.stderr).toContain('protoc-gen-bad: warning: File skipped: File with insertion_point "p" has no name');
    expect(box.tree('out')).toEqual({ 'after.txt': 'after\n', 'ok.txt': 'ok\n' });
    expect(existsSync(path.join(box.dir, 'escaped.txt'))).toBe(false);
  });

  test('compiler.insertion-missing-skipped: an insertion into a missing file warns and is skipped, the run succeeds', async ({
    sandbox,
  }) => {
    const box = withPlugins(sandbox, {
      name: 'ins',
      response: {
        file: [
          { name: 'ok.txt', content: 'ok\n' },
          { name: 'missing.txt', insertion_point: 'p', content: 'x\n' },
        ],
      },
    });
    const args = [IN, '--ins_out=out', 'foo.proto'];
    expect(await box.runOurs(['--variant=compiler.insertion-missing-skipped', ...args])).toEqual({
      code: 0,
      stdout: '',
      stderr: "missing.txt: warning: Tried to insert into file that doesn't exist; the insertion is skipped.\n",
    });
    expect(box.tree('out')).toEqual({ 'ok.txt': 'ok\n' });
  });

  test('compiler.duplicate-last-wins: the second File of a name replaces the first', async ({ sandbox }) => {
    const box = withPlugins(sandbox, {
      name: 'dup',
      response: {
        file: [
          { name: 'same.txt', content: 'first\n' },
          { name: 'same.txt', content: 'second\n' },
        ],
      },
    });
    expect((await box.runOurs(['--variant=compiler.duplicate-last-wins', IN, '--dup_out=out', 'foo.proto'])).code).toBe(0);
    expect(box.tree('out')).toEqual({ 'same.txt': 'second\n' });
  });

  test('compiler.features-unchecked: output for proto3 optional fields is taken without FEATURE_PROTO3_OPTIONAL', async ({ sandbox }) => {
    const box = withPlugins(sandbox, { name: 'nofeat', response: { file: [{ name: 'x.txt', content: 'x' }] } });
    expect(await box.runOurs(['--variant=compiler.features-unchecked', IN, '--nofeat_out=out', 'opt.proto'])).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect(box.tree('out')).toEqual({ 'x.txt': 'x' });
  });

  test('compiler.partial-output-kept: a failed run writes what was staged, never a missing insertion target, and exits 1', async ({
    sandbox,
  }) => {
    const box = withPlugins(
      sandbox,
      { name: 'ok', response: { file: [{ name: 'ok.txt', content: 'ok\n' }] } },
      {
        name: 'ins',
        response: {
          file: [
            { name: 'missing.txt', insertion_point: 'p', content: 'x\n' },
            { name: 'mine.txt', content: 'm\n' },
          ],
        },
      },
      { name: 'err', response: { error: 'refused', file: [{ name: 'e.txt', content: 'e\n' }] } },
    );
    const kept = await box.runOurs([
      '--variant=compiler.partial-output-kept',
      IN,
      '--ok_out=o2',
      '--ins_out=out',
      '--err_out=out',
      'foo.proto',
    ]);
    expect(kept).toEqual({
      code: 1,
      stdout: '',
      stderr: "missing.txt: Tried to insert into file that doesn't exist.\n--err_out: refused\n",
    });
    expect(box.tree('o2')).toEqual({ 'ok.txt': 'ok\n' });
    expect(box.tree('out')).toEqual({ 'e.txt': 'e\n', 'mine.txt': 'm\n' });
  });

  test('the variation compiler.plugin-error-hidden: a response error is reported without its text', async ({ sandbox }) => {
    const box = withPlugins(sandbox, { name: 'err', response: { error: 'the real reason' } });
    expect((await box.runOurs(['--variant=compiler.plugin-error-hidden', IN, '--err_out=out', 'foo.proto'])).stderr).toBe(
      '--err_out: protoc-gen-err: generation failed\n',
    );
  });
});
