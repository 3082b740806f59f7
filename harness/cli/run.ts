// `touchstone run`: lint the suites, start the embedded reference unless --target is
// given, check the target answers, then run the cases through Playwright and turn the
// results into an exit code (0 conforming, 1 failures, 2 usage, 3 unreachable, 4 incomplete).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Argv } from 'yargs';
import { HarnessError } from '../core/errors.js';
import { CASSETTE_SUFFIX, sidecarFolder, type Cassette } from '../cassette/cassette-format.js';
import { loadSchemaRegistry } from '../http/schema-registry.js';
import { readTokensFile } from '../http/tokens-file.js';
import { formatProxySummary } from '../proxy/proxy-summary.js';
import { createProxy, type RunningProxy } from '../proxy/proxy-server.js';
import { loadRequirementRegistry } from '../suite/requirement-registry.js';
import type { RunConfig } from '../core/run-config.js';
import { lintSuites, loadSuites, selectCases } from '../suite/suite-loader.js';
import { shellWord } from '../core/shell-word.js';
import { suitePaths } from '../core/suite-paths.js';
import { readWorldTokens } from '../suite/world-tokens.js';
import { exitCodeOf } from '../core/errors.js';
import { reportDirectory, runConformance } from './conformance-process.js';
import { startReferenceService, type RunningService } from './embedded-reference.js';
import { normaliseTarget, probeTarget } from './service-target.js';

export interface RunOptions {
  target?: string;
  tokens?: string;
  suite: string[];
  only: string[];
  grep?: string;
  out?: string;
  strict: boolean;
  baseline?: string;
  record?: string;
  replay?: string;
  'allow-incomplete': boolean;
}

/** The cassette, within a --record/--replay folder, of the requests made outside any case. */
export const RUN_CASSETTE = '_run/probe';

export const runCommand = {
  command: 'run',
  describe: 'Run the service conformance suites against a target (default: the embedded reference)',
  builder: (yargs: Argv) =>
    yargs
      .option('target', { type: 'string', describe: 'base URL of the implementation under test' })
      .option('tokens', { type: 'string', describe: 'YAML map of role -> token for --target (values may be ${ENV_VAR})' })
      .option('suite', {
        type: 'array',
        string: true,
        default: [] as string[],
        describe: 'run only these suites (area folders under suites/service)',
      })
      .option('only', {
        type: 'array',
        string: true,
        default: [] as string[],
        describe: 'run only this case, <suite>/<case id> as reports name it (repeatable)',
      })
      .option('grep', { type: 'string', describe: 'run only the cases whose <suite>/<case id> or title matches this regular expression' })
      .option('out', { type: 'string', describe: 'report directory (default reports/<timestamp>)' })
      .option('strict', { type: 'boolean', default: false, describe: 'SHOULD failures count as FAIL' })
      .option('allow-incomplete', {
        type: 'boolean',
        default: false,
        describe: 'exit 0 when nothing failed even though MUST requirements went unchecked (missing tokens or capabilities)',
      })
      .option('baseline', { type: 'string', describe: 'YAML list of known failures {case, reason}' })
      .option('record', { type: 'string', describe: 'record every case into DIR/<suite>/<case>.cassette.json (through the proxy)' })
      .option('replay', { type: 'string', describe: 'run against the recordings in DIR instead of a target (offline)' })
      .conflicts('record', 'replay'),
  handler: async (argv: RunOptions) => {
    process.exitCode = await run(argv);
  },
};

export async function run(options: RunOptions): Promise<number> {
  let service: RunningService | undefined;
  let proxy: RunningProxy | undefined;
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'touchstone-run-'));
  try {
    const registry = loadRequirementRegistry(suitePaths.requirements);
    const worldTokens = readWorldTokens();
    const suites = loadSuites(suitePaths.service, options.suite);
    // Checked here, before anything starts: a key or pattern that selects nothing is a usage error.
    selectCases(suites, { only: options.only ?? [], grep: options.grep });
    if (options.tokens && !options.target && !options.replay)
      throw new HarnessError('USAGE', '--tokens maps roles for --target; the embedded reference has its own tokens');
    // Replay needs the tokens only to recognise roles: any values work if each role keeps its own.
    const tokens = options.tokens ? readTokensFile(options.tokens) : options.target && !options.replay ? {} : worldTokens;
    const problems = lintSuites(suites, {
      registry,
      schemas: loadSchemaRegistry(suitePaths.schemas),
      roles: new Set(['anonymous', ...Object.keys(worldTokens)]),
    });
    if (problems.length) throw new HarnessError('CONFIG', `the suites do not pass the lint:\n  ${problems.join('\n  ')}`);

    if (!options.target && !options.replay) service = await startReferenceService();
    const upstream = options.target ? normaliseTarget(options.target) : service?.url;
    const cassettes = options.record ?? options.replay;
    if (cassettes) {
      // In replay the target (if named) is never contacted: the proxy has no upstream client.
      proxy = await createProxy({
        mode: options.record ? 'record' : 'replay',
        target: upstream,
        cassette: path.resolve(cassettes),
        redaction: { secrets: tokens },
      });
    }
    const targetUrl = proxy?.url ?? upstream!;
    const capabilities = await probeTarget(targetUrl, cassettes ? RUN_CASSETTE : undefined);

    const startedAt = new Date();
    const outDir = reportDirectory(options.out, startedAt);
    const config: RunConfig = {
      kind: 'service',
      targetUrl,
      embedded: !options.target && !options.replay,
      tokens,
      cassettes: !!cassettes,
      suites: options.suite,
      only: options.only ?? [],
      grep: options.grep,
      rerun: rerunCommand(options),
      outDir,
      strict: options.strict,
      capabilities: [...capabilities],
      baselineFile: options.baseline && path.resolve(options.baseline),
      startedAt: startedAt.toISOString(),
    };
    const results = await runConformance(config, 'harness/suite/conformance.config.ts', scratch);
    if (proxy) {
      const { summary, written } = await proxy.close();
      proxy = undefined;
      process.stdout.write(formatProxySummary(summary));
      // A full re-recording leaves no cassette of a case that no longer exists.
      const everything = options.suite.length === 0 && (options.only ?? []).length === 0 && options.grep === undefined;
      if (options.record && everything) removeStaleCassettes(path.resolve(options.record), written);
    }

    return exitCodeOf(results, options['allow-incomplete']);
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    process.stderr.write(`touchstone: ${error.message}\n`);
    return error.exitCode;
  } finally {
    await proxy?.close();
    await service?.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `touchstone run` against the same target as this run (tokens, recordings, strictness), for reports to add `--only <case>` to. */
function rerunCommand(options: RunOptions): string {
  const words = ['npx', 'touchstone', 'run'];
  if (options.target) words.push('--target', options.target);
  if (options.tokens) words.push('--tokens', options.tokens);
  if (options.replay) words.push('--replay', options.replay);
  if (options.strict) words.push('--strict');
  return words.map(shellWord).join(' ');
}

function removeStaleCassettes(dir: string, written: Cassette[]): void {
  const kept = new Set(written.map((c) => path.join(dir, `${c.name}${CASSETTE_SUFFIX}`)));
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(dir, entry);
    if (!file.endsWith(CASSETTE_SUFFIX) || kept.has(file)) continue;
    rmSync(file);
    rmSync(path.join(path.dirname(file), sidecarFolder(file).prefix), { recursive: true, force: true });
    process.stdout.write(`touchstone: removed ${path.relative(process.cwd(), file)} (no such case any more)\n`);
  }
}
