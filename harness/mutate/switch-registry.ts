// The registries of the references' built-in switches: faults (suites/faults/*.yaml), each
// breaking requirements, and variations (suites/variants/*.yaml), each reading an open point
// of requirements otherwise. Both are validated against their schema, then linted for what a
// schema cannot say: ids unique across both, requirement ids known, and every switch on one
// side only (service, plugin or compiler), which is how the kill matrix knows where to switch it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import { listYamlFiles, sideOf, type RequirementRegistry, type RunKind } from '../core/requirement-registry.js';
import { compileSchemaFile, createAjv, readValidatedFile } from '../core/validated-file.js';
import { projectPath } from '../../lib/project-files.js';

interface Placed {
  /** What it is switched on in: the reference service, plugin or compiler. */
  side: RunKind;
  file: string;
}

export interface Fault extends Placed {
  id: string;
  does: string;
  /** The requirements the deviation violates; a case catches the fault when it fails citing one. */
  breaks: string[];
}

export interface Variant extends Placed {
  id: string;
  does: string;
  /** The spec's words that allow it, or what the spec does not say. */
  allowed_by: string;
  /** The requirements whose open point it reads otherwise. */
  requirements: string[];
}

function loadSwitches<T extends { id: string }>(
  dir: string,
  schema: string,
  kind: string,
  requirementsOf: (entry: T) => string[],
  registry: RequirementRegistry,
): (T & Placed)[] {
  const validate = compileSchemaFile(createAjv(), projectPath(schema));
  const found: (T & Placed)[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const file of existsSync(dir) ? listYamlFiles(dir) : []) {
    for (const entry of readValidatedFile<T[]>(file, validate)) {
      const where = `${path.basename(file)} ${kind} ${entry.id}`;
      if (seen.has(entry.id)) problems.push(`${where}: defined twice`);
      seen.add(entry.id);
      const ids = requirementsOf(entry);
      for (const id of ids) if (!registry.has(id)) problems.push(`${where}: unknown requirement ${id}`);
      const sides = [...new Set(ids.map(sideOf))];
      if (sides.length > 1)
        problems.push(`${where}: names requirements of the ${sides.join(' and ')} at once; a ${kind} is switched on in one of them`);
      found.push({ ...entry, side: sides[0]!, file });
    }
  }
  if (problems.length > 0) throw new HarnessError('CONFIG', `the ${kind} registry does not pass the lint:\n  ${problems.join('\n  ')}`);
  return found;
}

export function loadFaultRegistry(dir: string, registry: RequirementRegistry): Fault[] {
  return loadSwitches<Omit<Fault, keyof Placed>>(dir, 'harness/mutate/fault.schema.json', 'fault', (f) => f.breaks, registry);
}

export function loadVariantRegistry(dir: string, registry: RequirementRegistry): Variant[] {
  return loadSwitches<Omit<Variant, keyof Placed>>(dir, 'harness/mutate/variant.schema.json', 'variation', (v) => v.requirements, registry);
}

/** A fault and a variation may not share a name: the references take both on one command line. */
export function sharedNames(faults: Fault[], variants: Variant[]): string[] {
  const faultIds = new Set(faults.map((f) => f.id));
  return variants.filter((v) => faultIds.has(v.id)).map((v) => `${v.id} is both a fault and a variation`);
}
