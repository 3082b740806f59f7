// The harness reads the world only for what it must know of it: the roles it defines
// (for the lint) and, against the embedded reference, their tokens.
import { compileSchemaFile, createAjv, readValidatedFile } from '../core/validated-file.js';
import { suitePaths } from '../core/suite-paths.js';

export function readWorldTokens(worldFile = suitePaths.world): Record<string, string> {
  const validate = compileSchemaFile(createAjv(), suitePaths.worldSchema);
  const world = readValidatedFile<{ tokens: { role: string; value: string }[] }>(worldFile, validate);
  return Object.fromEntries(world.tokens.map((t) => [t.role, t.value]));
}
