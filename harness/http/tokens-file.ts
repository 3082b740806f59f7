// Files of named secrets: the --tokens file of `touchstone run` (role -> token) and the
// --secrets file of the proxy (name -> value). A YAML (or JSON) map; a value of the form
// ${NAME} is read from the environment, so CI can keep secrets in its secret store
// instead of a file. The format is written once, below: its JSON Schema, tokens.schema.json,
// is generated from it (`npm run schemas`) for editors, and readSecretsFile validates with it.
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { Type, type Static } from 'typebox';
import { closestName } from '../core/did-you-mean.js';
import { HarnessError } from '../core/errors.js';
import { nameMap, schemaFile, type SchemaFile } from '../core/schema-document.js';
import { compileSchemaFile, createAjv, readDataFile } from '../core/validated-file.js';
import { projectPath } from '../../lib/project-files.js';

const SecretsFileSchema = nameMap(
  Type.String({ minLength: 1, description: 'the token or secret; a value ${NAME} is read from the environment variable NAME' }),
  {
    propertyNames: Type.String({ pattern: '^[a-z][a-z0-9-]*$', description: 'a role or secret name: lower case letters, digits, -' }),
  },
);

export type SecretsFile = Static<typeof SecretsFileSchema>;

export const tokensSchemaFile: SchemaFile = schemaFile(
  'harness/http/tokens.schema.json',
  {
    $id: 'touchstone:tokens',
    title: 'touchstone tokens file (run --tokens) or secrets file (proxy --secrets)',
    description: 'A map of name: value. For --tokens each name is a role of the world (touchstone tokens template lists them).',
  },
  SecretsFileSchema,
);

// A small schema: compiled on first use, so a command that reads no such file pays nothing.
let validate: ValidateFunction | undefined;

/** At most this many problems are listed; a file with more says how many it left out. */
const LISTED_PROBLEMS = 5;

/**
 * What one schema error means, in the words this file's users know (the messages predate the
 * schema, and scripts and tests match them). Ajv reports a bad name twice (the pattern, then
 * propertyNames); only the second is said.
 */
function problem(error: ErrorObject): string | undefined {
  if (error.keyword === 'propertyNames') {
    const name = String(error.params.propertyName);
    return `${name === '' ? 'an empty key' : name} is not a name (lower case letters, digits, -)`;
  }
  if (error.propertyName !== undefined) return undefined;
  if (error.instancePath === '') return 'expected a map of name: value';
  const name = error.instancePath.slice(1).replaceAll('~1', '/').replaceAll('~0', '~');
  return `the value of ${name} must be a non-empty string`;
}

function describeProblems(errors: ErrorObject[]): string {
  const problems = [...new Set(errors.map(problem).filter((p) => p !== undefined))];
  const more = problems.length - LISTED_PROBLEMS;
  return `${problems.slice(0, LISTED_PROBLEMS).join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`;
}

export function readSecretsFile(file: string, flag: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const data = readDataFile(file, flag);
  validate ??= compileSchemaFile(createAjv(), projectPath(tokensSchemaFile.path));
  if (!validate(data)) throw new HarnessError('CONFIG', `${file}: ${describeProblems(validate.errors ?? [])}`);
  const secrets: Record<string, string> = {};
  for (const [name, value] of Object.entries(data as SecretsFile)) {
    const fromEnv = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value);
    if (fromEnv && env[fromEnv[1]] === undefined)
      throw new HarnessError('CONFIG', `${file}: ${name} reads \${${fromEnv[1]}}, which is not set`);
    secrets[name] = fromEnv ? env[fromEnv[1]]! : value;
  }
  return secrets;
}
/**
 * The roles of a --tokens file, each one of `roles` (the world's: world-tokens.ts
 * readWorldTokens); a name that is not is a typo until shown otherwise, so it is an error
 * naming the closest role, never a role silently left without its token.
 */
export function readTokensFile(file: string, roles: readonly string[], env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const tokens = readSecretsFile(file, '--tokens', env);
  if ('anonymous' in tokens) throw new HarnessError('CONFIG', `${file}: anonymous is not a role name: it is the absence of a token`);
  for (const role of Object.keys(tokens)) {
    if (roles.includes(role)) continue;
    const near = closestName(role, roles);
    throw new HarnessError(
      'CONFIG',
      `unknown role ${role} in ${file}: ${near ? `did you mean ${near}?` : 'the world has no such role (touchstone tokens template lists them)'}`,
    );
  }
  return tokens;
}
