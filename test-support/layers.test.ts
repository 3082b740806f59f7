// The layers of .dependency-cruiser.cjs hold for the whole repository, and the rules can fail.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const DEPCRUISE = path.join(ROOT, 'node_modules', '.bin', 'depcruise');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** The violations depcruise finds in `dirs` under `cwd`, with the given config file. */
function violations(cwd: string, config: string, dirs: string[]): Violation[] {
  let out: string;
  try {
    out = execFileSync(DEPCRUISE, [...dirs, '--config', config, '--output-type', 'json'], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    // depcruise exits non-zero when it finds violations; its report is still on stdout.
    out = (error as { stdout: string }).stdout;
  }
  return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
}

test('no module breaks a layer rule: folders import only below them, the reference never imports the harness, product code no test support', () => {
  test.slow(); // depcruise reads every module with the TypeScript compiler
  const found = violations(ROOT, '.dependency-cruiser.cjs', [
    'harness',
    'reference-impl',
    'lib',
    'bench',
    'bin',
    'test-support',
    'examples',
  ]);
  expect(found.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
});

test('the rules catch an upward import, a cycle (of types only too), the reference importing the harness, product code importing a fixture, and an example tied to touchstone', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'touchstone-layers-'));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  const { forbidden } = require(path.join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: unknown[] };
  write('rules.cjs', `module.exports = ${JSON.stringify({ forbidden, options: { tsPreCompilationDeps: true } })};`);
  write('harness/core/a.js', "import './b.js';\nimport '../report/r.js';\n");
  write('harness/core/b.js', "import './a.js';\n");
  write('harness/report/r.js', 'export {};\n');
  write('harness/core/fault.ts', "import type { Area } from './area.js';\nexport type Fault = Area['name'];\n");
  write('harness/core/area.ts', "import type { Fault } from './fault.js';\nexport interface Area { name: 'a'; faults: Fault[] }\n");
  write('reference-impl/service/s.js', "import '../../harness/core/b.js';\n");
  write('harness/suite/run.js', "import './helper.fixture.js';\n");
  write('harness/suite/helper.fixture.js', 'export {};\n');
  write('harness/suite/uses-example.js', "import '../../examples/target/server.js';\n");
  write('examples/target/server.js', "import 'node:http';\nimport '../../harness/core/b.js';\n");
  const rules = violations(dir, 'rules.cjs', ['harness', 'reference-impl', 'examples']).map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
  expect(rules).toEqual(
    expect.arrayContaining([
      'harness-core-layer: harness/core/a.js -> harness/report/r.js',
      'no-circular: harness/core/a.js -> harness/core/b.js',
      'no-circular: harness/core/area.ts -> harness/core/fault.ts',
      'reference-independent: reference-impl/service/s.js -> harness/core/b.js',
      'no-test-support-in-product: harness/suite/run.js -> harness/suite/helper.fixture.js',
      'examples-apart: harness/suite/uses-example.js -> examples/target/server.js',
      'examples-import-nothing-of-touchstone: examples/target/server.js -> harness/core/b.js',
    ]),
  );
});
