// `touchstone plugin --proto FILE [--proto-path DIR]`: the user's own schema files, described
// the way a compiler describes them, so the cases that name {proto} (suites/plugin/own.yaml,
// io/real-request) build their requests from them. The CLI is the one harness layer that may
// use the reference compiler's parser, as plugin-fixtures.ts does for the built-in fixtures.
//
// Decisions where the brief is silent:
// - --proto and --proto-path mean what protoc's input files and -I mean: names are relative
//   to the first import directory that holds them (default: the working directory), and the
//   errors are protoc's ("File does not reside within any path specified using --proto_path").
// - A file of the user's set (given or imported) may not share a name with a built-in
//   fixture: the two would describe one name two ways in the same run.
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import type { FixtureDescriptors } from '../plugin/fixture-descriptors.js';
import { createSourceTree } from '../../reference-impl/compiler/descriptors/descriptor-source-tree.js';
import { parseProtoFiles, ProtoParseError } from '../../reference-impl/compiler/descriptors/proto-parser.js';

export interface OwnFixtures {
  /** file_to_generate: the given files, by their names under the import directories, in the order given. */
  files: string[];
  /** Every file of the set (the given ones and what they import), described. */
  descriptors: FixtureDescriptors['files'];
}

/** Describes `files` (--proto) found under `protoPaths` (--proto-path; the working directory when empty). */
export function describeOwnFiles(files: readonly string[], protoPaths: readonly string[], builtIn: ReadonlySet<string>): OwnFixtures {
  const importPaths = protoPaths.length ? [...protoPaths] : ['.'];
  try {
    const tree = createSourceTree(importPaths);
    const names = files.map((file) => tree.inputName(file));
    const repeated = names.find((name, i) => names.indexOf(name) !== i);
    if (repeated) throw new HarnessError('USAGE', `--proto names ${repeated} twice`);
    const parsed = parseProtoFiles([...files], importPaths);
    const clash = [...parsed.keys()].find((name) => builtIn.has(name));
    if (clash)
      throw new HarnessError(
        'USAGE',
        `--proto: ${clash} has the name of one of touchstone's own fixtures; give your files under a folder of their own (--proto-path DIR)`,
      );
    return {
      files: names,
      descriptors: [...parsed.values()].map((file) => ({
        name: file.name,
        dependency: file.dependency,
        descriptor: Buffer.from(file.bytes).toString('base64'),
      })),
    };
  } catch (error) {
    if (error instanceof ProtoParseError)
      throw new HarnessError(
        'USAGE',
        `--proto ${files.join(' ')} (under ${importPaths.map((dir) => path.resolve(dir)).join(', ')}) cannot be read as protoc would:\n  ${error.lines.join('\n  ')}`,
      );
    throw error;
  }
}
