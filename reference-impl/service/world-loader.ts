// Reads the fixture world: YAML, validated against its schema (world-schema.ts), then
// expanded (user series, collaborator globs) and cross-checked. Every problem is a
// WorldError naming the file and the JSON path, so a bad world fails before serving.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describeSchemaErrors, parseLocatedYaml, YamlSyntaxError } from '../../lib/located-yaml.js';
import { WorldError } from './errors.js';
import { expandApps, expandUsers, resolveCollaborators, resolveOrganizations } from './world-expansion.js';
import type { World, WorldDocument } from './world-model.js';
import { WorldDocumentSchema } from './world-schema.js';
import { checkReferences } from './world-references.js';
import { projectPath } from '../../lib/project-files.js';

export const DEFAULT_WORLD_PATH = projectPath('suites/world.yaml');

// ajv-formats ships CommonJS typings that NodeNext sees as a namespace, not a function.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export function loadWorld(path: string = DEFAULT_WORLD_PATH): World {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new WorldError(`${path}: cannot read the world: ${(error as Error).message}`);
  }
  return parseWorld(text, path);
}

/** `source` only names the text in messages; tests pass variations of the world this way. */
export function parseWorld(text: string, source: string): World {
  let parsed: ReturnType<typeof parseLocatedYaml>;
  try {
    parsed = parseLocatedYaml(text);
  } catch (error) {
    if (!(error instanceof YamlSyntaxError)) throw error;
    throw new WorldError(`${source}${error.at ? `:${error.at}` : ''}: not valid YAML: ${error.message}`);
  }
  const { data, locate } = parsed;
  const validate = compileWorldSchema();
  if (!validate(data)) throw new WorldError(`${source}: ${describeSchemaErrors(validate.errors, locate)}`);
  const document = data;
  const users = expandUsers(document);
  const world: World = {
    source,
    clock: document.clock,
    users,
    organizations: resolveOrganizations(document, users, source),
    repositories: resolveCollaborators(document, users, source),
    apps: expandApps(document),
    enterprises: document.enterprises ?? [],
    importSources: document.import_sources ?? [],
    tokens: document.tokens,
  };
  checkReferences(world);
  return world;
}

function compileWorldSchema(): ValidateFunction<WorldDocument> {
  // Strict, but for `required` inside the tokens' if/then branches, which name properties
  // declared by the enclosing object (Ajv's strictRequired looks at the branch alone).
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: true, strictRequired: false }));
  return ajv.compile<WorldDocument>(WorldDocumentSchema);
}
