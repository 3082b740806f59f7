// `touchstone plugin --plugin CMD`: lint the plugin suites, check the command starts, run
// every case against it through Playwright and turn the results into an exit code (0
// conforming, 1 failures, 2 usage, 3 the plugin cannot be started at all). `--record DIR`
// saves every run as it goes; `--replay DIR` judges a recording and starts nothing, so
// the command (and the limits it ran under) come from DIR/session.json.
import path from 'node:path';
import type { Argv } from 'yargs';
import { HarnessError } from '../core/errors.js';
import { runPluginProcess, splitCommand } from '../plugin/plugin-process.js';
import { createSessionRecorder, createSessionReplayer } from '../plugin/plugin-session.js';
import { lintPluginSuites, loadPluginSuites } from '../plugin/plugin-suite-loader.js';
import { shellWord } from '../core/shell-word.js';
import { suitePaths } from '../core/suite-paths.js';
import { judged, protocolRerun, protocolRunOptions, runProtocolSuites, type VerdictArgs } from './protocol-run.js';
import { describeOwnFiles } from './own-fixtures.js';
import { fixtureNames } from '../plugin/fixture-descriptors.js';
import { type LastFailedArgs, listOf } from './case-selection.js';
import type { Results } from '../core/results.js';
import type { PluginOptions } from './options.js';
import type { LastFailed } from '../report/last-failed.js';

/** Its options and work; harness/cli/main.ts names and describes it. */
export const command = {
  builder: (yargs: Argv) =>
    protocolRunOptions(
      yargs
        .option('plugin', {
          type: 'string',
          describe:
            'the plugin command, e.g. ./protoc-gen-foo or "npx protoc-gen-es" (words and quotes as in a shell); with --replay, only names it in the report',
        })
        .option('parameter', {
          type: 'string',
          describe:
            "the generator parameter every request carries, as protoc passes --NAME_out=PARAM:DIR and --NAME_opt (e.g. paths=source_relative,Mfoo.proto=example.com/foo); a case's own parameter follows it, after a comma",
        })
        .option('proto', {
          type: 'array',
          string: true,
          describe: 'your own .proto files, judged as the built-in fixtures are (the "own" suite, and io/real-request)',
        })
        .option('proto-path', {
          type: 'array',
          string: true,
          describe: "where --proto files and their imports are found, as protoc's -I (default: the working directory)",
        })
        .option('record', { type: 'string', describe: 'save every run (exact bytes and a readable form) in this directory, for --replay' })
        .option('replay', { type: 'string', describe: 'judge the runs recorded in this directory instead of running a plugin' }),
      'plugin',
      'suites/plugin',
    )
      .example('$0 plugin --plugin ./protoc-gen-yours', 'judge your plugin')
      .example('$0 plugin --plugin protoc-gen-go --parameter paths=source_relative', 'with the options you give it')
      .example('$0 plugin --plugin ./protoc-gen-yours --proto-path protos --proto api/v1/api.proto', 'on your own schema files too')
      .example('$0 plugin --plugin "npx protoc-gen-es" --record session/', 'judge it and keep the session, for --replay session/'),
  handler: async (argv: PluginOptions & VerdictArgs & LastFailedArgs) => {
    process.exitCode = await judged('plugin', argv, (lastFailed) => runPluginSuites(argv, lastFailed));
  },
};

/**
 * Runs the plugin suites against options.plugin (as `touchstone plugin`), writes the reports, and
 * returns the results; with `lastFailed` (--last-failed), only those of its cases.
 */
export function runPluginSuites(options: PluginOptions, lastFailed?: LastFailed): Promise<Results> {
  return runProtocolSuites(
    'plugin',
    options.plugin ?? '',
    options,
    (given, registry) => {
      if (options.record !== undefined && options.replay !== undefined)
        throw new HarnessError('USAGE', '--record and --replay cannot be used together');
      if (options.plugin === undefined && options.replay === undefined)
        throw new HarnessError('USAGE', '--plugin is required (unless --replay names a recorded session)');
      const record = options.record === undefined ? undefined : path.resolve(options.record);
      const replay = options.replay === undefined ? undefined : path.resolve(options.replay);
      const replayed = replay === undefined ? undefined : createSessionReplayer(replay);
      const command = options.plugin !== undefined ? splitCommand(options.plugin) : replayed!.command;
      const protoFiles = listOf(options.proto);
      const protoPaths = listOf(options.protoPath);
      if (protoPaths.length > 0 && protoFiles.length === 0)
        throw new HarnessError('USAGE', '--proto-path needs --proto: the files to judge the plugin on');
      const own = protoFiles.length ? describeOwnFiles(protoFiles, protoPaths, fixtureNames()) : undefined;
      // A replay rebuilds the requests it was recorded with: the parameter, unless given again, is the recorded one.
      const parameter = options.parameter ?? replayed?.parameter;
      const suites = loadPluginSuites(suitePaths.plugin, listOf(options.suite), own?.files);
      const problems = lintPluginSuites(suites, registry, suitePaths.pluginFixtures, own?.files);
      if (problems.length) throw new HarnessError('CONFIG', `the plugin suites do not pass the lint:\n  ${problems.join('\n  ')}`);
      // A replayed run is judged under the limits it was recorded with, so a recorded timeout says its real bound.
      const limits = { ...(replayed?.limits ?? given), cwd: process.cwd() };
      const start = async () => {
        if (!replayed) {
          // A command that cannot start at all would make every case ERROR: say so once instead.
          const probe = await runPluginProcess(command, new Uint8Array(0), limits);
          if (probe.spawnError) throw new HarnessError('TARGET_UNREACHABLE', `the plugin cannot be started: ${probe.spawnError}`);
        }
        // Prepared here, before Playwright starts, so a directory that cannot hold a session is exit 2 at once.
        if (record !== undefined) createSessionRecorder(record, command, limits, { parameter });
        const targetUrl = options.plugin ?? command.map(shellWord).join(' ');
        return {
          targetUrl,
          plugin: {
            command,
            ...limits,
            ...(record !== undefined && { record }),
            ...(replay !== undefined && { replay }),
            ...(parameter !== undefined && { parameter }),
            ...(own && { own }),
          },
          rerun: protocolRerun('plugin', options, [
            '--plugin',
            targetUrl,
            ...(parameter !== undefined ? ['--parameter', parameter] : []),
            ...protoPaths.flatMap((dir) => ['--proto-path', dir]),
            ...protoFiles.flatMap((file) => ['--proto', file]),
            ...(options.replay !== undefined ? ['--replay', options.replay] : []),
          ]),
          // Reports name the folder as the user gave it; the plugin workers read the absolute paths above.
          ...(options.record !== undefined && { recordings: { mode: 'record' as const, folder: options.record } }),
          ...(options.replay !== undefined && { recordings: { mode: 'replay' as const, folder: options.replay } }),
        };
      };
      return { suites, start };
    },
    lastFailed,
  );
}
