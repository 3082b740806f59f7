// The committed fixture descriptors are what the reference compiler's parser gives today,
// and describe requests exactly as parsing the fixtures does.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { PLUGIN_PROTO_JSON_PATH, parsePluginProto, pluginProtoJson, pluginProtoRoot } from '../../lib/plugin-proto.js';
import { parseProtoFiles } from '../../reference-impl/compiler/descriptors/proto-parser.js';
import { suitePaths } from '../core/suite-paths.js';
import { loadFixtureDescriptors } from '../plugin/fixture-descriptors.js';
import { readProtoFile } from '../protocol/plugin-codec.js';
import { fixtureDescriptorsText } from './plugin-fixtures.js';

test('suites/plugin/fixture-descriptors.json is up to date (npm run fixtures:plugin rewrites it)', () => {
  expect(readFileSync(suitePaths.pluginFixtureDescriptors, 'utf8'), 'run `npm run fixtures:plugin` and commit the result').toBe(
    fixtureDescriptorsText(),
  );
});

test('harness/protocol/plugin-proto.json is plugin.proto as parsed today, and encodes as the parse does', () => {
  const parsed = parsePluginProto();
  expect(readFileSync(PLUGIN_PROTO_JSON_PATH, 'utf8'), 'run `npm run fixtures:plugin` and commit the result').toBe(pluginProtoJson(parsed));
  // The same bytes from both, for a request using proto3 optional, editions-era descriptor fields and options.
  const request = {
    file_to_generate: ['a.proto'],
    parameter: 'p',
    compiler_version: { major: 3, minor: 21, patch: 12, suffix: '' },
    proto_file: [
      {
        name: 'a.proto',
        syntax: 'proto3',
        options: { java_package: 'x', optimize_for: 'CODE_SIZE' },
        message_type: [
          {
            name: 'M',
            field: [{ name: 'f', number: 1, type: 'TYPE_STRING', label: 'LABEL_OPTIONAL', proto3_optional: true, oneof_index: 0 }],
            oneof_decl: [{ name: '_f' }],
          },
        ],
      },
    ],
  };
  const bytes = (root: typeof parsed) => {
    const type = root.lookupType('google.protobuf.compiler.CodeGeneratorRequest');
    return Buffer.from(type.encode(type.fromObject(request)).finish()).toString('hex');
  };
  expect(bytes(pluginProtoRoot())).toBe(bytes(parsed));
});

test('the committed descriptors give the files a parse gives, in the same order, imports first', () => {
  const describe = loadFixtureDescriptors();
  for (const files of [
    ['shop/catalog.proto'],
    ['shop/catalog.proto', 'optional.proto', 'legacy.proto'],
    ['clash/stock.proto', 'clash/stock'],
  ]) {
    const parsed = [...parseProtoFiles(files, [suitePaths.pluginFixtures]).values()].map((file) => readProtoFile(file.bytes, file.name));
    const shown = (described: typeof parsed) =>
      described.map(({ name, dependency, bytes }) => ({ name, dependency, bytes: Buffer.from(bytes).toString('hex') }));
    expect(shown(describe(files))).toEqual(shown(parsed));
  }
  expect(() => describe(['no-such.proto'])).toThrow('no-such.proto is not a fixture described in');
});
