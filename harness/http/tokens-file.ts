// Files of named secrets: the --tokens file of `touchstone run` (role -> token) and the
// --secrets file of the proxy (name -> value). A YAML (or JSON) map; a value of the form
// ${NAME} is read from the environment, so CI can keep secrets in its secret store
// instead of a file.
import { closestName } from '../core/did-you-mean.js';
import { HarnessError } from '../core/errors.js';
import { readDataFile } from '../core/validated-file.js';

export function readSecretsFile(file: string, flag: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const data = readDataFile(file, flag);
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new HarnessError('CONFIG', `${file}: expected a map of name: value`);
  const secrets: Record<string, string> = {};
  for (const [name, value] of Object.entries(data)) {
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new HarnessError('CONFIG', `${file}: ${name} is not a name (lower case letters, digits, -)`);
    if (typeof value !== 'string' || value.length === 0)
      throw new HarnessError('CONFIG', `${file}: the value of ${name} must be a non-empty string`);
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
