// `touchstone openapi`: the reference service as an OpenAPI 3.1 document
// (reference-impl/service/openapi.ts), printed or written to --out. The reference is imported
// when the command runs, as embedded-reference.ts does, so the CLI's module graph stays free of it.
import type { Argv } from 'yargs';
import { packageVersion } from '../../lib/project-files.js';
import { writeFileAtomic } from '../core/write-file-atomic.js';

/** Its options and work; harness/cli/main.ts names and describes it. */
export const command = {
  builder: (yargs: Argv) =>
    yargs
      .option('out', { type: 'string', describe: 'write it to this file instead of stdout' })
      .example('$0 openapi --out service.openapi.json', 'for API tools, client generators and documentation'),
  handler: async (argv: { out?: string }) => {
    const { openApiDocument } = await import('../../reference-impl/service/openapi.js');
    const { allEndpoints } = await import('../../reference-impl/service/generated-files.js');
    const text = `${JSON.stringify(openApiDocument(allEndpoints(), packageVersion()), null, 2)}\n`;
    if (argv.out) writeFileAtomic(argv.out, text);
    else process.stdout.write(text);
  },
};
