// `touchstone compiler --compiler CMD`: lint the compiler suites, check the command starts,
// then run every case (the compiler against canned plugins, see
// harness/plugin/compiler-checks.ts) through Playwright.
import type { Argv } from 'yargs';
import { HarnessError } from '../core/errors.js';
import { runPluginProcess, splitCommand } from '../plugin/plugin-process.js';
import { lintCompilerSuites, loadCompilerSuites } from '../plugin/plugin-suite-loader.js';
import { suitePaths } from '../core/suite-paths.js';
import { judged, protocolRerun, protocolRunOptions, runProtocolSuites, type VerdictArgs } from './protocol-run.js';
import { type LastFailedArgs, listOf } from './case-selection.js';
import type { Results } from '../core/results.js';
import type { ProtocolRunOptions } from './options.js';
import type { LastFailed } from '../report/last-failed.js';

export interface CompilerOptions extends ProtocolRunOptions {
  compiler: string;
}

/** Its options and work; harness/cli/main.ts names and describes it. */
export const command = {
  builder: (yargs: Argv) =>
    protocolRunOptions(
      yargs.option('compiler', {
        type: 'string',
        demandOption: true,
        describe: 'the compiler command, e.g. protoc or "npx touchstone protoc" (words and quotes as in a shell)',
      }),
      'compiler',
      'suites/plugin/compiler',
    )
      .example('$0 compiler --compiler protoc', "judge Debian's protoc")
      .example('$0 compiler --compiler "npx buf"', 'judge another compiler'),
  handler: async (argv: CompilerOptions & VerdictArgs & LastFailedArgs) => {
    process.exitCode = await judged('compiler', argv, (lastFailed) => runCompilerSuites(argv, lastFailed));
  },
};

/**
 * Runs the compiler suites against options.compiler (as `touchstone compiler`), writes the
 * reports, and returns the results; with `lastFailed` (--last-failed), only those of its cases.
 */
export function runCompilerSuites(options: CompilerOptions, lastFailed?: LastFailed): Promise<Results> {
  return runProtocolSuites(
    'compiler',
    options.compiler,
    options,
    (limits, registry) => {
      const command = splitCommand(options.compiler);
      const suites = loadCompilerSuites(suitePaths.compiler, listOf(options.suite));
      const problems = lintCompilerSuites(suites, registry, suitePaths.pluginFixtures);
      if (problems.length) throw new HarnessError('CONFIG', `the compiler suites do not pass the lint:\n  ${problems.join('\n  ')}`);
      const start = async () => {
        // A command that cannot start at all would make every case ERROR: say so once instead.
        const probe = await runPluginProcess([...command, '--version'], new Uint8Array(0), limits);
        if (probe.spawnError) throw new HarnessError('TARGET_UNREACHABLE', `the compiler cannot be started: ${probe.spawnError}`);
        return {
          compiler: { command, ...limits, cwd: process.cwd() },
          rerun: protocolRerun('compiler', options, ['--compiler', options.compiler]),
        };
      };
      return { suites, start };
    },
    lastFailed,
  );
}
