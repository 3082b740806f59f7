// Debian's protoc drives the plugin as it would any other: through --plugin and --touchstone_out,
// reading the response and writing (or refusing to write) the files.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { DEBIAN_PROTOC as PROTOC, skipWithoutDebianProtoc } from '../../test-support/debian-protoc.js';
import { typeCheckDeclarations } from './declaration-check.fixture.js';
import { readOutputTree } from './output-tree.js';
import { createPluginCodec } from './plugin-codec.js';

const BIN = fileURLToPath(new URL('../../bin/protoc-gen-touchstone.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));
const ALL = ['shapes.proto', 'common.proto', 'legacy.proto'];

skipWithoutDebianProtoc(test);

function protoc(args: string[], plugins: Record<string, string> = { touchstone: BIN }) {
  const pluginFlags = Object.entries(plugins).map(([name, path]) => `--plugin=protoc-gen-${name}=${path}`);
  return spawnSync(PROTOC, [...pluginFlags, `-I${FIXTURES}`, ...args], { encoding: 'utf8' });
}

function outDir(name: string): string {
  const dir = test.info().outputPath(name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

test('protoc writes a reference and declarations per file; proto3 optional accepted and shown', () => {
  const out = outDir('out');
  const run = protoc([`--touchstone_out=${out}`, ...ALL]);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const files = readOutputTree(out);
  expect([...files.keys()]).toEqual(['common.d.ts', 'common.md', 'legacy.d.ts', 'legacy.md', 'shapes.d.ts', 'shapes.md']);
  const md = files.get('shapes.md')!;
  expect(md).toContain('| 2 | `sides` | optional | `int32` | Absent means "unknown"; zero sides means a curve. |');
  expect(md).toContain('| 5 | `labels` |  | `map<string, string>` |  |');
  expect(md).toContain('- oneof `geometry`: `circle`, `polygon`');
  expect(md).not.toContain('_sides');
  expect(md).toContain('| `WatchShapes` | `touchstone.demo.GetShapeRequest` | `stream touchstone.demo.Shape` |  |');
  const ts = files.get('shapes.d.ts')!;
  expect(ts).toContain('import type * as $common from "./common.js";');
  expect(ts).toContain('   * `optional int32 sides = 2`\n   */\n  sides?: number;');
  expect(ts).toContain('  createdAt?: string;');
  expect(ts).toContain('  title?: string;');
  expect(files.get('legacy.md')).toContain('| 2 | `version` | optional | `int32` | default `7` |');
  expect(typeCheckDeclarations(out)).toEqual([]);
});

test('the parameter from --touchstone_out and --touchstone_opt selects outputs and drops annotations', () => {
  const out = outDir('out');
  const run = protoc([`--touchstone_out=format=md:${out}`, '--touchstone_opt=insertion_points=false', 'shapes.proto']);
  expect(run.status).toBe(0);
  const files = readOutputTree(out);
  expect([...files.keys()]).toEqual(['shapes.md']);
  expect(files.get('shapes.md')).not.toContain('@@protoc_insertion_point');
});

test('chunked output is reassembled by protoc into the same files', () => {
  const whole = outDir('whole');
  const chunked = outDir('chunked');
  expect(protoc([`--touchstone_out=chunk=0:${whole}`, ...ALL]).status).toBe(0);
  expect(protoc([`--touchstone_out=chunk=64:${chunked}`, ...ALL]).status).toBe(0);
  expect(readOutputTree(chunked)).toEqual(readOutputTree(whole));
});

test("a bad parameter fails the run with the plugin's message and nothing is written", () => {
  const out = outDir('out');
  const run = protoc([`--touchstone_out=colour=red:${out}`, 'shapes.proto']);
  expect(run.status).toBe(1);
  expect(run.stderr).toBe(
    '--touchstone_out: unknown option "colour" in parameter "colour=red"; known options: chunk, format, insertion_points\n',
  );
  expect(readOutputTree(out).size).toBe(0);
});

test('a later plugin in the same run inserts at the annotations', () => {
  const out = outDir('out');
  const tools = outDir('tools');
  const response = createPluginCodec().encodeResponse({
    supported_features: 1, // shapes.proto has a proto3 optional field: protoc refuses plugins without the bit
    file: [
      {
        name: 'shapes.d.ts',
        insertion_point: 'message_scope:touchstone.demo.Shape',
        content: '/** Added by a later plugin. */\nextra?: boolean;\n',
      },
      { name: 'shapes.d.ts', insertion_point: 'imports', content: 'import type * as $legacy from "./legacy.js";\n' },
      { name: 'shapes.md', insertion_point: 'eof', content: 'Appended at the end.\n' },
    ],
  });
  writeFileSync(join(tools, 'response.bin'), response);
  const inserter = join(tools, 'protoc-gen-inserter');
  writeFileSync(inserter, `#!/bin/sh\ncat > /dev/null\ncat '${join(tools, 'response.bin')}'\n`);
  chmodSync(inserter, 0o755);
  const run = protoc([`--touchstone_out=${out}`, `--inserter_out=${out}`, 'shapes.proto', 'common.proto', 'legacy.proto'], {
    touchstone: BIN,
    inserter,
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const files = readOutputTree(out);
  expect(files.get('shapes.d.ts')).toContain(
    '  /** Added by a later plugin. */\n  extra?: boolean;\n  // @@protoc_insertion_point(message_scope:touchstone.demo.Shape)\n}',
  );
  expect(files.get('shapes.d.ts')).toContain('import type * as $legacy from "./legacy.js";\n// @@protoc_insertion_point(imports)');
  expect(files.get('shapes.md')).toMatch(/Appended at the end\.\n<!-- @@protoc_insertion_point\(eof\) -->\n$/);
  expect(typeCheckDeclarations(out)).toEqual([]);
});
