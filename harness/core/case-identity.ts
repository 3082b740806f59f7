// What every suite format (service, plugin, compiler) shares in its lint: the identity of
// its cases and the requirements they cite.
import type { RequirementRegistry } from './requirement-registry.js';

/**
 * What every suite format shares: unique ids and titles within a suite, and only known
 * requirement ids. `where` names a case's place in messages ("file.yaml case id").
 */
export function caseIdentityProblems(
  cases: { id: string; title: string; requirements: string[] }[],
  registry: RequirementRegistry,
  where: (id: string) => string,
): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  const titles = new Set<string>();
  for (const testCase of cases) {
    const at = where(testCase.id);
    if (ids.has(testCase.id)) problems.push(`${at}: duplicate id`);
    if (titles.has(testCase.title)) problems.push(`${at}: duplicate title`);
    ids.add(testCase.id);
    titles.add(testCase.title);
    for (const id of testCase.requirements) if (!registry.has(id)) problems.push(`${at}: unknown requirement ${id}`);
  }
  return problems;
}
