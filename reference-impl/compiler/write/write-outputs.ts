// The write phase. Runs only after every plugin run succeeded and no location holds a
// deferred error: until then nothing touches the disk.
//
// Where protoc 3.21 (WriteAllToDisk) and touchstone agree:
// - a directory location must exist ("<dir>/: No such file or directory", checked even when
//   no file is written); protoc never creates it, only the directories below it, splitting
//   names on '/' and '\' and ignoring EEXIST;
// - within a location files are written in byte-sorted name order, and the first OS error
//   stops everything, with protoc's texts ("<file>: Is a directory", no newline);
// - a location ending in .zip, .jar or .srcjar is one archive (archive-output.ts); so is an
//   empty location ("--foo_out="), which gets no trailing '/' and so fails to open ("").
// Where touchstone is deliberately different:
// - protoc writes locations in hash-map order and stops at the first failing one, so which
//   locations reach the disk is unpredictable. touchstone first checks that
//   every directory location exists, then writes locations in command-line order.
// - protoc writes the other locations even when one holds a deferred error, depending on
//   that hash order; touchstone writes nothing at all then (the caller checks before).
// An OS error while writing can still leave earlier files on disk, as with protoc.
import { accessSync, closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { buildArchive } from './archive-output.js';
import { errnoText, isErrno } from '../common/errno-text.js';
import { sortedNames } from '../apply/output-location.js';

function onDisk(cwd: string, path: string): string {
  // "" stays "": open("") fails with ENOENT, as it does for protoc.
  return path === '' || path.startsWith('/') ? path : `${cwd}/${path}`;
}

/** protoc writes a location as a directory when its key ends in '/', else as an archive. */
function isDirectoryKey(key: string): boolean {
  return key.endsWith('/');
}

/** protoc's VerifyDirectoryExists; the text to print when it fails. */
export function checkLocationExists(cwd: string, key: string): string | undefined {
  if (!isDirectoryKey(key)) return undefined;
  try {
    accessSync(onDisk(cwd, key));
    return undefined;
  } catch (error) {
    return `${key}: ${errnoText(error)}\n`;
  }
}

function writeWhole(path: string, shownPath: string, data: Uint8Array): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'w', 0o666);
  } catch (error) {
    return `${shownPath}: ${errnoText(error)}`;
  }
  try {
    for (let written = 0; written < data.length; ) written += writeSync(fd, data, written);
  } catch (error) {
    closeSync(fd);
    return `${shownPath}: write: ${errnoText(error)}`;
  }
  try {
    closeSync(fd);
  } catch (error) {
    return `${shownPath}: close: ${errnoText(error)}`;
  }
  return undefined;
}

/**
 * protoc's TryCreateParentDirectory. `existing` holds the directories this location's
 * write has already made or found (EEXIST): protoc calls mkdir for every parent of every
 * file, and in Node each EEXIST is a thrown error with a captured stack, a third of the
 * write phase for 1,000 files in one folder. Skipping a directory known to exist changes
 * nothing on disk or in the messages (mkdir would only fail with EEXIST again).
 */
function createParents(cwd: string, prefix: string, name: string, existing: Set<string>): string | undefined {
  const parts = name.split(/[/\\]/).filter((part) => part !== '');
  let soFar = prefix;
  for (const part of parts.slice(0, -1)) {
    soFar += part;
    if (!existing.has(soFar)) {
      try {
        mkdirSync(onDisk(cwd, soFar), 0o777);
      } catch (error) {
        if (!isErrno(error, 'EEXIST')) return `${name}: while trying to create directory ${soFar}: ${errnoText(error)}\n`;
      }
      existing.add(soFar);
    }
    soFar += '/';
  }
  return undefined;
}

/** Writes one location; the text to print (protoc's, newline or not) when it fails. */
export function writeLocation(cwd: string, key: string, files: ReadonlyMap<string, Uint8Array>): string | undefined {
  if (!isDirectoryKey(key)) return writeWhole(onDisk(cwd, key), key, buildArchive(key, files));
  const existing = new Set<string>();
  for (const name of sortedNames(files.keys())) {
    const problem = createParents(cwd, key, name, existing) ?? writeWhole(onDisk(cwd, key + name), key + name, files.get(name)!);
    if (problem) return problem;
  }
  return undefined;
}
