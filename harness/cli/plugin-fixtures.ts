// Where plugin requests come from: the fixture .proto files under suites/plugin/fixtures,
// described by the reference compiler's parser (the harness has no parser of its own;
// the CLI is where the harness may use the reference implementation).
import path from 'node:path';
import { parseProtoFiles } from '../../reference-impl/compiler/proto-parser.js';
import type { DescribeFiles } from '../plugin/plugin-input.js';
import { readProtoFile } from '../protocol/plugin-codec.js';
import { SUITES_DIR } from '../suite/suite-paths.js';

export const PLUGIN_SUITES_DIR = path.join(SUITES_DIR, 'plugin');
export const PLUGIN_FIXTURES_DIR = path.join(PLUGIN_SUITES_DIR, 'fixtures');

/** Every named fixture and its imports, in the order a compiler sends them (imports first). */
export const describeFixtures: DescribeFiles = (files) =>
  [...parseProtoFiles(files, [PLUGIN_FIXTURES_DIR]).values()].map((file) => readProtoFile(file.bytes, file.name));
