// Where the data of touchstone lives, resolved from the project's root so commands work from any cwd.
import path from 'node:path';
import { PROJECT_ROOT } from '../../lib/project-files.js';

export { PROJECT_ROOT };
export const SUITES_DIR = path.join(PROJECT_ROOT, 'suites');

export const suitePaths = {
  requirements: path.join(SUITES_DIR, 'requirements'),
  service: path.join(SUITES_DIR, 'service'),
  schemas: path.join(SUITES_DIR, 'schemas'),
  world: path.join(SUITES_DIR, 'world.yaml'),
  worldSchema: path.join(SUITES_DIR, 'world.schema.json'),
  /** The service's endpoints by id, which suite requests name: one file per area. */
  endpoints: path.join(SUITES_DIR, 'endpoints'),
  plugin: path.join(SUITES_DIR, 'plugin'),
  compiler: path.join(SUITES_DIR, 'plugin', 'compiler'),
  /** The built-in faults of the reference implementations. */
  faults: path.join(SUITES_DIR, 'faults'),
  /** The built-in variations of the reference implementations: other choices the spec allows. */
  variants: path.join(SUITES_DIR, 'variants'),
  /** .proto inputs of both plugin and compiler cases. */
  pluginFixtures: path.join(SUITES_DIR, 'plugin', 'fixtures'),
  /** The fixtures described as a compiler describes them (generated: npm run fixtures:plugin). */
  pluginFixtureDescriptors: path.join(SUITES_DIR, 'plugin', 'fixture-descriptors.json'),
};
