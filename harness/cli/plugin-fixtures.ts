// Where plugin requests come from: the fixture .proto files under suites/plugin/fixtures,
// described by the reference compiler's parser (the harness has no parser of its own;
// the CLI is where the harness may use the reference implementation).
import { parseProtoFiles } from '../../reference-impl/compiler/proto-parser.js';
import type { DescribeFiles } from '../plugin/plugin-input.js';
import { readProtoFile } from '../protocol/plugin-codec.js';
import { suitePaths } from '../suite/suite-paths.js';

/** Every named fixture and its imports, in the order a compiler sends them (imports first). */
export const describeFixtures: DescribeFiles = (files) =>
  [...parseProtoFiles(files, [suitePaths.pluginFixtures]).values()].map((file) => readProtoFile(file.bytes, file.name));
