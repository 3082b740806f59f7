// touchstone protoc end to end, in-process: the request, plugin processes and the write
// phase, with canned plugins (sh scripts) in a sandbox and inputs from a hand-built
// descriptor set (no protoc, no parser). Texts are protoc 3.21's unless a test says otherwise.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodeResponse, expect, DESCRIPTOR_SET_IN, test, withPlugins } from './canned-plugin.fixture.js';
import { loadPluginMessages } from './common/plugin-messages.js';
import { parseWireFields } from './common/wire-reader.js';

const IN = DESCRIPTOR_SET_IN;
const messages = loadPluginMessages();

function decodeRequest(bytes: Uint8Array | undefined): Record<string, any> {
  expect(bytes, 'the plugin saved its request').toBeDefined();
  return messages.request.toObject(messages.request.decode(bytes!), { longs: Number });
}

test.describe.configure({ mode: 'parallel' });

test.describe('the request', () => {
  test('file_to_generate in command-line order, proto_file in depth-first post-order, each once', async ({ sandbox }) => {
    const box = withPlugins(sandbox, { name: 'dump' });
    const result = await box.runOurs([IN, '--dump_out=out', 'usesopt.proto', 'foo.proto', 'dep.proto', 'foo.proto']);
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    const request = decodeRequest(box.request('dump'));
    expect(request.file_to_generate).toEqual(['usesopt.proto', 'foo.proto', 'dep.proto', 'foo.proto']);
    expect(request.proto_file.map((f: { name: string }) => f.name)).toEqual(['opt.proto', 'usesopt.proto', 'dep.proto', 'foo.proto']);
  });

  test('compiler.file-to-generate-sorted (a variation) sorts the names; compiler.imports-generated (a fault) adds the imports', async ({
    sandbox,
  }) => {
    const box = withPlugins(sandbox, { name: 'dump' });
    const args = [IN, '--dump_out=out', 'usesopt.proto', 'foo.proto'];
    expect((await box.runOurs(['--variant=compiler.file-to-generate-sorted', ...args])).code).toBe(0);
    const sorted = decodeRequest(box.request('dump'));
    expect(sorted.file_to_generate).toEqual(['foo.proto', 'usesopt.proto']);
    expect(sorted.proto_file.map((f: { name: string }) => f.name)).toEqual(['dep.proto', 'foo.proto', 'opt.proto', 'usesopt.proto']);
    expect((await box.runOurs(['--fault=compiler.imports-generated', ...args])).code).toBe(0);
    expect(decodeRequest(box.request('dump')).file_to_generate).toEqual(['opt.proto', 'usesopt.proto', 'dep.proto', 'foo.proto']);
  });

  test('parameter merges _out params and every _opt (comma only between non-empty parts), absent when empty', async ({ sandbox }) => {
    const box = withPlugins(sandbox, { name: 'a' }, { name: 'b' });
    writeFileSync(path.join(box.dir, 'bin', 'protoc-gen-a2'), readFileSync(path.join(box.bin, 'protoc-gen-a')));
    expect((await box.runOurs([IN, '--a_opt=o1', '--a_out=p1,p2:out', '--a_opt=o2=v', '--b_out=out', 'foo.proto'])).code).toBe(0);
    expect(decodeRequest(box.request('a')).parameter).toBe('p1,p2,o1,o2=v');
    expect(decodeRequest(box.request('b'))).not.toHaveProperty('parameter');
    expect((await box.runOurs([IN, '--a_out=:out', '--a_opt=only', '--b_out=x:out', 'foo.proto'])).code).toBe(0);
    expect(decodeRequest(box.request('a')).parameter).toBe('only');
    expect(decodeRequest(box.request('b')).parameter).toBe('x');
    expect((await box.runOurs([IN, '--a_out=:out', '--a_opt=', 'foo.proto'])).code).toBe(0);
    expect(decodeRequest(box.request('a'))).not.toHaveProperty('parameter');
  });

  test('compiler_version is touchstone 0.1.0 with suffix "touchstone" unless --compiler_version says otherwise', async ({ sandbox }) => {
    const box = withPlugins(sandbox, { name: 'dump' });
    await box.runOurs([IN, '--dump_out=out', 'foo.proto']);
    const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
      .version.split('.')
      .map(Number);
    expect(decodeRequest(box.request('dump')).compiler_version).toEqual({
      major: version[0],
      minor: version[1],
      patch: version[2],
      suffix: 'touchstone',
    });
    await box.runOurs([IN, '--dump_out=out', '--compiler_version=3.21.12', 'foo.proto']);
    expect(decodeRequest(box.request('dump')).compiler_version).toEqual({ major: 3, minor: 21, patch: 12, suffix: '' });
  });

  test('fields go on the wire in the order 1, 2, 3, 15, and proto_file carries json_name', async ({ sandbox }) => {
    const box = withPlugins(sandbox, { name: 'dump' });
    await box.runOurs([IN, '--dump_out=param:out', 'foo.proto']);
    const request = box.request('dump')!;
    expect(parseWireFields(request).map((f) => f.number)).toEqual([1, 2, 3, 15, 15]);
    const foo = decodeRequest(request).proto_file[1];
    expect(foo.message_type[0].field.map((f: { json_name: string }) => f.json_name)).toEqual(['dep', 'myValue']);
  });

  test('a plugin that never reads a request larger than a pipe buffer still works (EPIPE ignored)', async ({ sandbox }) => {
    const box = withPlugins(sandbox, { name: 'deaf', ignoreStdin: true, response: { file: [{ name: 'ok.txt', content: 'ok\n' }] } });
    expect(await box.runOurs([IN, '--deaf_out=out', 'big.proto'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(box.tree('out')).toEqual({ 'ok.txt': 'ok\n' });
  });
});

test.describe('plugin processes', () => {
  test('exit status, signal, garbage and truncated output, empty output', async ({ sandbox }) => {
    const valid = encodeResponse({ file: [{ name: 'ok.txt', content: 'ok' }] });
    const box = withPlugins(
      sandbox,
      { name: 'exit3', response: valid, exitCode: 3, stderr: 'plugin says hi\n' },
      { name: 'killed', response: valid, signal: 'SEGV' },
      { name: 'garbage', response: Buffer.from('this is not a protobuf\n') },
      { name: 'truncated', response: Buffer.from(valid).subarray(0, 12) },
      { name: 'empty' },
    );
    expect(await box.runOurs([IN, '--exit3_out=out', 'foo.proto'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'plugin says hi\n--exit3_out: protoc-gen-exit3: Plugin failed with status code 3.\n',
    });
    expect((await box.runOurs([IN, '--killed_out=out', 'foo.proto'])).stderr).toBe(
      '--killed_out: protoc-gen-killed: Plugin killed by signal 11.\n',
    );
    expect((await box.runOurs([IN, '--garbage_out=out', 'foo.proto'])).stderr).toBe(
      '--garbage_out: protoc-gen-garbage: Plugin output is unparseable: this is not a protobuf\\n\n',
    );
    expect((await box.runOurs([IN, '--truncated_out=out', 'foo.proto'])).stderr).toBe(
      '--truncated_out: protoc-gen-truncated: Plugin output is unparseable: z\\014\\n\\006ok.txtz\\002\n',
    );
    expect(await box.runOurs([IN, '--empty_out=out', 'foo.proto'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(box.tree('out')).toEqual({});
  });

  test("a plugin that cannot be executed: protoc's child message, then status 1", async ({ sandbox }) => {
    const box = withPlugins(sandbox);
    writeFileSync(path.join(box.dir, 'notexec'), '#!/bin/sh\n');
    const hint = 'Please specify a program using absolute path or make sure the program is available in your PATH system variable\n';
    expect((await box.runOurs([IN, '--plugin=protoc-gen-badplug=no_such_file', '--badplug_out=out', 'foo.proto'])).stderr).toBe(
      `no_such_file: program not found or is not executable\n${hint}--badplug_out: protoc-gen-badplug: Plugin failed with status code 1.\n`,
    );
    expect((await box.runOurs([IN, '--nowhere_out=out', 'foo.proto'])).stderr).toBe(
      `protoc-gen-nowhere: program not found or is not executable\n${hint}--nowhere_out: protoc-gen-nowhere: Plugin failed with status code 1.\n`,
    );
    expect((await box.runOurs([IN, '--plugin=protoc-gen-x=notexec', '--x_out=out', 'foo.proto'])).stderr).toContain(
      'notexec: program not found or is not executable\n',
    );
  });

  test('--plugin paths: exact (relative to cwd, never searched), by basename, or protoc-gen-NAME in PATH', async ({ sandbox }) => {
    const box = withPlugins(sandbox, { name: 'real', response: { file: [{ name: 'r.txt', content: 'r' }] } });
    mkdirSync(path.join(box.dir, 'tools'));
    writeFileSync(path.join(box.dir, 'tools', 'protoc-gen-real'), readFileSync(path.join(box.bin, 'protoc-gen-real')), { mode: 0o755 });
    expect((await box.runOurs([IN, '--plugin=tools/protoc-gen-real', '--real_out=out', 'foo.proto'])).code).toBe(0);
    expect((await box.runOurs([IN, '--plugin=protoc-gen-other=tools/protoc-gen-real', '--other_out=o2', 'foo.proto'])).code).toBe(0);
    // "custom=" does not name protoc-gen-custom: the lookup key is the whole name.
    expect((await box.runOurs([IN, '--plugin=custom=tools/protoc-gen-real', '--custom_out=o2', 'foo.proto'])).stderr).toContain(
      'protoc-gen-custom: program not found',
    );
    // A bare name registered with --plugin is a path relative to cwd, not a PATH lookup.
    expect((await box.runOurs([IN, '--plugin=protoc-gen-y=protoc-gen-real', '--y_out=o2', 'foo.proto'])).stderr).toContain(
      'protoc-gen-real: program not found',
    );
  });

  test('timeout and output limit (touchstone-only) kill the plugin and fail the run', async ({ sandbox }) => {
    const box = withPlugins(
      sandbox,
      { name: 'slow', sleep: 5 },
      { name: 'loud', response: { file: [{ name: 'x.txt', content: 'x'.repeat(100) }] } },
    );
    expect((await box.runOurs([IN, '--plugin_timeout=0.3', '--slow_out=out', 'foo.proto'])).stderr).toBe(
      "--slow_out: protoc-gen-slow: Plugin did not finish within 0.3 s and was killed (touchstone's --plugin_timeout; protoc would wait indefinitely).\n",
    );
    const lingering = await box
      .addPlugin({ name: 'linger', linger: 5 })
      .runOurs([IN, '--plugin_timeout=0.5', '--linger_out=out', 'foo.proto']);
    expect(lingering.stderr, 'an exited plugin whose child keeps stdout open').toContain(
      '--linger_out: protoc-gen-linger: Plugin did not finish within 0.5 s',
    );
    expect((await box.runOurs([IN, '--plugin_output_limit=50', '--loud_out=out', 'foo.proto'])).stderr).toBe(
      "--loud_out: protoc-gen-loud: Plugin wrote more than 50 bytes to standard output and was killed (touchstone's --plugin_output_limit).\n",
    );
  });
});

test.describe('writing', () => {
  test('the output directory must exist (protoc never creates it), and is checked before anything is written', async ({ sandbox }) => {
    const box = withPlugins(sandbox, { name: 'a', response: { file: [{ name: 'a.txt', content: 'a' }] } }, { name: 'e', response: {} });
    expect(await box.runOurs([IN, '--a_out=out', '--e_out=nodir', 'foo.proto'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'nodir/: No such file or directory\n',
    });
    expect(box.tree('out')).toEqual({});
    writeFileSync(path.join(box.dir, 'afile'), '');
    expect((await box.runOurs([IN, '--a_out=afile', 'foo.proto'])).stderr).toBe('afile/: Not a directory\n');
  });

  test("OS errors while writing use protoc's texts (no trailing newline) and stop", async ({ sandbox }) => {
    const box = withPlugins(sandbox, {
      name: 'w',
      response: {
        file: [
          { name: 'a.txt', content: 'a' },
          { name: 'z/', content: 'z' },
          { name: 'zz.txt', content: 'zz' },
        ],
      },
    });
    expect(await box.runOurs([IN, '--w_out=out', 'foo.proto'])).toEqual({ code: 1, stdout: '', stderr: 'out/z/: Is a directory' });
    expect(box.tree('out'), 'sorted order: a.txt was written before the failure').toEqual({ 'a.txt': 'a' });
  });

  test("archives: .zip and .jar (with protoc's manifest) hold the files, stored, sorted", async ({ sandbox }) => {
    const box = withPlugins(sandbox, {
      name: 'z',
      response: {
        file: [
          { name: 'b/two.txt', content: 'two' },
          { name: 'a.txt', content: 'one' },
        ],
      },
    });
    expect((await box.runOurs([IN, '--z_out=out/x.zip', '--z_out=out/y.jar', 'foo.proto'])).code).toBe(0);
    const zip = readFileSync(path.join(box.dir, 'out', 'x.zip')).toString('latin1');
    expect(zip.indexOf('a.txtone')).toBeLessThan(zip.indexOf('b/two.txttwo'));
    expect(readFileSync(path.join(box.dir, 'out', 'y.jar')).toString('latin1')).toContain(
      'META-INF/MANIFEST.MFManifest-Version: 1.0\nCreated-By: 1.6.0 (protoc)\n\n',
    );
  });
});
