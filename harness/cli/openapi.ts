// `touchstone openapi`: the reference service as an OpenAPI 3.1 document
// (reference-impl/service/openapi.ts), printed or written to --out; with --control, the control
// API a target may serve beside it (lib/control-contract.ts, explained in docs/target-contract.md).
// The reference is imported when the command runs, as embedded-reference.ts does, so the CLI's
// module graph stays free of it.
import type { Argv } from 'yargs';
import { controlOpenApiDocument } from '../../lib/control-contract.js';
import { packageVersion } from '../../lib/project-files.js';
import { writeFileAtomic } from '../core/write-file-atomic.js';

/** Its options and work; harness/cli/main.ts names and describes it. */
export const command = {
  builder: (yargs: Argv) =>
    yargs
      .option('out', { type: 'string', describe: 'write it to this file instead of stdout' })
      .option('control', {
        type: 'boolean',
        default: false,
        describe: 'the control API (/_conformance/*) a target serves for touchstone instead (docs/target-contract.md)',
      })
      .example('$0 openapi --out service.openapi.json', 'for API tools, client generators and documentation')
      .example('$0 openapi --control', 'the routes a target may serve so that every case can run'),
  handler: async (argv: { out?: string; control: boolean }) => {
    const document = argv.control ? controlOpenApiDocument(packageVersion()) : await serviceDocument();
    const text = `${JSON.stringify(document, null, 2)}\n`;
    if (argv.out) writeFileAtomic(argv.out, text);
    else process.stdout.write(text);
  },
};

async function serviceDocument(): Promise<unknown> {
  const { openApiDocument } = await import('../../reference-impl/service/openapi.js');
  const { allEndpoints } = await import('../../reference-impl/service/generated-files.js');
  return openApiDocument(allEndpoints(), packageVersion());
}
