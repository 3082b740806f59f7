// reports/latest: a link to the report folder of the latest run, so that examples and habits
// (`touchstone report open`, `baseline update --from reports/latest`) need no timestamp.
//
// Decisions:
// - Every run whose report folder lies under reports/ (of the current folder) moves the link:
//   the default reports/<timestamp>, and an --out such as reports/ci too. A run with --out
//   elsewhere leaves it alone: reports/latest stays the latest run kept under reports/.
// - The link is relative (`latest -> 2025-11-22T12-00-00Z`), so a reports/ folder copied or
//   moved elsewhere keeps it working; it is made beside its place and renamed over it, so a
//   reader never sees it missing or half made.
// - A reports/latest that is not a link (a folder someone made) is never replaced: touchstone
//   says so and leaves it. --out reports/latest itself is refused while the link exists:
//   writing there would overwrite the run it points at (reportDirectory, conformance-process.ts).
// - The link is a convenience: failing to make it (a file system without links) is said on
//   stderr and never fails the run.
import { existsSync, lstatSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';

export const REPORTS_DIR = 'reports';
export const LATEST = 'latest';

/** reports/latest of the current folder, absolute. */
export function latestLink(cwd = process.cwd()): string {
  return path.resolve(cwd, REPORTS_DIR, LATEST);
}

/**
 * reports/latest of the current folder, for a command that reads it when no folder is named
 * (`report open`, `run --last-failed`); none there is a usage error ending in `hint`.
 */
export function existingLatestLink(hint: string, cwd = process.cwd()): string {
  const latest = latestLink(cwd);
  if (!existsSync(latest))
    throw new HarnessError('USAGE', `no ${path.relative(cwd, latest)} here (a run into ${REPORTS_DIR}/ makes it): ${hint}`);
  return latest;
}

const isLink = (file: string) => {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
};
const exists = (file: string) => {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
};

/** Whether `outDir` is reports/latest while that is the link (writing there would overwrite the run it names). */
export function isLatestLink(outDir: string, cwd = process.cwd()): boolean {
  const latest = latestLink(cwd);
  return path.resolve(outDir) === latest && isLink(latest);
}

/** Points reports/latest at `outDir` when it lies under reports/; returns the link when it did. */
export function updateLatestLink(outDir: string, cwd = process.cwd()): string | undefined {
  const reports = path.resolve(cwd, REPORTS_DIR);
  const target = path.relative(reports, path.resolve(outDir));
  if (target === '' || target === LATEST || target.startsWith('..') || path.isAbsolute(target)) return undefined;
  const latest = latestLink(cwd);
  if (exists(latest) && !isLink(latest)) {
    process.stderr.write(`touchstone: ${latest} is not a link touchstone made; it is left as it is (reports: ${outDir})\n`);
    return undefined;
  }
  const temporary = path.join(reports, `.${LATEST}-${process.pid}-${Date.now()}`);
  try {
    symlinkSync(target, temporary, 'dir');
    renameSync(temporary, latest);
    return latest;
  } catch (error) {
    rmSync(temporary, { force: true });
    process.stderr.write(`touchstone: cannot point ${latest} at ${outDir}: ${(error as Error).message}\n`);
    return undefined;
  }
}
