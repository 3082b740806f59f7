// What can be known of the suites' strength without running anything: every MUST
// requirement has a case, and a built-in fault that breaks it which a case citing it
// could catch; every fault has a case that could catch it. `touchstone mutate` then shows
// the cases really do; this lint keeps a new requirement or fault from arriving without
// either (npm test runs it).
import { loadCompilerSuites, loadPluginSuites } from '../plugin/plugin-suite-loader.js';
import { protocolCaseFacts, serviceCaseFacts } from '../suite/case-facts.js';
import type { RequirementRegistry } from '../suite/requirement-registry.js';
import { loadSuites } from '../suite/suite-loader.js';
import type { Requirement } from '../core/suite-format.js';
import { suitePaths } from '../core/suite-paths.js';
import type { Fault } from './fault-registry.js';

/** Every problem, one line each; empty when each MUST requirement can be shown caught. */
export function lintFaultCoverage(
  requirements: Iterable<Requirement>,
  faults: Fault[],
  cases: { id: string; requirements: string[] }[],
): string[] {
  const problems: string[] = [];
  const citing = (id: string) => cases.filter((c) => c.requirements.includes(id));
  for (const fault of faults) {
    if (!fault.breaks.some((id) => citing(id).length > 0))
      problems.push(`fault ${fault.id}: no case cites ${fault.breaks.join(', ')}, so nothing can catch it`);
  }
  for (const requirement of requirements) {
    if (requirement.level !== 'MUST') continue;
    const where = `MUST requirement ${requirement.id}`;
    if (citing(requirement.id).length === 0) {
      problems.push(`${where}: no case cites it`);
      continue;
    }
    if (!faults.some((fault) => fault.breaks.includes(requirement.id)))
      problems.push(`${where}: no built-in fault breaks it (add one to suites/faults and the reference)`);
  }
  return problems;
}

/** Every case of every side, with the requirements it cites, as the lint needs them. */
export function allCases(registry: RequirementRegistry): { id: string; requirements: string[] }[] {
  return [
    ...loadSuites(suitePaths.service).flatMap((suite) => suite.cases.map((c) => serviceCaseFacts(suite.name, c, registry))),
    ...[...loadPluginSuites(suitePaths.plugin), ...loadCompilerSuites(suitePaths.compiler)].flatMap((suite) =>
      suite.cases.map((c) => protocolCaseFacts(suite.name, c, registry)),
    ),
  ];
}
