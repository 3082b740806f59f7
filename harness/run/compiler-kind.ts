// How a worker of `touchstone compiler` runs compiler cases: each in a sandbox folder of its
// own under <out>/compiler-cases/<suite>/<case>, kept when the case does not pass so that its
// reproduction command can be rerun in it.
import { rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { suitePaths } from '../core/suite-paths.js';
import { runCompilerCase } from '../plugin/compiler-checks.js';
import type { CompilerCase } from '../plugin/compiler-suite-format.js';
import type { StartWorker } from './run-kind.js';

export const startWorker: StartWorker<CompilerCase> = ({ config, registry }) => {
  const compiler = config.compiler!;
  const keptSandboxes = path.join(config.outDir, 'compiler-cases');
  const suites = new Set<string>();
  return {
    run: ({ facts, testCase }) => {
      suites.add(facts.suite);
      const sandboxRoot = path.join(keptSandboxes, facts.suite, testCase.id);
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
    // Only the sandboxes of cases that did not pass stay: drop the folders left empty.
    close: () => {
      for (const dir of [...[...suites].map((suite) => path.join(keptSandboxes, suite)), keptSandboxes]) {
        try {
          rmdirSync(dir);
        } catch {
          // not empty (a kept sandbox), or already gone
        }
      }
    },
  };
};
