// The committed fixture descriptors are what the reference compiler's parser gives today,
// and describe requests exactly as parsing the fixtures does.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
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
