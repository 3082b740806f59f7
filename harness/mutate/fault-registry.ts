// The fault registry (suites/faults/*.yaml): every built-in fault of the reference
// implementations, what it does, and the requirements it breaks. Validated against
// fault.schema.json, then linted for what a schema cannot say: ids unique, requirement ids
// known, and every fault on one side only (service, plugin or compiler), which is how the
// kill matrix knows how to switch it on.
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import { listYamlFiles, sideOf, type RequirementRegistry, type RunKind } from '../suite/requirement-registry.js';
import { compileSchemaFile, createAjv, readValidatedFile } from '../core/validated-file.js';
import { projectPath } from '../../lib/project-files.js';

export interface Fault {
  id: string;
  does: string;
  breaks: string[];
  /** What the fault is switched on in: the reference service, plugin or compiler. */
  side: RunKind;
  file: string;
}

const SCHEMA = projectPath('harness/mutate/fault.schema.json');

export function loadFaultRegistry(dir: string, registry: RequirementRegistry): Fault[] {
  const validate = compileSchemaFile(createAjv(), SCHEMA);
  const faults: Fault[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const file of listYamlFiles(dir)) {
    for (const entry of readValidatedFile<Omit<Fault, 'side' | 'file'>[]>(file, validate)) {
      const where = `${path.basename(file)} fault ${entry.id}`;
      if (seen.has(entry.id)) problems.push(`${where}: defined twice`);
      seen.add(entry.id);
      for (const id of entry.breaks) if (!registry.has(id)) problems.push(`${where}: unknown requirement ${id}`);
      const sides = [...new Set(entry.breaks.map(sideOf))];
      if (sides.length > 1)
        problems.push(`${where}: breaks requirements of the ${sides.join(' and ')} at once; a fault is switched on in one of them`);
      faults.push({ ...entry, side: sides[0], file });
    }
  }
  if (problems.length > 0) throw new HarnessError('CONFIG', `the fault registry does not pass the lint:\n  ${problems.join('\n  ')}`);
  return faults;
}
