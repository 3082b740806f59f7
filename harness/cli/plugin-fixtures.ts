// Writes suites/plugin/fixture-descriptors.json: every .proto fixture of the plugin suites,
// described by the reference compiler's parser (the harness has no parser of its own, and
// the CLI is the one harness layer that may use the reference); and
// harness/protocol/plugin-proto.json, plugin.proto's types as lib/plugin-proto.ts loads them.
// `npm run fixtures:plugin` runs this; harness/cli/plugin-fixtures.test.ts fails when a
// committed file is stale.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PLUGIN_PROTO_JSON_PATH, parsePluginProto, pluginProtoJson } from '../../lib/plugin-proto.js';
import { parseProtoFiles } from '../../reference-impl/compiler/descriptors/proto-parser.js';
import { suitePaths } from '../core/suite-paths.js';
import { FIXTURE_DESCRIPTORS_FORMAT, type FixtureDescriptors } from '../plugin/fixture-descriptors.js';

/** Every file under the fixtures folder, '/'-separated and sorted. */
function fixtureNames(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? fixtureNames(path.join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
    )
    .sort();
}

export function describeAllFixtures(dir: string = suitePaths.pluginFixtures): FixtureDescriptors {
  const files = new Map<string, FixtureDescriptors['files'][number]>();
  // One parse per fixture: each is a valid input on its own, with its imports.
  for (const name of fixtureNames(dir)) {
    for (const parsed of parseProtoFiles([name], [dir]).values()) {
      files.set(parsed.name, {
        name: parsed.name,
        dependency: parsed.dependency,
        descriptor: Buffer.from(parsed.bytes).toString('base64'),
      });
    }
  }
  return { format: FIXTURE_DESCRIPTORS_FORMAT, files: [...files.values()].sort((a, b) => (a.name < b.name ? -1 : 1)) };
}

export function fixtureDescriptorsText(): string {
  return `${JSON.stringify(describeAllFixtures(), null, 2)}\n`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const [file, wanted] of [
    [suitePaths.pluginFixtureDescriptors, fixtureDescriptorsText()],
    [PLUGIN_PROTO_JSON_PATH, pluginProtoJson(parsePluginProto())],
  ]) {
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      // first run
    }
    if (wanted !== current) writeFileSync(file, wanted);
    process.stdout.write(`${file}: ${wanted === current ? 'up to date' : 'written'}\n`);
  }
}
