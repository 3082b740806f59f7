// mkdirSync(dir, { recursive: true }) without Node.js 20's endless loop: where mkdir fails with
// ENOENT although the parent exists (under /proc or /sys), node's recursive mkdir retries for
// ever at full CPU (seen: `touchstone run --out /proc/x` never ended). Here each missing folder
// is made once, from the top down, and the first error is thrown. Every folder touchstone makes
// on a path a user names (reports, recordings, exports) goes through here.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export function makeDirectory(dir: string): void {
  const missing: string[] = [];
  for (let folder = path.resolve(dir); !existsSync(folder); folder = path.dirname(folder)) {
    missing.push(folder);
    if (path.dirname(folder) === folder) break;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (error) {
      // Made meanwhile by another writer (two workers recording side by side): it is there.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
