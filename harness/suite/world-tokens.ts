// The harness reads the world only for what it must know of it: the roles it defines
// (for the lint), what each role's token is (for the rows of an auth matrix) and, against
// the embedded reference, their tokens.
import { compileSchemaFile, createAjv, readValidatedFile } from '../core/validated-file.js';
import { suitePaths } from '../core/suite-paths.js';
import { ANONYMOUS } from '../http/target-client.js';

interface WorldToken {
  role: string;
  kind: string;
  value: string;
  user?: string;
  account?: string;
  repository?: string;
  scopes?: string[];
  permissions?: Record<string, string>;
  repositories?: 'all' | string[];
}

function readTokens(worldFile: string): WorldToken[] {
  const validate = compileSchemaFile(createAjv(), suitePaths.worldSchema);
  return readValidatedFile<{ tokens: WorldToken[] }>(worldFile, validate).tokens;
}

export function readWorldTokens(worldFile = suitePaths.world): Record<string, string> {
  return Object.fromEntries(readTokens(worldFile).map((t) => [t.role, t.value]));
}

/**
 * What a role's token is, in words a person matching it to their own tokens can use:
 * "classic token of monalisa, scopes repo", "fine-grained token of hubot, permissions
 * organization_administration: write, on every repository". The value is never part of it.
 */
export function describeToken(token: Omit<WorldToken, 'role' | 'value'>): string {
  const whose = token.user ?? token.account ?? token.repository;
  const parts = [`${token.kind} token${whose ? ` of ${whose}` : ''}`];
  if (token.scopes) parts.push(token.scopes.length === 0 ? 'no scopes' : `scopes ${token.scopes.join(', ')}`);
  if (token.permissions) {
    const permissions = Object.entries(token.permissions).map(([name, level]) => `${name}: ${level}`);
    parts.push(permissions.length === 0 ? 'no permissions' : `permissions ${permissions.join(', ')}`);
  }
  if (Array.isArray(token.repositories)) parts.push(`only on ${token.repositories.join(', ')}`);
  return parts.join(', ');
}

/** Each role of the world, and `anonymous` (which sends no token), with what its token is. */
export function readWorldRoles(worldFile = suitePaths.world): ReadonlyMap<string, string> {
  return new Map([
    [ANONYMOUS, 'no token (no Authorization header)'],
    ...readTokens(worldFile).map((t): [string, string] => [t.role, describeToken(t)]),
  ]);
}

/**
 * A --tokens file to fill in: every role of the world as a key with no value yet, under a
 * comment saying what its token is (describeToken). A value left empty is refused by
 * readTokensFile, naming the role, so a forgotten role is never a silent gap.
 */
export function tokensTemplate(worldFile = suitePaths.world): string {
  const header = [
    '# Tokens for `touchstone run --target URL --tokens FILE`: each role a case acts as,',
    '# mapped to a token of your implementation with what the comment above it says.',
    '# Write each value after its colon, or ${NAME} to read it from the environment.',
    '# Tokens written here are secrets: keep such a file out of version control (one whose',
    '# values are all ${NAME} holds none, and can be committed).',
  ];
  const roles = readTokens(worldFile).flatMap((t) => ['', `# ${describeToken(t)}`, `${t.role}:`]);
  return `${[...header, ...roles].join('\n')}\n`;
}
