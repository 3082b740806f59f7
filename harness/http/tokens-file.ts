// The --tokens file: a YAML (or JSON) map of role -> token for a third-party target.
// A value of the form ${NAME} is read from the environment, so CI can keep secrets in
// its secret store instead of a file.
import { HarnessError } from '../errors.js';
import { readDataFile } from '../suite/validated-file.js';

export function readTokensFile(file: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const data = readDataFile(file, '--tokens');
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new HarnessError('CONFIG', `${file}: expected a map of role: token`);
  const tokens: Record<string, string> = {};
  for (const [role, value] of Object.entries(data)) {
    if (!/^[a-z][a-z0-9-]*$/.test(role) || role === 'anonymous') throw new HarnessError('CONFIG', `${file}: ${role} is not a role name`);
    if (typeof value !== 'string' || value.length === 0) throw new HarnessError('CONFIG', `${file}: the token of ${role} must be a non-empty string`);
    const fromEnv = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value);
    if (fromEnv && env[fromEnv[1]] === undefined) throw new HarnessError('CONFIG', `${file}: ${role} reads \${${fromEnv[1]}}, which is not set`);
    tokens[role] = fromEnv ? env[fromEnv[1]]! : value;
  }
  return tokens;
}
