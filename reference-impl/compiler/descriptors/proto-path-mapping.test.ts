// Input files to import-relative names, as protoc 3.21's DiskSourceTree does it.
import { expect, test } from '@playwright/test';
import path from 'node:path';
import { canonicalizePath, makeInputsRelative, type PathProbe } from './proto-path-mapping.js';

/** A file system holding `files` (and their directories), resolving paths as the OS would. */
function probe(files: string[]): PathProbe {
  const isFile = (p: string) => files.includes(path.posix.normalize(p));
  const exists = (p: string) => isFile(p) || files.some((f) => f.startsWith(`${path.posix.normalize(p)}/`));
  return { exists, openError: (p) => (isFile(p) ? undefined : Object.assign(new Error('ENOENT'), { code: 'ENOENT' })) };
}
const none = () => false;

test('canonicalization drops empty and "." components, keeps leading and trailing slashes', () => {
  expect(['.', './a//b/', '/x/./y', 'a/../b'].map(canonicalizePath)).toEqual(['', 'a/b/', '/x/y', 'a/../b']);
});

test('disk paths under an import directory become relative; virtual names stay as given', () => {
  const disk = probe(['protos/a/b.proto', 'c.proto']);
  expect(makeInputsRelative(['protos/a/b.proto', './protos/a/b.proto', 'a/b.proto'], ['protos'], disk, none)).toEqual({
    ok: true,
    names: ['a/b.proto', 'a/b.proto', 'a/b.proto'],
  });
  expect(makeInputsRelative(['c.proto'], ['.'], disk, none)).toEqual({ ok: true, names: ['c.proto'] });
});

test("protoc's errors: not found, outside every import directory, shadowed", () => {
  const disk = probe(['protos/a.proto', 'other/a.proto', 'elsewhere/x.proto']);
  expect(makeInputsRelative(['nope.proto'], ['protos'], disk, none)).toEqual({
    ok: false,
    message: 'Could not make proto path relative: nope.proto: No such file or directory\n',
  });
  const outside = makeInputsRelative(['elsewhere/x.proto'], ['protos'], disk, none);
  expect(outside.ok || outside.message).toMatch(
    /^elsewhere\/x\.proto: File does not reside within any path specified using --proto_path \(or -I\)\./,
  );
  expect(makeInputsRelative(['other/a.proto'], ['protos', 'other'], disk, none)).toEqual({
    ok: false,
    message:
      'other/a.proto: Input is shadowed in the --proto_path by "protos/a.proto".  Either use the latter file as your input or reorder the --proto_path so that the former file\'s location comes first.\n',
  });
  expect(
    makeInputsRelative(['in-set.proto'], ['protos'], disk, (n) => n === 'in-set.proto'),
    'a descriptor set is the fallback',
  ).toEqual({ ok: true, names: ['in-set.proto'] });
});
