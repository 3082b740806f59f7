// Wires the commands. main() knows each command's name and one line about it; its options
// and its work live in its own file (harness/cli/<file>.ts), loaded through `load` only when
// that command runs or shows its --help. So `touchstone --help` or a mistyped command loads
// yargs and nothing else (no ajv, suites, reference or Playwright). bin/entry.js supplies
// `load`: the compiled files in dist/ or the TypeScript sources (start-up: bench/README.md).
import type { Argv } from 'yargs';
import { closestName } from '../core/did-you-mean.js';
import { HarnessError } from '../core/errors.js';
import { packageVersion } from '../../lib/project-files.js';
import type { ConfigCommand, YargsOptions } from './config-file.js';

export interface CommandFile {
  command: {
    builder: (yargs: Argv) => Argv;
    // biome-ignore lint/suspicious/noExplicitAny: each command declares the argv its builder makes
    handler: (argv: any) => unknown;
  };
}

/** protoc.ts: `touchstone protoc …` with protoc's own command line. */
export interface ProtocFile {
  runProtocCommand(args: string[]): Promise<number>;
}

/** config-file.ts: defaults from touchstone.config.* and TOUCHSTONE_* variables. */
export interface ConfigFile {
  isConfigCommand(command: string): command is ConfigCommand;
  applyConfig(yargs: Argv, command: ConfigCommand, options: YargsOptions, args: readonly string[]): Promise<Argv>;
}

/** Imports harness/cli/<file>.ts, or what it was compiled to. */
export type LoadCommandFile = <T extends CommandFile | ProtocFile | ConfigFile>(file: string) => Promise<T>;

// Each command's file is harness/cli/<its first word>.ts.
const COMMANDS: [command: string, describe: string][] = [
  ['run', 'Run the service conformance suites against a target (default: the embedded reference)'],
  ['serve', 'Serve the reference implementation of the service'],
  ['target', 'Check an implementation before a run: it answers like the service, and its capabilities, tokens and world'],
  ['proxy', 'Record or replay traffic to a target through a local proxy'],
  ['cassette', 'Show, check, compare, export and import recordings'],
  ['plugin', 'Run the plugin conformance suites against a code-generator plugin'],
  ['compiler', "Run the compiler conformance suites against a compiler with protoc's command line"],
  ['list [what]', 'List the suites, cases, roles, requirements, faults or variants a run would take (--json for scripts)'],
  ['mutate', 'Kill matrix: switch each built-in fault of the reference implementations on and show which cases catch it'],
  ['report', 'Work with the report folders of finished runs: merge shards, compare runs, open or serve a report'],
  ['baseline', 'Maintain a baseline of known failures'],
  ['world', 'Export the fixture world as data (JSON, Git repositories, artifact zips) for an implementation to load'],
  ['tokens', 'Write a tokens file (role: token) listing every role of the world, for run --tokens'],
  ['openapi', 'Print the OpenAPI 3.1 document of the reference service (also served at /_conformance/openapi.json)'],
  // Listed for --help only: main() hands `protoc …` to protoc.ts before yargs parses anything.
  ['protoc', 'Run code-generator plugins the way protoc 3.21 does (touchstone protoc --help lists its flags)'],
];

const fileOf = (command: string) => command.split(' ')[0];

/** The command files main() loads, for the build (bin/build.ts). */
export const COMMAND_FILES = COMMANDS.map(([command]) => fileOf(command));

/**
 * yargs' "Unknown argument(s): a, b" with a "did you mean" for each name that is close to a
 * known one: an option (`--suites`) to the options of the command that refused it, a word to
 * the commands (`touchstone rn`). Other messages are as yargs wrote them.
 */
function withSuggestions(message: string, args: readonly string[], options: readonly string[], commands: readonly string[]): string {
  const unknown = /^Unknown arguments?: (.+)$/.exec(message);
  if (!unknown) return message;
  const hints = unknown[1].split(', ').flatMap((name) => {
    const asOption = args.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`) || arg === `-${name}`);
    const near = closestName(name, asOption ? options : commands);
    if (near === undefined) return [];
    return asOption ? [`--${name}: did you mean --${near}?`] : [`${name}: did you mean ${near}?`];
  });
  return hints.length > 0 ? `${message} (${hints.join('; ')})` : message;
}

/**
 * The commands of the instance being parsed: at a failure inside `report`, its subcommands
 * (merge, compare, open). Read through yargs' internal methods, left out of its types: where
 * they are missing, the top-level commands are suggested.
 */
function commandsOf(cli: Argv): readonly string[] {
  const internal = cli as unknown as { getInternalMethods?: () => { getCommandInstance?: () => { getCommands?: () => string[] } } };
  return internal.getInternalMethods?.().getCommandInstance?.().getCommands?.() ?? COMMAND_FILES;
}

/**
 * The options of the command being parsed (yargs configures one instance per command, so at a
 * failure it holds the failing command's). getOptions is yargs' own but left out of its types:
 * where it is missing, no option is known (none is suggested, none configured).
 */
export function optionsOf(cli: Argv): YargsOptions {
  const { getOptions } = cli as unknown as { getOptions?: () => Omit<YargsOptions, 'key'> & { key: Record<string, unknown> } };
  const known = typeof getOptions === 'function' ? getOptions.call(cli) : undefined;
  return {
    array: [],
    boolean: [],
    number: [],
    string: [],
    choices: {},
    ...known,
    key: Object.keys(known?.key ?? {}).filter((key) => key !== 'help' && key !== 'version'),
  };
}

export async function main(args: string[], load: LoadCommandFile): Promise<void> {
  // A reader that stops early (`touchstone openapi | head`) closes the pipe: stop quietly, as
  // Unix tools do, not with an unhandled EPIPE stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit();
  });
  try {
    // protoc's flags (--NAME_out=…, -Ipath, @argfile) are not yargs options: they pass through untouched.
    if (args[0] === 'protoc') {
      process.exitCode = await (await load<ProtocFile>('protoc')).runProtocCommand(args.slice(1));
      return;
    }
    // Loaded here, not above: `touchstone protoc` never needs yargs (its load is ~20 ms of start).
    const { default: yargs } = await import('yargs');
    const cli = yargs(args).scriptName('touchstone');
    for (const [command, describe] of COMMANDS) {
      const file = fileOf(command);
      const loaded = async () =>
        file === 'protoc' ? { builder: (y: Argv) => y, handler: () => {} } : (await load<CommandFile>(file)).command;
      cli.command(
        command,
        describe,
        // --version is touchstone's, not the command's: it works after a command too, but only the
        // top-level help lists it.
        async (y: Argv) => {
          const built = (await loaded()).builder(y).hide('version');
          const config = await load<ConfigFile>('config-file');
          return config.isConfigCommand(file) ? config.applyConfig(built, file, optionsOf(built), args) : built;
        },
        async (argv) => {
          await (await loaded()).handler(argv);
        },
      );
    }
    await cli
      .demandCommand(1, 'name a command')
      .example('$0 run', 'every service suite against the embedded reference')
      .example('$0 run --target https://impl.example --tokens tokens.yaml', 'judge an implementation of the service')
      .example('$0 plugin --plugin ./protoc-gen-yours', 'judge a code-generator plugin')
      .epilog('Each command has --help with its own examples.')
      .strict()
      // touchstone's own version: yargs' default reads the package.json nearest the folder the
      // command runs in, which printed another project's version, or "unknown" outside any.
      .version(packageVersion())
      .fail((message, error) => {
        throw error ?? new HarnessError('USAGE', withSuggestions(message, args, optionsOf(cli).key, commandsOf(cli)));
      })
      .help()
      .parseAsync();
  } catch (error) {
    const known = error instanceof HarnessError;
    process.stderr.write(`touchstone: ${known ? error.message : (error as Error).stack}\n`);
    if (!known) {
      process.stderr.write('touchstone: this is a bug in touchstone; please report it with the command you ran\n');
      if (process.env.TOUCHSTONE_FROM_SOURCE !== '1')
        process.stderr.write('touchstone: (TOUCHSTONE_FROM_SOURCE=1 gives the same trace against the TypeScript sources)\n');
    }
    process.exitCode = known ? error.exitCode : 2;
  }
}
