// `touchstone proxy`: the record/replay proxy in front of any target, for clients in any
// language. The first line on stdout is the address; per-request lines go to stderr (--log);
// SIGINT/SIGTERM compacts recordings, prints the summary and exits 0 (1 with --fail-on-miss
// when a request missed, --fail-on-unused when something went unused, or, in verify, unless
// --no-fail-on-diff, when a live answer did not match the recording; the summary's last line
// saying which).
import type { Argv } from 'yargs';
import { HarnessError } from '../core/errors.js';
import { readSecretsFile } from '../http/tokens-file.js';
import { readProxyConfig } from '../proxy/proxy-config.js';
import {
  DEFAULT_CLI_LOG_LEVEL,
  DEFAULT_EXHAUSTION,
  DEFAULT_PROXY_CLIENT_TIMEOUTS,
  DEFAULT_RECORD_MODE,
  EXHAUSTION_POLICIES,
  LOG_LEVELS,
  PROXY_MODES,
  RECORD_MODES,
  type ExhaustionPolicy,
  type LogLevel,
  type ProxyMode,
  type RecordMode,
} from '../proxy/proxy-options.js';
import { createProxy } from '../proxy/proxy-server.js';
import { checkProxyGates, formatProxyStop, type ProxyGates } from '../proxy/proxy-summary.js';
import { type ClientTimeoutArgs, clientTimeoutOptions, clientTimeouts } from './client-timeouts.js';

interface ProxyArgs extends ClientTimeoutArgs {
  mode: ProxyMode;
  recordMode?: RecordMode;
  log: LogLevel;
  failOnMiss: boolean;
  target?: string;
  cassette: string;
  port: number;
  host: string;
  secrets?: string;
  config?: string;
  exhausted: ExhaustionPolicy;
  missStatus?: number;
  failOnUnused: boolean;
  failOnDiff: boolean;
  allowRemote: boolean;
}

/** This machine only: 127.0.0.0/8, ::1, localhost. */
export const isLoopback = (host: string) => /^(127(\.\d{1,3}){3}|::1|\[::1\]|localhost)$/i.test(host);

/**
 * An address other machines can reach makes the proxy a relay: anyone could send requests to
 * the target through it, with the secrets a replay restores. Refused unless --allow-remote
 * says it is meant, and then said on stderr.
 */
export function listenWarning(host: string, allowRemote: boolean): string | undefined {
  if (isLoopback(host)) return undefined;
  const risk = `--host ${host} can be reached from other machines, and a proxy there relays their requests to the target (with the secrets it restores)`;
  if (!allowRemote) throw new HarnessError('USAGE', `${risk}; add --allow-remote if that is what you want`);
  return `touchstone: warning: ${risk}\n`;
}

/** Its options and work; harness/cli/main.ts names and describes it. */
export const command = {
  // The options a user picks first come first (what to do, against what, with which
  // cassette); the client timeouts, rarely changed, come last.
  builder: (yargs: Argv) =>
    clientTimeoutOptions(
      yargs
        .option('mode', { choices: PROXY_MODES, demandOption: true, describe: 'replay never contacts the target' })
        .option('record-mode', {
          choices: RECORD_MODES,
          describe: `with --mode record, what an existing cassette becomes (default ${DEFAULT_RECORD_MODE}: replayed and kept; new_episodes: new requests appended; all: re-recorded; none: replay only)`,
        })
        .option('target', { type: 'string', describe: 'base URL of the target (not needed for replay)' })
        .option('cassette', {
          type: 'string',
          demandOption: true,
          describe: 'a *.cassette.json file, or a folder (requests pick a cassette with x-touchstone-cassette)',
        })
        .option('port', { type: 'number', default: 0, describe: 'port (0 picks a free one)' })
        .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to bind' })
        .option('secrets', {
          type: 'string',
          describe: 'YAML map name -> secret (values may be ${ENV}); recorded as <secret:name>, restored on replay',
        })
        .option('config', { type: 'string', describe: 'YAML/JSON match and redaction rules' })
        .option('exhausted', {
          choices: EXHAUSTION_POLICIES,
          default: DEFAULT_EXHAUSTION,
          describe: 'after the last recorded answer to a request: the last again, a miss, or from the first again',
        })
        .option('miss-status', { type: 'number', describe: 'status of a miss (default 599)' })
        .option('fail-on-miss', { type: 'boolean', default: false, describe: 'exit 1 if a request missed' })
        .option('fail-on-unused', { type: 'boolean', default: false, describe: 'exit 1 if recorded interactions were never asked for' })
        .option('fail-on-diff', {
          type: 'boolean',
          default: true,
          describe: 'with --mode verify, exit 1 if a live answer did not match the recording (--no-fail-on-diff: report only)',
        })
        .option('log', {
          choices: LOG_LEVELS,
          default: DEFAULT_CLI_LOG_LEVEL,
          describe: 'lines on stderr: warn, a line per miss or failure; info, a line per request; debug, why each miss missed',
        })
        .option('allow-remote', {
          type: 'boolean',
          default: false,
          describe: 'let --host be an address other machines can reach (the proxy then relays their requests)',
        }),
      DEFAULT_PROXY_CLIENT_TIMEOUTS,
    )
      .example(
        '$0 proxy --mode record --target https://impl.example --cassette session.cassette.json --port 9000',
        'record what passes through (a cassette recorded already is replayed, not replaced)',
      )
      .example('$0 proxy --mode record --record-mode all --target https://impl.example --cassette session.cassette.json', 're-record it')
      .example(
        '$0 proxy --mode replay --cassette session.cassette.json --port 9000 --fail-on-miss --log info',
        'answer from the recording, offline, a line per request',
      )
      .example(
        '$0 proxy --mode verify --target https://impl.example --cassette session.cassette.json --port 9000',
        'forward, and exit 1 at the stop if an answer no longer matches the recording',
      ),
  handler: async (argv: ProxyArgs) => {
    const gates: ProxyGates = { failOnMiss: argv.failOnMiss, failOnUnused: argv.failOnUnused, failOnDiff: argv.failOnDiff };
    checkProxyGates(argv.mode, gates);
    const warning = listenWarning(argv.host, argv.allowRemote);
    if (warning) process.stderr.write(warning);
    const config = argv.config ? readProxyConfig(argv.config) : {};
    const secrets = argv.secrets ? readSecretsFile(argv.secrets, '--secrets') : undefined;
    const timeouts = clientTimeouts(argv);
    const proxy = await createProxy({
      mode: argv.mode,
      recordMode: argv.recordMode,
      target: argv.target,
      cassette: argv.cassette,
      port: argv.port,
      host: argv.host,
      match: config.match,
      redaction: { ...config.redaction, secrets },
      exhausted: argv.exhausted,
      missStatus: argv.missStatus,
      clientTimeouts: timeouts,
      log: argv.log,
    });
    const stop = async () => {
      const { summary } = await proxy.close();
      const { text, code } = formatProxyStop(summary, gates);
      process.stdout.write(text);
      process.exit(code);
    };
    // Listening for signals before the address is out: a client may stop us at once.
    process.once('SIGINT', stop).once('SIGTERM', stop);
    process.stdout.write(`touchstone: proxy (${argv.mode}) on ${proxy.url}\n`);
  },
};
