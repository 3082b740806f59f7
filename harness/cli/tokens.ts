// `touchstone tokens template`: a --tokens file listing every role of the world, to fill in.
import { existsSync } from 'node:fs';
import type { Argv } from 'yargs';
import { HarnessError } from '../core/errors.js';
import { writeFileAtomic } from '../core/write-file-atomic.js';
import { tokensTemplate } from '../suite/world-tokens.js';

const templateCommand = {
  command: 'template',
  describe: 'Write a tokens file with every role of the world (its token in a comment) and no values yet',
  builder: (yargs: Argv) =>
    yargs
      .option('out', { type: 'string', describe: 'write it to this file (which must not exist) instead of stdout' })
      .example('$0 tokens template --out tokens.yaml', 'then fill in a token of your implementation for each role'),
  handler: (argv: { out?: string }) => {
    const text = tokensTemplate();
    if (argv.out === undefined) return void process.stdout.write(text);
    // Never over a file: it may be a filled-in tokens file, whose secrets the template would wipe.
    if (existsSync(argv.out)) throw new HarnessError('USAGE', `--out ${argv.out} exists: name a new file (a template never replaces one)`);
    try {
      writeFileAtomic(argv.out, text);
    } catch (error) {
      throw new HarnessError('USAGE', `cannot write --out ${argv.out}: ${(error as Error).message}`);
    }
    process.stdout.write(`touchstone: wrote ${argv.out}: fill in a token for each role, then run --tokens ${argv.out}\n`);
  },
};

/** Its options and work; harness/cli/main.ts names and describes it. */
export const command = {
  builder: (yargs: Argv) =>
    yargs
      .command(templateCommand)
      .demandCommand(1, 'name a tokens command: template')
      .example('$0 tokens template > tokens.yaml', 'every role of the world, to map to tokens of your implementation'),
  handler: () => {},
};
