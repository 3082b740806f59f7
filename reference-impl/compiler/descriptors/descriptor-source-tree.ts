// protoc's view of the file system (its DiskSourceTree): -I mappings from virtual names to
// disk directories, command-line files turned into virtual names, imports opened by
// virtual name in -I order. Texts of the errors are protoc 3.21's.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ProtoParseError } from './descriptor-errors.js';
import { loadWellKnown, type WellKnownSource } from './descriptor-well-known.js';
import { applyMapping, canonicalizePath, containsParentReference } from './proto-path-mapping.js';

export type OpenedFile =
  | { name: string; origin: 'disk'; diskPath: string; source: string }
  | ({ name: string; origin: 'well-known' } & WellKnownSource);

export interface SourceTree {
  /** The virtual name of a file given on the command line, as protoc computes it; throws ProtoParseError. */
  inputName(file: string): string;
  /** Opens a file by virtual name (an import); the error text is protoc's when it cannot. */
  open(name: string): OpenedFile | { error: string };
}

interface Mapping {
  virtualPath: string;
  diskPath: string;
}

const NOT_WITHIN =
  'File does not reside within any path specified using --proto_path (or -I).  You must specify a --proto_path which encompasses this file.  ' +
  "Note that the proto_path must be an exact prefix of the .proto file names -- protoc is too dumb to figure out when two paths (e.g. absolute and relative) are equivalent (it's harder than you think).";

/**
 * `importPaths` are plain directories, in -I order (the compiler driver splits protoc's
 * ':'-separated lists and refuses VIRTUAL=DISK mappings before they get here). With none,
 * the current directory is the one path, as in protoc 3.21. Relative paths are relative to `cwd`.
 */
export function createSourceTree(importPaths: string[], cwd: string = process.cwd()): SourceTree {
  const onDisk = (p: string): string => resolve(cwd, p);
  const exists = (p: string): boolean => existsSync(onDisk(p));
  const isFile = (p: string): boolean => {
    try {
      return statSync(onDisk(p)).isFile();
    } catch {
      return false;
    }
  };
  for (const dir of importPaths) {
    if (dir === '') throw new ProtoParseError(['--proto_path passed empty directory name.  (Use "." for current directory.)']);
  }
  // protoc's DiskSourceTree maps virtual paths to disk paths; plain -I directories are the virtual path "".
  const mappings: Mapping[] = (importPaths.length > 0 ? importPaths : ['.']).map((dir) => ({
    virtualPath: '',
    diskPath: canonicalizePath(dir),
  }));

  const virtualToDisk = (name: string): string | undefined => {
    if (name !== canonicalizePath(name) || containsParentReference(name)) return undefined;
    for (const m of mappings) {
      const disk = applyMapping(name, m.virtualPath, m.diskPath);
      if (disk !== undefined && isFile(disk)) return disk;
    }
    return undefined;
  };

  return {
    inputName(file) {
      if (!exists(file)) {
        if (virtualToDisk(file) !== undefined || loadWellKnown(file)) return file;
        throw new ProtoParseError([`Could not make proto path relative: ${file}: No such file or directory`]);
      }
      const canonical = canonicalizePath(file);
      const index = mappings.findIndex((m) => applyMapping(canonical, m.diskPath, m.virtualPath) !== undefined);
      if (index < 0) {
        // Not under any -I directory: it may still be a virtual name that happens to exist here too.
        if (virtualToDisk(file) !== undefined) return file;
        throw new ProtoParseError([`${file}: ${NOT_WITHIN}`]);
      }
      const virtual = applyMapping(canonical, mappings[index].diskPath, mappings[index].virtualPath)!;
      for (const m of mappings.slice(0, index)) {
        const shadow = applyMapping(virtual, m.virtualPath, m.diskPath);
        if (shadow !== undefined && exists(shadow)) {
          throw new ProtoParseError([
            `${file}: Input is shadowed in the --proto_path by "${shadow}".  Either use the latter file as your input or reorder the --proto_path so that the former file's location comes first.`,
          ]);
        }
      }
      return virtual;
    },
    open(name) {
      if (name !== canonicalizePath(name) || containsParentReference(name)) {
        return { error: 'Backslashes, consecutive slashes, ".", or ".." are not allowed in the virtual path' };
      }
      const diskPath = virtualToDisk(name);
      if (diskPath !== undefined) return { name, origin: 'disk', diskPath, source: readFileSync(onDisk(diskPath), 'utf8') };
      const wellKnown = loadWellKnown(name);
      if (wellKnown) return { name, origin: 'well-known', ...wellKnown };
      return { error: 'File not found.' };
    },
  };
}
