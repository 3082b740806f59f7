// Format and lint (biome.jsonc) hold for the whole repository: `npx biome format --write .`
// and `npx biome lint --write .` fix most of what this reports.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

test('biome ci: every file formatted, no lint error (floating promises included)', () => {
  const run = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'biome'), ['ci', '--colors=off', '.'], { cwd: ROOT, encoding: 'utf8' });
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
});
