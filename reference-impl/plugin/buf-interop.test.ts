// buf drives the plugin too: a buf.gen.yaml (v2) naming it as a `local:` plugin. buf sends a
// request protoc 3.21 does not (source_file_descriptors = 17, no compiler_version), so this
// also checks the plugin tolerates a newer compiler. No network: no deps, no remote plugins,
// a private cache, and proxies pointing at a closed port so any attempt would fail loudly.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { BUF, DEBIAN_PROTOC as PROTOC, skipWithoutBuf } from '../../test-support/debian-protoc.js';
import { typeCheckDeclarations } from './declaration-check.fixture.js';
import { readOutputTree } from './output-tree.js';

const BIN = fileURLToPath(new URL('../../bin/protoc-gen-touchstone.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));

skipWithoutBuf(test);

function bufGenerate(opt: string[]) {
  const workspace = test.info().outputPath('workspace');
  cpSync(FIXTURES, join(workspace, 'proto'), { recursive: true });
  writeFileSync(join(workspace, 'buf.yaml'), 'version: v2\nmodules:\n  - path: proto\n');
  writeFileSync(
    join(workspace, 'buf.gen.yaml'),
    [
      'version: v2',
      'plugins:',
      `  - local: ${JSON.stringify(BIN)}`,
      '    out: gen',
      `    opt: ${JSON.stringify(opt)}`,
      'inputs:',
      '  - directory: proto',
      '',
    ].join('\n'),
  );
  const offline = 'http://127.0.0.1:9';
  const run = spawnSync(BUF, ['generate'], {
    cwd: workspace,
    encoding: 'utf8',
    env: { ...process.env, BUF_CACHE_DIR: join(workspace, '.cache'), HTTPS_PROXY: offline, HTTP_PROXY: offline, NO_PROXY: '' },
  });
  return { ...run, gen: join(workspace, 'gen') };
}

test('buf generate runs the plugin as a local plugin and writes its files, options included', () => {
  const run = bufGenerate(['chunk=256', 'format=both']);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const files = readOutputTree(run.gen);
  expect([...files.keys()]).toEqual(['common.d.ts', 'common.md', 'legacy.d.ts', 'legacy.md', 'shapes.d.ts', 'shapes.md']);
  expect(files.get('shapes.md')).toContain('| 2 | `sides` | optional | `int32` | Absent means "unknown"; zero sides means a curve. |');
  expect(files.get('shapes.md')).not.toContain('_sides');
  expect(files.get('shapes.d.ts')).toContain('  sides?: number;\n');
  expect(typeCheckDeclarations(run.gen)).toEqual([]);

  // The same schema through protoc (when there is one) gives the same files: the outputs
  // depend on the schema, not on the compiler that sent it.
  if (spawnSync(PROTOC, ['--version']).status === 0) {
    const out = test.info().outputPath('protoc-out');
    mkdirSync(out, { recursive: true });
    const protoc = spawnSync(
      PROTOC,
      [`--plugin=protoc-gen-touchstone=${BIN}`, `-I${FIXTURES}`, `--touchstone_out=${out}`, 'common.proto', 'legacy.proto', 'shapes.proto'],
      { encoding: 'utf8' },
    );
    expect(protoc.status).toBe(0);
    expect(readOutputTree(out)).toEqual(files);
  }
});

test("a bad option fails buf generate with the plugin's message", () => {
  const run = bufGenerate(['chunk=lots']);
  expect(run.status).not.toBe(0);
  expect(run.stderr).toContain('option "chunk" must be a whole number of bytes (0 = never split), got "lots"');
  expect(() => readOutputTree(run.gen)).toThrow();
});
