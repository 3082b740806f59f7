// `touchstone mutate` (npm run kill-matrix): the kill matrix of harness/mutate/ against
// the reference implementations. One reference service process (this one, or --target a
// `touchstone serve`), the reference plugin and compiler started per case with
// --fault=ID. Prints fault → the cases that caught it, writes kill-matrix.json and, per
// side, the four reports of the faultless run with each requirement's faults and the
// cases that caught them. Exit 1 when a fault is caught by no case, a MUST requirement has
// no caught fault, or a case fails against the faultless reference; 2 usage; 3 unreachable.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Argv } from 'yargs';
import { EXIT, HarnessError } from '../core/errors.js';
import { createHttpTransport } from '../http/transport.js';
import { allCases, lintFaultCoverage } from '../mutate/fault-coverage.js';
import { loadFaultRegistry, type Fault } from '../mutate/fault-registry.js';
import { formatKillMatrix, formatFaultLine } from '../mutate/kill-matrix-text.js';
import { compilerSide, pluginSide, serviceSide } from '../mutate/kill-matrix-sides.js';
import { isComplete, runKillMatrix, type BaselineRun, type KillMatrix, type SideRunner } from '../mutate/kill-matrix.js';
import { loadCompilerSuites, loadPluginSuites } from '../plugin/plugin-suite-loader.js';
import { buildResults, caseResult } from '../report/build-results.js';
import { writeReports } from '../report/write-reports.js';
import { loadRequirementRegistry, requirementsFor, sideOf, type RequirementRegistry, type RunKind } from '../suite/requirement-registry.js';
import { loadSuites } from '../suite/suite-loader.js';
import { packageVersion } from '../../lib/project-files.js';
import { PROJECT_ROOT, suitePaths } from '../core/suite-paths.js';
import { readWorldTokens } from '../suite/world-tokens.js';
import { writeFileAtomic } from '../core/write-file-atomic.js';
import { fingerprintOf } from '../core/fingerprint.js';
import { reportDirectory } from './conformance-process.js';
import { startReferenceService, type RunningService } from './embedded-reference.js';
import { loadFixtureDescriptors } from '../plugin/fixture-descriptors.js';
import { normaliseTarget, probeTarget } from './service-target.js';

const SIDES: RunKind[] = ['service', 'plugin', 'compiler'];
const PLUGIN_COMMAND = ['node', path.join(PROJECT_ROOT, 'bin/protoc-gen-touchstone.js')];
const COMPILER_COMMAND = ['node', path.join(PROJECT_ROOT, 'bin/touchstone.js'), 'protoc'];
const LIMITS = { timeoutMs: 60_000, maxOutputBytes: 256 * 1024 * 1024, cwd: PROJECT_ROOT };

interface MutateOptions {
  side: string[];
  target?: string;
  out?: string;
}

/** Its options and work; harness/cli/main.ts names and describes it. */
export const command = {
  builder: (yargs: Argv) =>
    yargs
      .option('side', {
        type: 'array',
        string: true,
        default: [] as string[],
        describe: `only these sides (${SIDES.join(', ')}); default all`,
      })
      .option('target', {
        type: 'string',
        describe: 'a reference service served elsewhere (touchstone serve); default: one started in this process',
      })
      .option('out', { type: 'string', describe: 'report directory (default reports/<timestamp>)' })
      .example('$0 mutate --side service --out reports/kill-matrix', 'which cases catch each fault of the reference service'),
  handler: async (argv: MutateOptions) => {
    process.exitCode = await mutate(argv);
  },
};

/** The faults each reference knows: the registry must name exactly these (an unknown one would fail every case it runs). */
const REFERENCE_FAULTS: Record<RunKind, () => Promise<readonly string[]>> = {
  service: async () => (await import('../../reference-impl/service/service.js')).SERVICE_FAULTS,
  plugin: async () => (await import('../../reference-impl/plugin/faults.js')).PLUGIN_FAULTS,
  compiler: async () => (await import('../../reference-impl/compiler/faults.js')).COMPILER_FAULTS,
};

export async function checkRegistryAgainstReferences(faults: Fault[], sides: RunKind[] = SIDES): Promise<string[]> {
  const problems: string[] = [];
  for (const side of sides) {
    const known = await REFERENCE_FAULTS[side]();
    const listed = new Set(faults.filter((f) => f.side === side).map((f) => f.id));
    for (const id of known)
      if (!listed.has(id)) problems.push(`the reference ${side} has fault ${id}, which suites/faults does not describe`);
    for (const id of listed)
      if (!known.includes(id)) problems.push(`suites/faults describes ${side} fault ${id}, which the reference ${side} does not have`);
  }
  return problems;
}

interface Started {
  service?: RunningService;
  close?(): void;
}

const requirementsOf = (registry: RequirementRegistry, sides: RunKind[]) => sides.flatMap((side) => requirementsFor(registry, side));

async function serviceRunner(registry: RequirementRegistry, options: MutateOptions, started: Started): Promise<SideRunner> {
  if (!options.target) started.service = await startReferenceService();
  const url = options.target ? normaliseTarget(options.target) : started.service!.url;
  const capabilities = await probeTarget(url);
  if (!capabilities.has('control.faults'))
    throw new HarnessError('USAGE', `${url} cannot switch faults (no control.faults capability): point --target at touchstone serve`);
  const transport = createHttpTransport();
  started.close = () => transport.close();
  return serviceSide(loadSuites(suitePaths.service), {
    url,
    tokens: readWorldTokens(),
    send: transport.send,
    capabilities,
    registry,
    strict: false,
  });
}

/** The faultless run of one side as results.json, each requirement with its faults and the cases that caught them. */
function sideReports(
  side: RunKind,
  run: { baseline: BaselineRun[]; matrix: KillMatrix; registry: RequirementRegistry },
  target: { url: string; embedded: boolean },
  started: Date,
  outDir: string,
): void {
  const { baseline, matrix, registry } = run;
  const cases = baseline.filter((b) => b.side === side).map((b) => caseResult(b.case, b.found, b.found));
  const results = buildResults(cases, requirementsFor(registry, side), {
    kind: side,
    target,
    startedAt: started,
    finishedAt: new Date(),
    strict: false,
    version: packageVersion(),
    suites: [],
    fingerprint: fingerprintOf({ kind: side, strict: false, suites: [], roles: Object.keys(readWorldTokens()) }),
  });
  const coverage = new Map(matrix.requirements.map((r) => [r.id, r.faults]));
  for (const requirement of results.requirements) requirement.faults = coverage.get(requirement.id) ?? [];
  writeReports(path.join(outDir, side), results);
}

export async function mutate(options: MutateOptions): Promise<number> {
  const started: Started = {};
  try {
    const unknownSide = options.side.filter((s) => !SIDES.includes(s as RunKind));
    if (unknownSide.length > 0) throw new HarnessError('USAGE', `unknown side ${unknownSide.join(', ')}; known: ${SIDES.join(', ')}`);
    const sides = options.side.length > 0 ? (options.side as RunKind[]) : SIDES;
    const registry = loadRequirementRegistry(suitePaths.requirements);
    const faults = loadFaultRegistry(suitePaths.faults, registry).filter((f) => sides.includes(f.side));
    const problems = [
      ...(await checkRegistryAgainstReferences(faults, sides)),
      ...lintFaultCoverage(requirementsOf(registry, sides), faults, allCases(registry)),
    ];
    if (problems.length > 0)
      throw new HarnessError('CONFIG', `the fault registry, the references and the suites disagree:\n  ${problems.join('\n  ')}`);

    const startedAt = new Date();
    const outDir = reportDirectory(options.out, startedAt);
    const runners: SideRunner[] = [];
    if (sides.includes('service')) runners.push(await serviceRunner(registry, options, started));
    if (sides.includes('plugin'))
      runners.push(
        pluginSide(loadPluginSuites(suitePaths.plugin), {
          command: PLUGIN_COMMAND,
          describe: loadFixtureDescriptors(),
          registry,
          limits: LIMITS,
        }),
      );
    if (sides.includes('compiler'))
      runners.push(compilerSide(loadCompilerSuites(suitePaths.compiler), { command: COMPILER_COMMAND, registry, limits: LIMITS }));
    process.stdout.write(
      `touchstone: kill matrix of ${faults.length} faults over ${runners.reduce((n, r) => n + r.cases.length, 0)} cases (${sides.join(', ')})\n`,
    );

    const requirements = requirementsOf(registry, sides).map((r) => ({ id: r.id, level: r.level, side: sideOf(r.id) }));
    const { matrix, baseline } = await runKillMatrix({
      faults,
      runners,
      requirements,
      onFault: (result) => process.stdout.write(`${formatFaultLine(result)}\n`),
    });

    mkdirSync(outDir, { recursive: true });
    writeFileAtomic(path.join(outDir, 'kill-matrix.json'), `${JSON.stringify(matrix, null, 2)}\n`);
    const targets: Record<RunKind, { url: string; embedded: boolean }> = {
      service: { url: options.target ?? started.service?.url ?? '', embedded: !options.target },
      plugin: { url: PLUGIN_COMMAND.join(' '), embedded: false },
      compiler: { url: COMPILER_COMMAND.join(' '), embedded: false },
    };
    for (const side of sides) sideReports(side, { baseline, matrix, registry }, targets[side], startedAt, outDir);
    process.stdout.write(formatKillMatrix(matrix, outDir));
    return isComplete(matrix) ? EXIT.conforming : EXIT.failed;
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    process.stderr.write(`touchstone: ${error.message}\n`);
    return error.exitCode;
  } finally {
    started.close?.();
    await started.service?.close();
  }
}
