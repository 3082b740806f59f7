// Test support: how two folders differ, file by file and byte for byte, as `diff -r` would
// say it (the recordings committed in the repository against a fresh recording of today's
// reference).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The files only in `a`, only in `b`, or different in content: empty when the trees are equal. */
export function treeDifferences(a: string, b: string): string[] {
  const files = (root: string) =>
    new Set(readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => statSync(path.join(root, name)).isFile()));
  const inA = files(a);
  const inB = files(b);
  const differences: string[] = [];
  for (const name of [...new Set([...inA, ...inB])].sort()) {
    if (!inB.has(name)) differences.push(`only in ${a}: ${name}`);
    else if (!inA.has(name)) differences.push(`only in ${b}: ${name}`);
    else if (!readFileSync(path.join(a, name)).equals(readFileSync(path.join(b, name)))) differences.push(`differs: ${name}`);
  }
  return differences;
}
