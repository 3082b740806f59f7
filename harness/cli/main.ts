// Wires the commands; each lives in its own file.
import yargs from 'yargs';
import { HarnessError } from '../core/errors.js';
import { baselineCommand } from './baseline.js';
import { cassetteCommand } from './cassette.js';
import { compilerCommand } from './compiler.js';
import { mutateCommand } from './mutate.js';
import { openapiCommand } from './openapi.js';
import { pluginCommand } from './plugin.js';
import { protocCommand, runProtocCommand } from './protoc.js';
import { proxyCommand } from './proxy.js';
import { reportCommand } from './report.js';
import { runCommand } from './run.js';
import { serveCommand } from './serve.js';

export async function main(args: string[]): Promise<void> {
  try {
    // protoc's flags (--NAME_out=…, -Ipath, @argfile) are not yargs options: they pass through untouched.
    if (args[0] === 'protoc') {
      process.exitCode = await runProtocCommand(args.slice(1));
      return;
    }
    await yargs(args)
      .scriptName('touchstone')
      .command(runCommand)
      .command(serveCommand)
      .command(proxyCommand)
      .command(cassetteCommand)
      .command(pluginCommand)
      .command(compilerCommand)
      .command(mutateCommand)
      .command(reportCommand)
      .command(baselineCommand)
      .command(openapiCommand)
      .command(protocCommand)
      .demandCommand(1, 'name a command')
      .example('$0 run', 'every service suite against the embedded reference')
      .example('$0 run --target https://impl.example --tokens tokens.yaml', 'judge an implementation of the service')
      .example('$0 plugin --plugin ./protoc-gen-yours', 'judge a code-generator plugin')
      .epilog('Each command has --help with its own examples.')
      .strict()
      .fail((message, error) => {
        throw error ?? new HarnessError('USAGE', message);
      })
      .help()
      .parseAsync();
  } catch (error) {
    const known = error instanceof HarnessError;
    process.stderr.write(`touchstone: ${known ? error.message : (error as Error).stack}\n`);
    if (!known) process.stderr.write('touchstone: this is a bug in touchstone; please report it with the command you ran\n');
    process.exitCode = known ? error.exitCode : 2;
  }
}
