// `touchstone serve`: the reference service as a standalone server.
import type { Argv } from 'yargs';
import { DEFAULT_CLIENT_TIMEOUTS } from '../../reference-impl/service/client-timeouts.js';
import { type ClientTimeoutArgs, clientTimeoutOptions, clientTimeouts } from './client-timeouts.js';
import { startReferenceService } from './embedded-reference.js';

/** Its options and work; harness/cli/main.ts names and describes it. */
export const command = {
  builder: (yargs: Argv) =>
    clientTimeoutOptions(yargs, DEFAULT_CLIENT_TIMEOUTS)
      .option('port', { type: 'number', default: 8080, describe: 'port (0 picks a free one)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to bind' })
      .option('world', { type: 'string', describe: 'world file (default suites/world.yaml)' })
      .option('fault', {
        type: 'array',
        string: true,
        default: [] as string[],
        describe: 'switch on a built-in fault (repeatable; suites/faults lists them); a reset keeps it on',
      })
      .option('variant', {
        type: 'array',
        string: true,
        default: [] as string[],
        describe:
          'switch on a built-in variation, another choice the spec allows (repeatable; suites/variants lists them); a reset keeps it on',
      })
      .option('trust-proxy', {
        type: 'array',
        string: true,
        default: [] as string[],
        describe: 'believe X-Forwarded-Proto and X-Forwarded-Host from this address or subnet (repeatable; default this machine only)',
      })
      .option('import-webhook', {
        type: 'string',
        describe: 'POST RepositoryImportEvent webhooks (source import status changes) to this URL',
      })
      .example('$0 serve --port 8080', 'the reference at http://127.0.0.1:8080')
      .example('$0 serve --port 0 --fault pagination.no-link-header', 'a reference that breaks a rule, to see a suite catch it')
      .example(
        '$0 serve --port 0 --variant social.duplicate-accepted',
        'a reference that reads the spec otherwise, to see the suites accept it',
      ),
  handler: async (
    argv: {
      port: number;
      host: string;
      world?: string;
      fault: string[];
      variant: string[];
      importWebhook?: string;
      trustProxy: string[];
    } & ClientTimeoutArgs,
  ) => {
    const service = await startReferenceService({
      clientTimeouts: clientTimeouts(argv),
      port: argv.port,
      host: argv.host,
      worldFile: argv.world,
      faults: argv.fault,
      variants: argv.variant,
      importWebhook: argv.importWebhook,
      trustProxy: argv.trustProxy,
    });
    const stop = async () => {
      await service.close();
      process.exit(0);
    };
    // Listening for signals before the address is out: a client may stop us at once.
    process.once('SIGINT', stop).once('SIGTERM', stop);
    const switched = [
      ...(argv.fault.length > 0 ? [`faults ${argv.fault.join(', ')}`] : []),
      ...(argv.variant.length > 0 ? [`variations ${argv.variant.join(', ')}`] : []),
    ];
    process.stdout.write(`touchstone: serving ${service.url}${switched.length > 0 ? ` with ${switched.join(' and ')}` : ''}\n`);
  },
};
