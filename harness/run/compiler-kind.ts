// How a worker of `touchstone compiler` runs compiler cases: each in a sandbox folder of its
// own under <out>/compiler-cases/<suite>/<case>, kept when the case does not pass so that its
// reproduction command can be rerun in it. The folders left empty are removed once the whole
// run is over (removeEmptySandboxFolders), never by a worker: another worker may be making its
// sandbox in one at that moment.
import { readdirSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { suitePaths } from '../core/suite-paths.js';
import { runCompilerCase } from '../plugin/compiler-checks.js';
import type { CompilerCase } from '../plugin/compiler-suite-format.js';
import type { StartWorker } from './run-kind.js';

export const startWorker: StartWorker<CompilerCase> = ({ config, registry }) => {
  const compiler = config.compiler!;
  return {
    run: ({ facts, testCase }) => {
      const sandboxRoot = path.join(sandboxFolder(config.outDir), facts.suite, testCase.id);
      rmSync(sandboxRoot, { recursive: true, force: true });
      return runCompilerCase(testCase, {
        command: compiler.command,
        fixturesDir: suitePaths.pluginFixtures,
        registry,
        strict: config.strict,
        limits: compiler,
        sandboxRoot,
        cwd: compiler.cwd,
      });
    },
    close: () => {},
  };
};

const sandboxFolder = (outDir: string) => path.join(outDir, 'compiler-cases');

/** After a compiler run: only the sandboxes of cases that did not pass stay, so drop the folders left empty. */
export function removeEmptySandboxFolders(outDir: string): void {
  const root = sandboxFolder(outDir);
  let suites: string[] = [];
  try {
    suites = readdirSync(root);
  } catch {
    return; // no case ran
  }
  for (const dir of [...suites.map((suite) => path.join(root, suite)), root]) {
    try {
      rmdirSync(dir);
    } catch {
      // not empty (a kept sandbox), or not a folder
    }
  }
}
