// `touchstone target check --target URL [--tokens FILE]`: the doctor of a target before a run
// (target-check.ts), printed as a checklist with a fix under each problem. Exit 0 when nothing
// blocks a run, 1 when something would make its verdict wrong, 3 when the target does not
// answer like the service at all (as `touchstone run` stops).
import type { Argv } from 'yargs';
import { EXIT, HarnessError } from '../core/errors.js';
import { suitePaths } from '../core/suite-paths.js';
import { readTokensFile } from '../http/tokens-file.js';
import { colourWanted, paint } from '../report/console-colour.js';
import { loadSuites } from '../suite/suite-loader.js';
import { readWorldTokens } from '../suite/world-tokens.js';
import { startReferenceService, type RunningService } from './embedded-reference.js';
import { normaliseTarget } from './service-target.js';
import { checkTarget, type CheckLine, type Mark } from './target-check.js';

interface CheckOptions {
  target: string;
  tokens?: string;
  suite: string[];
}

const LABEL: Record<Mark, string> = { ok: ' ok ', warn: 'warn', fail: 'FAIL', skip: 'skip' };
const OUTCOME_OF: Record<Mark, 'PASS' | 'WARN' | 'FAIL' | 'SKIP'> = { ok: 'PASS', warn: 'WARN', fail: 'FAIL', skip: 'SKIP' };

const checkCommand = {
  command: 'check',
  describe: 'Check a target before a run: it answers like the service, its capabilities work, its tokens and world are right',
  builder: (yargs: Argv) =>
    yargs
      .option('target', { type: 'string', demandOption: true, describe: 'base URL of the implementation' })
      .option('tokens', { type: 'string', describe: 'the tokens file of the run (role: token)' })
      .option('suite', {
        type: 'array',
        string: true,
        default: [] as string[],
        describe: 'check only what these suites need: their world data, roles and capabilities (default: every suite)',
      })
      .example('$0 target check --target http://127.0.0.1:8080 --tokens tokens.yaml', 'before `touchstone run` with the same options'),
  handler: async (argv: CheckOptions) => {
    let service: RunningService | undefined;
    try {
      const target = normaliseTarget(argv.target);
      const tokens = argv.tokens ? readTokensFile(argv.tokens, Object.keys(readWorldTokens())) : {};
      const colour = colourWanted(process.stdout);
      process.stdout.write(`touchstone: checking ${target}\n`);
      const print = (line: CheckLine) => {
        process.stdout.write(`  [${paint(colour, OUTCOME_OF[line.mark], LABEL[line.mark])}] ${line.text}\n`);
        if (line.fix && line.mark !== 'ok') process.stdout.write(`         fix: ${line.fix}\n`);
      };
      const lines = await checkTarget(
        {
          target,
          tokens,
          suites: () => loadSuites(suitePaths.service, argv.suite),
          reference: async () => {
            service = await startReferenceService({ warmGit: true });
            return { url: service.url, tokens: readWorldTokens() };
          },
        },
        print,
      );
      const failed = lines.filter((l) => l.mark === 'fail').length;
      const warned = lines.filter((l) => l.mark === 'warn').length;
      process.stdout.write(
        failed > 0
          ? `touchstone: ${failed} problem${failed === 1 ? '' : 's'} would make a run's verdict wrong; fix ${failed === 1 ? 'it' : 'them'} first\n`
          : `touchstone: nothing blocks a run${warned > 0 ? ` (${warned} warning${warned === 1 ? '' : 's'}: cases that will SKIP)` : ''}\n`,
      );
      // No service at all (the preflight's verdict) is the run's exit 3; other problems 1.
      const reached = service !== undefined;
      process.exitCode = failed === 0 ? EXIT.conforming : reached ? EXIT.failed : EXIT.unreachable;
    } catch (error) {
      if (!(error instanceof HarnessError)) throw error;
      process.stderr.write(`touchstone: ${error.message}\n`);
      process.exitCode = error.exitCode;
    } finally {
      await service?.close();
    }
  },
};

/** Its options and work; harness/cli/main.ts names and describes it. */
export const command = {
  builder: (yargs: Argv) =>
    yargs
      .command(checkCommand)
      .demandCommand(1, 'name a target command: check')
      .example('$0 target check --target http://127.0.0.1:8080 --tokens tokens.yaml', 'what a run of this target needs and lacks'),
  handler: () => {},
};
