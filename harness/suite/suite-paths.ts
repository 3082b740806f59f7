// Where the data of touchstone lives, resolved from this file so commands work from any cwd.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SUITES_DIR = path.join(PROJECT_ROOT, 'suites');

export const suitePaths = {
  requirements: path.join(SUITES_DIR, 'requirements'),
  service: path.join(SUITES_DIR, 'service'),
  schemas: path.join(SUITES_DIR, 'schemas'),
  world: path.join(SUITES_DIR, 'world.yaml'),
  worldSchema: path.join(SUITES_DIR, 'world.schema.json'),
  plugin: path.join(SUITES_DIR, 'plugin'),
  compiler: path.join(SUITES_DIR, 'plugin', 'compiler'),
  /** .proto inputs of both plugin and compiler cases. */
  pluginFixtures: path.join(SUITES_DIR, 'plugin', 'fixtures'),
};
