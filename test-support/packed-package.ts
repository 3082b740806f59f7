// Test support: touchstone's package as a user's project gets it, `npm pack` of this checkout
// (harness/cli/api.test.ts installs it as a library, harness/cli/ci-workflows.test.ts as
// docs/ci.md says). The tarball ships dist/, which must then be current: a test asking for it
// is skipped while dist/ is missing or stale (`npm run build`), and fails instead with
// TOUCHSTONE_REQUIRE_BUILD=1, as in CI.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../harness/core/suite-paths.js';
import { skipUnlessInstalled, type Skippable } from './required-tool.js';
// @ts-expect-error bin/entry.js is plain JavaScript
import { staleParts } from '../bin/entry.js';

/** Packs the package into `destination` (an empty folder) and returns the tarball's path. */
export function packPackage(test: Skippable, destination: string): string {
  const current = (staleParts(PROJECT_ROOT) as string[]).length === 0;
  skipUnlessInstalled(test, current, 'dist/ is missing or older than the sources (npm run build)', 'TOUCHSTONE_REQUIRE_BUILD');
  // --ignore-scripts: packing must not rebuild dist/ under the other tests' feet; it is current.
  execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', destination], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return path.join(destination, readdirSync(destination).find((name) => name.endsWith('.tgz'))!);
}
