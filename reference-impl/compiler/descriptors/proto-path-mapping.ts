// Turning the input files named on the command line into the names the compiler and the
// plugins use (file_to_generate): protoc 3.21's MakeProtoProtoPathRelative over a
// DiskSourceTree (importer.cc). `protoc -Iprotos protos/a/b.proto` generates "a/b.proto";
// `protoc -Iprotos a/b.proto` means the same file; a file that is on disk but under no
// import directory, or that an earlier directory shadows, is an error with protoc's text.
// Only plain directories (virtual path "") reach here: protoc-args.ts refuses mappings.
import { errnoText } from '../common/errno-text.js';

export interface PathProbe {
  /** access(path, F_OK) relative to the compiler's cwd. */
  exists(path: string): boolean;
  /** Tries open(path, O_RDONLY); the error when it fails. */
  openError(path: string): NodeJS.ErrnoException | undefined;
}

export type RelativeInputs = { ok: true; names: string[] } | { ok: false; message: string };

/** importer.cc CanonicalizePath: drops empty and "." components, keeps leading and trailing '/'. */
export function canonicalizePath(path: string): string {
  let result = path
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
  if (path.startsWith('/')) result = `/${result}`;
  if (path.endsWith('/') && result !== '' && !result.endsWith('/')) result += '/';
  return result;
}

export function containsParentReference(path: string): boolean {
  return path === '..' || path.startsWith('../') || path.endsWith('/..') || path.includes('/../');
}

/** importer.cc ApplyMapping: `filename` under `oldPrefix`, re-rooted at `newPrefix`. */
export function applyMapping(filename: string, oldPrefix: string, newPrefix: string): string | undefined {
  const join = (rest: string) => (newPrefix === '' ? rest : `${newPrefix}/${rest}`);
  if (oldPrefix === '') {
    if (containsParentReference(filename) || filename.startsWith('/')) return undefined;
    return join(filename);
  }
  if (!filename.startsWith(oldPrefix)) return undefined;
  if (filename.length === oldPrefix.length) return newPrefix;
  let restStart = -1;
  if (filename[oldPrefix.length] === '/') restStart = oldPrefix.length + 1;
  else if (oldPrefix.endsWith('/')) restStart = oldPrefix.length;
  if (restStart < 0) return undefined;
  const rest = filename.slice(restStart);
  return containsParentReference(rest) ? undefined : join(rest);
}

/** DiskSourceTree::VirtualFileToDiskFile: can the file `name` be opened through some import directory? */
export function virtualFileExists(name: string, importDirectories: string[], probe: PathProbe): boolean {
  if (name !== canonicalizePath(name) || containsParentReference(name)) return false;
  for (const root of importDirectories.map(canonicalizePath)) {
    const disk = applyMapping(name, '', root);
    if (disk === undefined) continue;
    const error = probe.openError(disk);
    if (error === undefined) return true;
    if (error.code === 'EACCES') return false;
  }
  return false;
}

export function makeInputsRelative(
  inputs: string[],
  importDirectories: string[],
  probe: PathProbe,
  inDescriptorSets: (name: string) => boolean,
): RelativeInputs {
  // DiskSourceTree::MapPath canonicalizes the disk side; the virtual side is "" here.
  const diskRoots = importDirectories.map(canonicalizePath);
  const foundThroughImports = (name: string) => virtualFileExists(name, importDirectories, probe);

  const names: string[] = [];
  for (const input of inputs) {
    const inSets = inDescriptorSets(input);
    if (!probe.exists(input)) {
      if (foundThroughImports(input) || inSets) {
        names.push(input);
        continue;
      }
      return { ok: false, message: `Could not make proto path relative: ${input}: No such file or directory\n` };
    }
    const canonical = canonicalizePath(input);
    const index = diskRoots.findIndex((root) => applyMapping(canonical, root, '') !== undefined);
    if (index < 0) {
      if (foundThroughImports(input) || inSets) {
        names.push(input);
        continue;
      }
      return {
        ok: false,
        message:
          `${input}: File does not reside within any path specified using --proto_path (or -I).  You must specify a --proto_path which encompasses this file.  ` +
          "Note that the proto_path must be an exact prefix of the .proto file names -- protoc is too dumb to figure out when two paths (e.g. absolute and relative) are equivalent (it's harder than you think).\n",
      };
    }
    const name = applyMapping(canonical, diskRoots[index], '')!;
    for (const root of diskRoots.slice(0, index)) {
      const shadowing = applyMapping(name, '', root);
      if (shadowing !== undefined && probe.exists(shadowing)) {
        return {
          ok: false,
          message: `${input}: Input is shadowed in the --proto_path by "${shadowing}".  Either use the latter file as your input or reorder the --proto_path so that the former file's location comes first.\n`,
        };
      }
    }
    const openError = probe.openError(input);
    if (openError !== undefined) {
      if (inSets) {
        names.push(input);
        continue;
      }
      return { ok: false, message: `Could not map to virtual file: ${input}: ${errnoText(openError)}\n` };
    }
    names.push(name);
  }
  return { ok: true, names };
}
