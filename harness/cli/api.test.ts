// touchstone as a library, as a user's project gets it: the package packed (`npm pack`),
// installed by name into a scratch project, imported, type-checked against its .d.ts files, and
// run against the embedded reference.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { packPackage } from '../../test-support/packed-package.js';
import { PROJECT_ROOT } from '../core/suite-paths.js';

test('a project that installs the packed package imports run, type-checks against its .d.ts, and gets a conforming run of one suite', async () => {
  test.setTimeout(600_000); // npm install (from npm's cache when it has the packages) and one run
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'touchstone-package-'));
  try {
    const tarball = path.basename(packPackage(test, scratch));
    const packed = execFileSync('tar', ['-tzf', path.join(scratch, tarball)], { encoding: 'utf8' }).split('\n');
    // What a user gets: the built commands and their types, not the project's tests.
    expect(packed).toContain('package/dist/commands/api.js');
    expect(packed).toContain('package/dist/types/harness/cli/api.d.ts');
    expect(packed.filter((file) => file.endsWith('.test.ts') || file.endsWith('.v8-cache'))).toEqual([]);

    const project = path.join(scratch, 'project');
    execFileSync('mkdir', [project]);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--silent', path.join(scratch, tarball)], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'inherit'],
    });

    /** A file of the scratch project, from its lines. */
    const write = (name: string, lines: string[]) => writeFileSync(path.join(project, name), `${lines.join('\n')}\n`);
    write('check.ts', [
      "import { run, defineConfig, type Results, type RunOptions } from 'touchstone';",
      "const options: RunOptions = { suite: 'assignees', requestTimeout: 10 };",
      'const results: Results = await run(options);',
      "const verdict: 'conforming' | 'incomplete' | 'non-conforming' = results.verdict;",
      "export default defineConfig({ run: { target: 'http://127.0.0.1:8080' } });",
      '// @ts-expect-error a key the config does not have',
      'defineConfig({ runn: {} });',
      'console.log(verdict);',
    ]);
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      // Node's types as a Node.js project has them (here: this project's copy), and no other: the
      // package's declarations must not need its development dependencies' types (yargs').
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          typeRoots: [path.join(PROJECT_ROOT, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['check.ts'],
      }),
    );
    // Against the .d.ts files the package ships (no skipLibCheck): a type error exits non-zero.
    execFileSync(process.execPath, [path.join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], {
      cwd: project,
      stdio: ['ignore', 'inherit', 'inherit'],
    });

    write('judge.mjs', [
      "import { run, TouchstoneError } from 'touchstone';",
      "const results = await run({ suite: 'assignees', out: 'reports/library' });",
      "let refused = 'accepted';",
      "try { await run({ suite: 'no-such-suite' }); } catch (error) { refused = `${error instanceof TouchstoneError} ${error.exitCode} ${error.message}`; }",
      'console.log(JSON.stringify({ verdict: results.verdict, total: results.summary.total, refused }));',
    ]);
    const out = execFileSync(process.execPath, ['judge.mjs'], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const said = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(said.verdict).toBe('conforming');
    expect(said.total).toBeGreaterThan(0);
    expect(said.refused).toMatch(/^true 2 unknown suite no-such-suite; known: /);
    expect(JSON.parse(readFileSync(path.join(project, 'reports', 'library', 'results.json'), 'utf8')).verdict).toBe('conforming');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
