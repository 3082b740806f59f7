// The requirement registry: every requirement the spec states, loaded from
// suites/requirements/*.yaml and validated. Ids are unique across all files.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { HarnessError } from './errors.js';
import { requirementsSchemaFile, type Requirement } from './suite-format.js';
import { compileSchemaFile, createAjv, readValidatedFile } from './validated-file.js';
import { traceLoad } from './load-trace.js';

export type RequirementRegistry = ReadonlyMap<string, Requirement>;

/** What a run checks: the service (specs 1-2), or one side of the plugin protocol (spec 3). */
export type { RunKind } from './results.js';
import type { RunKind } from './results.js';
import { projectPath } from '../../lib/project-files.js';

/** Ids starting with `plugin.` and `compiler.` are spec 3's two sides; every other id belongs to the service. */
export function sideOf(requirementId: string): RunKind {
  return requirementId.startsWith('plugin.') ? 'plugin' : requirementId.startsWith('compiler.') ? 'compiler' : 'service';
}

/** The requirements a run of this kind reports on (and lists as untested when no case checks them). */
export function requirementsFor(registry: RequirementRegistry, kind: RunKind): Requirement[] {
  return [...registry.values()].filter((r) => sideOf(r.id) === kind);
}

const SCHEMA = projectPath(requirementsSchemaFile.path);

export function listYamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => path.join(dir, f));
}

export function loadRequirementRegistry(dir: string): RequirementRegistry {
  traceLoad('requirements');
  const validate = compileSchemaFile(createAjv(), SCHEMA);
  const registry = new Map<string, Requirement>();
  for (const file of listYamlFiles(dir)) {
    for (const requirement of readValidatedFile<Requirement[]>(file, validate)) {
      if (registry.has(requirement.id)) {
        throw new HarnessError('CONFIG', `${file}: requirement ${requirement.id} is defined twice`);
      }
      registry.set(requirement.id, requirement);
    }
  }
  return registry;
}
