// What can be known of the suites' strength without running anything:
// - every MUST requirement has a case, and a built-in fault that breaks it which a case
//   citing it could catch; every fault has a case that could catch it, and breaks something
//   the spec's words force (a fault breaking only choices would be a variation);
// - every choice (a requirement whose basis is `choice`) a case touches has a built-in
//   variation that reads it otherwise, every variation has cases that run with it, and each
//   service area and each side of the plugin protocol has at least one variation.
// `touchstone mutate` then shows the cases really do catch the faults and accept the
// variations; this lint keeps a new requirement, fault or choice from arriving without
// them (npm test runs it).
import { loadCompilerSuites, loadPluginSuites } from '../plugin/plugin-suite-loader.js';
import { protocolCaseFacts, serviceCaseFacts } from '../suite/case-facts.js';
import type { RequirementRegistry } from '../core/requirement-registry.js';
import { loadSuites } from '../suite/suite-loader.js';
import type { Requirement } from '../core/suite-format.js';
import { suitePaths } from '../core/suite-paths.js';
import type { Fault, Variant } from './switch-registry.js';
import { sideOf } from '../core/requirement-registry.js';

/** Every problem, one line each; empty when each MUST requirement can be shown caught. */
export function lintSwitchCoverage(
  requirements: Iterable<Requirement>,
  faults: Fault[],
  variants: Variant[],
  cases: { id: string; suite: string; requirements: string[] }[],
): string[] {
  const problems: string[] = [];
  const listed = [...requirements];
  const byId = new Map(listed.map((r) => [r.id, r]));
  const citing = (id: string) => cases.filter((c) => c.requirements.includes(id));
  for (const fault of faults) {
    if (!fault.breaks.some((id) => citing(id).length > 0))
      problems.push(`fault ${fault.id}: no case cites ${fault.breaks.join(', ')}, so nothing can catch it`);
    if (fault.breaks.every((id) => byId.get(id)?.basis === 'choice'))
      problems.push(`fault ${fault.id}: breaks only choices (${fault.breaks.join(', ')}), which the spec leaves open: make it a variation`);
  }
  for (const variant of variants) {
    if (!variant.requirements.some((id) => citing(id).length > 0))
      problems.push(`variation ${variant.id}: no case cites ${variant.requirements.join(', ')}, so no case runs with it`);
  }
  for (const requirement of listed) {
    if (
      requirement.basis === 'choice' &&
      citing(requirement.id).length > 0 &&
      !variants.some((v) => v.requirements.includes(requirement.id))
    )
      problems.push(
        `choice ${requirement.id}: cases check the reference's reading, and no variation reads it otherwise (add one to suites/variants and the reference)`,
      );
    if (requirement.level !== 'MUST') continue;
    const where = `MUST requirement ${requirement.id}`;
    if (citing(requirement.id).length === 0) {
      problems.push(`${where}: no case cites it`);
      continue;
    }
    if (!faults.some((fault) => fault.breaks.includes(requirement.id)))
      problems.push(`${where}: no built-in fault breaks it (add one to suites/faults and the reference)`);
  }
  // Each service area (a suite of its own) and each side of the plugin protocol reads some open point otherwise.
  const places = new Set(cases.map((c) => (sideOf(c.requirements[0] ?? '') === 'service' ? c.suite : sideOf(c.requirements[0] ?? ''))));
  for (const place of places) {
    const covered = variants.some((v) =>
      v.side === 'service'
        ? cases.some((c) => c.suite === place && c.requirements.some((id) => v.requirements.includes(id)))
        : v.side === place,
    );
    if (!covered) problems.push(`${place}: no built-in variation runs its cases (every area and protocol side needs one)`);
  }
  return problems;
}

/** Every case of every side, with its suite and the requirements it cites, as the lint needs them. */
export function allCases(registry: RequirementRegistry): { id: string; suite: string; requirements: string[] }[] {
  return [
    ...loadSuites(suitePaths.service).flatMap((suite) => suite.cases.map((c) => serviceCaseFacts(suite.name, c, registry))),
    ...[...loadPluginSuites(suitePaths.plugin), ...loadCompilerSuites(suitePaths.compiler)].flatMap((suite) =>
      suite.cases.map((c) => protocolCaseFacts(suite.name, c, registry)),
    ),
  ];
}
