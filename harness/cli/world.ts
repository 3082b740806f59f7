// `touchstone world export`: the fixture world as plain data for implementers (world-export.ts).
import type { Argv } from 'yargs';

const exportCommand = {
  command: 'export',
  describe: 'Write the world expanded into JSON, Git repositories and artifact zips, for an implementation to load',
  builder: (yargs: Argv) =>
    yargs
      .option('out', { type: 'string', demandOption: true, describe: 'a new or empty folder (or an earlier export, replaced)' })
      .example('$0 world export --out world', 'world/README.md explains each file'),
  handler: async (argv: { out: string }) => {
    const { exportWorldTo } = await import('./world-export.js');
    // A HarnessError (a bad --out, an unwritable folder) becomes its message in main.ts.
    const summary = await exportWorldTo(argv.out);
    process.stdout.write(
      `touchstone: wrote the world to ${argv.out}: ${summary.repositories} repositories (${summary.gitRepositories} with Git data), ${summary.artifacts} artifacts, ${summary.tokens} roles\n`,
    );
  },
};

/** Its options and work; harness/cli/main.ts names and describes it. */
export const command = {
  builder: (yargs: Argv) =>
    yargs
      .command(exportCommand)
      .demandCommand(1, 'name a world command: export')
      .example('$0 world export --out world', 'the world as data: world.json, tokens.json, Git repositories, artifact zips'),
  handler: () => {},
};
