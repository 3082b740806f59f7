// Test helper: what a compiler wrote, as relative path → content, sorted by path.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function readOutputTree(dir: string): Map<string, string> {
  const names = (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((name) => statSync(join(dir, name)).isFile())
    .sort();
  return new Map(names.map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
}
