// `touchstone baseline update FILE --from DIR [--fix]`: writes a run's failures into a
// baseline file and prints what changed (harness/report/baseline-update.ts).
import { existsSync, readFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { EXIT } from '../core/errors.js';
import { guarded } from './guarded.js';
import { writeFileAtomic } from '../core/write-file-atomic.js';
import { updateBaseline, type BaselineChangeKind } from '../report/baseline-update.js';
import { readResults } from '../report/read-results.js';
import { plural } from '../core/plural.js';

interface UpdateOptions {
  file: string;
  from: string;
  fix: boolean;
}

const MARK: Record<BaselineChangeKind, string> = {
  added: '+ added  ',
  removed: '- removed',
  message: '~ message',
  passes: '! passes ',
  differs: '! differs',
  expired: '! expired',
  skipped: '! skipped',
};

const updateCommand = {
  command: 'update <file>',
  describe: "Write a run's failures into a baseline file (created if missing) and print what changed",
  builder: (yargs: Argv) =>
    yargs
      .positional('file', { type: 'string', demandOption: true, describe: 'the baseline YAML file (as given to --baseline)' })
      .option('from', { type: 'string', demandOption: true, describe: 'the report folder (or results.json) of the run' })
      .option('fix', {
        type: 'boolean',
        default: false,
        describe: 'also remove entries of cases that pass now, and take today’s message where a failure changed its message',
      })
      .example('$0 baseline update known.yaml --from reports/latest', 'add new failures; report passing, changed and expired entries')
      .example('$0 baseline update known.yaml --from reports/latest --fix', 'make the file match the run'),
  handler: (argv: UpdateOptions) => {
    process.exitCode = guarded(() => {
      const results = readResults(argv.from);
      const before = existsSync(argv.file) ? readFileSync(argv.file, 'utf8') : undefined;
      const { text, changes } = updateBaseline(before, argv.file, results, { fix: argv.fix, today: results.started_at.slice(0, 10) });
      for (const change of changes) process.stdout.write(`${MARK[change.kind]} ${change.case}: ${change.detail}\n`);
      const written = changes.filter((c) => c.written).length;
      if (written > 0 || before === undefined) writeFileAtomic(argv.file, text);
      const pending = changes.length - written;
      process.stdout.write(
        `touchstone: ${written > 0 ? `${plural(written, 'change')} written to ${argv.file}` : `${argv.file} needs no change`}` +
          `${pending > 0 ? `; ${pending} to look at${argv.fix ? '' : ' (--fix removes passing entries and takes new messages)'}` : ''}\n`,
      );
      return EXIT.conforming;
    });
  },
};

/** Its options and work; harness/cli/main.ts names and describes it. */
export const command = {
  builder: (yargs: Argv) =>
    yargs
      .command(updateCommand)
      .demandCommand(1, 'name a baseline command: update')
      .example('$0 baseline update known.yaml --from reports/latest', "write the run's failures into known.yaml"),
  handler: () => {},
};
