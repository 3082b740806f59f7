// Every bench measures touchstone as its commands run: compiled (dist/, bin/build.ts). After
// an edit the build is stale, and the commands (so the benches too) silently run the
// TypeScript sources through tsx, 10-15 % slower: a round of figures that measures the wrong
// code. So each bench rebuilds first when any part is stale (about a second) and says so.
// BENCH_NO_BUILD=1 leaves dist/ alone (the benches' smoke tests, which must not rewrite it
// under other tests running beside them); what runs is then printed as before.
import { spawnSync } from 'node:child_process';
// @ts-expect-error bin/entry.js is plain JavaScript (it runs before tsx is registered)
import { staleParts } from '../bin/entry.js';
import { PROJECT_ROOT } from '../lib/project-files.js';

export function ensureBuilt(env: NodeJS.ProcessEnv, log: (line: string) => void): void {
  if (env.BENCH_NO_BUILD === '1') return;
  const stale: string[] = staleParts(PROJECT_ROOT);
  if (stale.length === 0) return;
  const started = performance.now();
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  if (build.status !== 0) {
    console.error(`bench: dist/ is stale (${stale.join(', ')}) and npm run build failed:\n${build.stdout}${build.stderr}`);
    process.exit(2);
  }
  log(`dist/ was older than the sources (${stale.join(', ')}): rebuilt in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
