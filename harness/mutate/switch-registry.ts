// The registries of the references' built-in switches: faults (suites/faults/*.yaml), each
// breaking requirements, and variations (suites/variants/*.yaml), each reading an open point
// of requirements otherwise. Both are validated against their schema, then linted for what a
// schema cannot say: ids unique across both, requirement ids known, and every switch on one
// side only (service, plugin or compiler), which is how the kill matrix knows where to switch it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Type, type Static } from 'typebox';
import { HarnessError } from '../core/errors.js';
import { schemaFile, type SchemaFile } from '../core/schema-document.js';
import { listYamlFiles, sideOf, type RequirementRegistry, type RunKind } from '../core/requirement-registry.js';
import { compileSchemaFile, createAjv, readValidatedFile } from '../core/validated-file.js';
import { projectPath } from '../../lib/project-files.js';

interface Placed {
  /** What it is switched on in: the reference service, plugin or compiler. */
  side: RunKind;
  file: string;
}

const SwitchId = Type.String({
  pattern: '^[a-z][a-z0-9-]*(\\.[a-z0-9][a-z0-9-]*)+$',
  description: 'the name the reference is switched with',
});
const RequirementIds = (description: string) => Type.Array(Type.String(), { minItems: 1, uniqueItems: true, description });

const FaultSchema = Type.Object(
  {
    id: SwitchId,
    does: Type.String({ minLength: 10, description: 'what the reference does wrong with the fault on' }),
    breaks: RequirementIds('the requirements the deviation violates; a case catches the fault when it fails citing one of them'),
  },
  { additionalProperties: false },
);

const VariantSchema = Type.Object(
  {
    id: SwitchId,
    does: Type.String({ minLength: 10, description: 'what the reference does otherwise with the variation on' }),
    allowed_by: Type.String({ minLength: 10, description: "the spec's words that allow it, quoted, or what the spec does not say" }),
    requirements: RequirementIds(
      'the requirements whose open point it reads otherwise (the kill matrix runs every case of its side with it on)',
    ),
  },
  { additionalProperties: false },
);

export type Fault = Static<typeof FaultSchema> & Placed;
export type Variant = Static<typeof VariantSchema> & Placed;

const FAULT_SCHEMA_PATH = 'harness/mutate/fault.schema.json';
const VARIANT_SCHEMA_PATH = 'harness/mutate/variant.schema.json';

export const switchSchemaFiles: SchemaFile[] = [
  schemaFile(
    FAULT_SCHEMA_PATH,
    {
      $id: 'touchstone:faults',
      title: 'touchstone fault registry (suites/faults/*.yaml): the built-in faults of the reference implementations',
    },
    Type.Array(FaultSchema),
  ),
  schemaFile(
    VARIANT_SCHEMA_PATH,
    {
      $id: 'touchstone:variants',
      title: 'touchstone variation registry (suites/variants/*.yaml): the built-in variations of the reference implementations',
    },
    Type.Array(VariantSchema),
  ),
];

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
  return loadSwitches<Static<typeof FaultSchema>>(dir, FAULT_SCHEMA_PATH, 'fault', (f) => f.breaks, registry);
}

export function loadVariantRegistry(dir: string, registry: RequirementRegistry): Variant[] {
  return loadSwitches<Static<typeof VariantSchema>>(dir, VARIANT_SCHEMA_PATH, 'variation', (v) => v.requirements, registry);
}

/** A fault and a variation may not share a name: the references take both on one command line. */
export function sharedNames(faults: Fault[], variants: Variant[]): string[] {
  const faultIds = new Set(faults.map((f) => f.id));
  return variants.filter((v) => faultIds.has(v.id)).map((v) => `${v.id} is both a fault and a variation`);
}
