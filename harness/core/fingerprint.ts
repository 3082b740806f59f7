// Content hashes that let two results.json documents say whether they were judged by the same
// rules: the suites, the requirement registry, each requirement's quoted text, and the run's
// configuration. Hashes of content, not version numbers someone must remember to bump.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Fingerprint, RunKind } from './results.js';
import type { PluginGiven } from './run-config.js';
import { SUITES_DIR, suitePaths } from './suite-paths.js';

export const sha256 = (data: string | Buffer) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

/** One hash of every file under `dir` (names and bytes, in a fixed order), leaving out the top-level folders in `except`. */
export function hashTree(dir: string, except: string[] = []): string {
  const hash = createHash('sha256');
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !except.includes(file.split('/')[0]))
    .sort();
  for (const file of files) {
    const bytes = readFileSync(path.join(dir, file));
    hash.update(`${file}\0${bytes.length}\0`).update(bytes);
  }
  return `sha256:${hash.digest('hex')}`;
}

/**
 * JSON with object keys sorted, so equal values hash alike whatever order they were built in
 * (`indent` for files people read: `touchstone world export`).
 */
export function canonicalJson(value: unknown, indent?: number): string {
  return JSON.stringify(
    value,
    (_key, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
    indent,
  );
}

/** What decides how a run judges, besides the suites: two runs that agree on it judge alike. */
export interface JudgedBy {
  kind: RunKind;
  strict: boolean;
  suites: string[];
  only?: string[];
  grep?: string;
  grepInvert?: string;
  /** The roles the run had tokens for (never the tokens). */
  roles: string[];
  baselineFile?: string;
  /** Plugin runs: --parameter and the --proto files reach every request, so they judge too. */
  plugin?: PluginGiven;
}

/** What this touchstone judges by, besides a run's configuration: its suites and its requirement registry. */
export function catalogueFingerprint(): Pick<Fingerprint, 'suites' | 'requirements'> {
  return { suites: hashTree(SUITES_DIR, ['requirements', 'faults', 'variants']), requirements: hashTree(suitePaths.requirements) };
}

export function fingerprintOf(run: JudgedBy): Fingerprint {
  const config = {
    kind: run.kind,
    strict: run.strict,
    scope: {
      suites: [...run.suites].sort(),
      only: [...(run.only ?? [])].sort(),
      grep: run.grep ?? null,
      // Only when given, so the fingerprints of runs without it stay what they were.
      ...(run.grepInvert !== undefined && { grep_invert: run.grepInvert }),
    },
    roles: [...run.roles].sort(),
    baseline: run.baselineFile === undefined ? null : sha256(readFileSync(run.baselineFile)),
    // Only when given, so the fingerprints of runs without them stay what they were.
    ...(run.plugin?.parameter !== undefined && { parameter: run.plugin.parameter }),
    ...(run.plugin?.own && { proto: sha256(canonicalJson(run.plugin.own)) }),
  };
  return { ...catalogueFingerprint(), config: sha256(canonicalJson(config)) };
}
