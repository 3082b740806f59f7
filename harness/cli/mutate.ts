// `touchstone mutate` (npm run kill-matrix): the kill matrix of harness/mutate/ against
// the reference implementations. One reference service process (this one, or --target a
// `touchstone serve`), the reference plugin and compiler started per case with
// --fault=ID or --variant=ID. Prints fault → the cases that caught it and variation → the
// cases that judged it, writes kill-matrix.json and, per side, the four reports of the
// faultless run with each requirement's faults and the cases that caught them. Exit 1 when
// a fault is caught by no case, a MUST requirement has no caught fault, a variation is
// judged non-conforming, or a case fails against the faultless reference; 2 usage; 3 unreachable.
import path from 'node:path';
import type { Argv } from 'yargs';
import { EXIT, HarnessError } from '../core/errors.js';
import { loadSchemaRegistry } from '../http/schema-registry.js';
import { createHttpTransport } from '../http/transport.js';
import { DEFAULT_CASE_TIMEOUT_S } from '../core/run-config.js';
import { allCases, lintSwitchCoverage } from '../mutate/switch-coverage.js';
import { loadFaultRegistry, loadVariantRegistry, sharedNames, type Fault, type Variant } from '../mutate/switch-registry.js';
import { formatKillMatrix, formatFaultLine, formatVariantLine } from '../mutate/kill-matrix-text.js';
import { compilerSide, pluginSide, serviceSide } from '../mutate/kill-matrix-sides.js';
import { isComplete, runKillMatrix, type BaselineRun, type KillMatrix, type SideRunner } from '../mutate/kill-matrix.js';
import { loadCompilerSuites, loadPluginSuites } from '../plugin/plugin-suite-loader.js';
import { buildResults, caseResult } from '../report/build-results.js';
import { writeReports } from '../report/write-reports.js';
import { loadRequirementRegistry, requirementsFor, sideOf, type RequirementRegistry, type RunKind } from '../core/requirement-registry.js';
import { loadSuites } from '../suite/suite-loader.js';
import { packageVersion } from '../../lib/project-files.js';
import { PROJECT_ROOT, suitePaths } from '../core/suite-paths.js';
import { readWorldRoles, readWorldTokens } from '../suite/world-tokens.js';
import { writeFileAtomic } from '../core/write-file-atomic.js';
import { fingerprintOf } from '../core/fingerprint.js';
import { reportDirectory } from '../run/conformance-process.js';
import { startReferenceService, type RunningService } from './embedded-reference.js';
import { loadFixtureDescriptors } from '../plugin/fixture-descriptors.js';
import { normaliseTarget, probeTarget } from './service-target.js';
import { makeDirectory } from '../../lib/make-directory.js';

const SIDES: RunKind[] = ['service', 'plugin', 'compiler'];
const PLUGIN_COMMAND = ['node', path.join(PROJECT_ROOT, 'bin/protoc-gen-touchstone.js')];
const COMPILER_COMMAND = ['node', path.join(PROJECT_ROOT, 'bin/touchstone.js'), 'protoc'];
const LIMITS = { timeoutMs: 60_000, maxOutputBytes: 256 * 1024 * 1024, cwd: PROJECT_ROOT };

interface MutateOptions {
  side: string[];
  target?: string;
  out?: string;
  /** Only these faults and variations (the faultless run of their sides still runs in full). */
  fault?: string[];
  variant?: string[];
  /** Only the cases of these service suites, and the faults and variations they run. */
  suite?: string[];
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
      .option('fault', { type: 'array', string: true, describe: 'only this fault (repeatable; with --variant, those too)' })
      .option('variant', { type: 'array', string: true, describe: 'only this variation (repeatable; with --fault, those too)' })
      .option('suite', {
        type: 'array',
        string: true,
        describe: 'only the cases of this service suite (repeatable), and the faults and variations they run; implies --side service',
      })
      .example(
        '$0 mutate --side service --out reports/kill-matrix',
        'which cases catch each fault of the reference service, and accept each variation',
      )
      .example('$0 mutate --variant social.duplicate-accepted', 'whether the suites judge one allowed variation conforming'),
  handler: async (argv: MutateOptions) => {
    process.exitCode = await mutate(argv);
  },
};

/** The faults and variations each reference knows: the registries must name exactly these (an unknown one would fail every case it runs). */
const REFERENCE_SWITCHES: Record<RunKind, () => Promise<{ faults: readonly string[]; variants: readonly string[] }>> = {
  service: async () => {
    const { SERVICE_FAULTS, SERVICE_VARIANTS } = await import('../../reference-impl/service/service.js');
    return { faults: SERVICE_FAULTS, variants: SERVICE_VARIANTS };
  },
  plugin: async () => {
    const { PLUGIN_FAULTS, PLUGIN_VARIANTS } = await import('../../reference-impl/plugin/faults.js');
    return { faults: PLUGIN_FAULTS, variants: PLUGIN_VARIANTS };
  },
  compiler: async () => {
    const { COMPILER_FAULTS, COMPILER_VARIANTS } = await import('../../reference-impl/compiler/faults.js');
    return { faults: COMPILER_FAULTS, variants: COMPILER_VARIANTS };
  },
};

export async function checkRegistryAgainstReferences(faults: Fault[], variants: Variant[], sides: RunKind[] = SIDES): Promise<string[]> {
  const problems: string[] = [];
  for (const side of sides) {
    const known = await REFERENCE_SWITCHES[side]();
    const compare = (
      kind: 'fault' | 'variation',
      folder: string,
      references: readonly string[],
      registered: { id: string; side: RunKind }[],
    ) => {
      const listed = new Set(registered.filter((s) => s.side === side).map((s) => s.id));
      for (const id of references)
        if (!listed.has(id)) problems.push(`the reference ${side} has ${kind} ${id}, which ${folder} does not describe`);
      for (const id of listed)
        if (!references.includes(id)) problems.push(`${folder} describes ${side} ${kind} ${id}, which the reference ${side} does not have`);
    };
    compare('fault', 'suites/faults', known.faults, faults);
    compare('variation', 'suites/variants', known.variants, variants);
  }
  return problems;
}

/** The switches --fault and --variant name, or all when neither is given; an unknown name is a usage error. */
function chosen<T extends { id: string }>(all: T[], named: string[] | undefined, other: string[] | undefined, kind: string): T[] {
  if (named === undefined && other === undefined) return all;
  const unknown = (named ?? []).filter((id) => !all.some((s) => s.id === id));
  if (unknown.length > 0) throw new HarnessError('USAGE', `unknown ${kind} ${unknown.join(', ')} (on the sides run)`);
  return all.filter((s) => (named ?? []).includes(s.id));
}

interface Started {
  service?: RunningService;
  close?(): void;
}

const requirementsOf = (registry: RequirementRegistry, sides: RunKind[]) => sides.flatMap((side) => requirementsFor(registry, side));

async function serviceRunner(registry: RequirementRegistry, options: MutateOptions, started: Started): Promise<SideRunner> {
  // The faultless run reads the world's Git data (the contents suite): built from the start.
  if (!options.target) started.service = await startReferenceService({ warmGit: true });
  const url = options.target ? normaliseTarget(options.target) : started.service!.url;
  const capabilities = await probeTarget(url);
  if (!capabilities.has('control.faults'))
    throw new HarnessError('USAGE', `${url} cannot switch faults (no control.faults capability): point --target at touchstone serve`);
  const transport = createHttpTransport();
  started.close = () => transport.close();
  return serviceSide(loadSuites(suitePaths.service, options.suite ?? []), {
    url,
    tokens: readWorldTokens(),
    send: transport.send,
    capabilities,
    registry,
    strict: false,
    roles: readWorldRoles(),
    schemas: loadSchemaRegistry(suitePaths.schemas),
    // The bound `touchstone run` gives a case by default: a fault that hangs costs a case no more.
    caseTimeoutMs: DEFAULT_CASE_TIMEOUT_S * 1000,
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
    const sides = options.suite ? ['service' as const] : options.side.length > 0 ? (options.side as RunKind[]) : SIDES;
    const registry = loadRequirementRegistry(suitePaths.requirements);
    const allFaults = loadFaultRegistry(suitePaths.faults, registry).filter((f) => sides.includes(f.side));
    const allVariants = loadVariantRegistry(suitePaths.variants, registry).filter((v) => sides.includes(v.side));
    const problems = [...sharedNames(allFaults, allVariants), ...(await checkRegistryAgainstReferences(allFaults, allVariants, sides))];
    if (problems.length > 0)
      throw new HarnessError('CONFIG', `the switch registries and the references disagree:\n  ${problems.join('\n  ')}`);
    // What the suites lack (a MUST without a fault, a choice without a variation) refuses a
    // whole run; a run narrowed by --suite, --fault or --variant, a step of adding them, says so and goes on.
    const sideCases = allCases(registry).filter((c) => sides.includes(sideOf(c.requirements[0] ?? '')));
    const gaps = lintSwitchCoverage(requirementsOf(registry, sides), allFaults, allVariants, sideCases);
    const narrowed = options.suite !== undefined || options.fault !== undefined || options.variant !== undefined;
    if (gaps.length > 0 && !narrowed)
      throw new HarnessError('CONFIG', `the suites and the switch registries do not pass the lint:\n  ${gaps.join('\n  ')}`);
    if (gaps.length > 0)
      process.stderr.write(`touchstone: ${gaps.length} lint problems, which a whole run refuses:\n  ${gaps.join('\n  ')}\n`);
    let faults = chosen(allFaults, options.fault, options.variant, 'fault');
    let variants = chosen(allVariants, options.variant, options.fault, 'variation');

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
    // Narrowed to some suites: only the switches their cases can judge, and the requirements they cite.
    const cases = runners.flatMap((r) => r.cases);
    const cited = (ids: string[]) => cases.some((c) => c.requirements.some((id) => ids.includes(id)));
    let inScope = requirementsOf(registry, sides);
    if (options.suite) {
      // Decision: a narrowed run judges the faults of the areas it names (suites/faults/<area>.yaml,
      // the shared ones of conventions.yaml with --suite conventions), each where its cases cite
      // what it breaks. A shared fault breaking a cross-cutting rule is cited by every area's
      // generated cases, but caught where its deviation shows (an unknown route: the conventions
      // suite): another area's run missing it says nothing of that area.
      const named = new Set(options.suite);
      faults = faults.filter((f) => named.has(path.basename(f.file, path.extname(f.file))) && cited(f.breaks));
      variants = variants.filter((v) => cited(v.requirements));
      // A requirement the run's faults break, or that no fault breaks at all (a gap of the
      // registry): one whose faults all belong to other areas is theirs to cover.
      const broken = (faults: Fault[], id: string) => faults.some((f) => f.breaks.includes(id));
      inScope = inScope.filter((r) => cited([r.id]) && (broken(faults, r.id) || !broken(allFaults, r.id)));
    }
    // Narrowed to some switches: a MUST counts as uncovered only among those the faults run break.
    if (options.fault !== undefined || options.variant !== undefined)
      inScope = inScope.filter((r) => faults.some((f) => f.breaks.includes(r.id)));
    process.stdout.write(
      `touchstone: kill matrix of ${faults.length} faults and ${variants.length} variations over ${runners.reduce((n, r) => n + r.cases.length, 0)} cases (${sides.join(', ')})\n`,
    );

    const requirements = inScope.map((r) => ({ id: r.id, level: r.level, basis: r.basis, side: sideOf(r.id) }));
    const { matrix, baseline } = await runKillMatrix({
      faults,
      variants,
      runners,
      requirements,
      // A case may warn on a choice it does not cite (a pagination walk's probes): a choice all the same.
      choices: [...registry.values()].filter((r) => r.basis === 'choice').map((r) => r.id),
      onFault: (result) => process.stdout.write(`${formatFaultLine(result)}\n`),
      onVariant: (result) => process.stdout.write(`${formatVariantLine(result)}\n`),
    });

    makeDirectory(outDir);
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
