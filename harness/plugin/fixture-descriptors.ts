// The plugin suites' .proto fixtures as a compiler describes them (FileDescriptorProtos),
// read from suites/plugin/fixture-descriptors.json. The harness has no .proto parser of its
// own: that file is written by `npm run fixtures:plugin` with the reference compiler's parser
// (harness/cli/plugin-fixtures.ts), committed, and a test fails when it is stale, as for the
// recorded cassettes.
import { readFileSync } from 'node:fs';
import { HarnessError } from '../core/errors.js';
import { suitePaths } from '../core/suite-paths.js';
import { readProtoFile } from '../protocol/plugin-codec.js';
import type { DescribeFiles } from './plugin-input.js';

export const FIXTURE_DESCRIPTORS_FORMAT = 'touchstone-plugin-fixtures/1';

export interface FixtureDescriptors {
  format: typeof FIXTURE_DESCRIPTORS_FORMAT;
  /** Every fixture, by name relative to the fixtures folder, with its imports and its encoded FileDescriptorProto (base64). */
  files: { name: string; dependency: string[]; descriptor: string }[];
}

/**
 * A DescribeFiles over the committed descriptors and `own` (the files of --proto, described by
 * the CLI): the named files and everything they import, imports first.
 */
export function loadFixtureDescriptors(
  file: string = suitePaths.pluginFixtureDescriptors,
  own: readonly FixtureDescriptors['files'][number][] = [],
): DescribeFiles {
  let data: FixtureDescriptors;
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as FixtureDescriptors;
  } catch (error) {
    throw new HarnessError(
      'CONFIG',
      `${file}: cannot read the fixture descriptors (npm run fixtures:plugin writes them): ${(error as Error).message}`,
    );
  }
  if (data.format !== FIXTURE_DESCRIPTORS_FORMAT || !Array.isArray(data.files))
    throw new HarnessError('CONFIG', `${file}: not ${FIXTURE_DESCRIPTORS_FORMAT}`);
  const byName = new Map([...data.files, ...own].map((entry) => [entry.name, entry]));
  return (names) => {
    const ordered: ReturnType<DescribeFiles> = [];
    const seen = new Set<string>();
    // Each file after the files it imports, each once: the order of CodeGeneratorRequest.proto_file.
    const visit = (name: string) => {
      if (seen.has(name)) return;
      seen.add(name);
      const entry = byName.get(name);
      if (!entry)
        throw new HarnessError('CONFIG', `${name} is not a fixture described in ${file} (run npm run fixtures:plugin after adding one)`);
      for (const dependency of entry.dependency) visit(dependency);
      ordered.push(readProtoFile(Buffer.from(entry.descriptor, 'base64'), name));
    };
    for (const name of names) visit(name);
    return ordered;
  };
}

/** The names the committed descriptors describe: a --proto file may not take one of them. */
export function fixtureNames(file: string = suitePaths.pluginFixtureDescriptors): Set<string> {
  return new Set((JSON.parse(readFileSync(file, 'utf8')) as FixtureDescriptors).files.map((entry) => entry.name));
}
