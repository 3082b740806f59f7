// Where touchstone's own files live (schemas, suites, plugin.proto, package.json). They are found
// from the project's root, not from the module reading them: a module runs from its TypeScript
// source under tsx and from a bundle in dist/ (bin/dist.js), at another depth, so a
// `new URL('../x', import.meta.url)` would be right in one and wrong in the other.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest folder above this module (wherever it was bundled) holding package.json. */
function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`touchstone: no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return dir;
}

export const PROJECT_ROOT = findProjectRoot();

/** A file of the project, from its path relative to the project's root ('suites/world.yaml'). */
export function projectPath(relative: string): string {
  return path.join(PROJECT_ROOT, relative);
}

/** touchstone's version, from its package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string }).version;
}
