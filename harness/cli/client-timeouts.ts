// --head-timeout, --request-timeout and --idle-timeout of `touchstone proxy` and `touchstone
// serve`: how long a client may take to send a request head, a whole request, and how long an
// idle keep-alive connection stays open (seconds; the defaults are each server's own, in its
// --help). A server behind a slow network or a load generator may need more or less.
import type { Argv } from 'yargs';
import { HarnessError } from '../core/errors.js';

export interface ClientTimeoutArgs {
  headTimeout?: number;
  requestTimeout?: number;
  idleTimeout?: number;
}

/** The three options, with the server's defaults (milliseconds) shown in --help. */
export function clientTimeoutOptions<T>(yargs: Argv<T>, defaults: { headersMs: number; requestMs: number; idleMs: number }) {
  const seconds = (ms: number) => `${ms / 1000} s`;
  return yargs
    .option('head-timeout', {
      type: 'number',
      describe: `seconds a client may take to send a request head (default ${seconds(defaults.headersMs)})`,
    })
    .option('request-timeout', {
      type: 'number',
      describe: `seconds a client may take to send a whole request (default ${seconds(defaults.requestMs)})`,
    })
    .option('idle-timeout', {
      type: 'number',
      describe: `seconds an idle keep-alive connection stays open (default ${seconds(defaults.idleMs)})`,
    });
}

/** The timeouts given, in milliseconds; a usage error for anything but a positive number of seconds. */
export function clientTimeouts(argv: ClientTimeoutArgs): { headersMs?: number; requestMs?: number; idleMs?: number } {
  const ms = (flag: string, value: number | undefined) => {
    if (value === undefined) return undefined;
    if (!Number.isFinite(value) || value <= 0 || value > 86_400)
      throw new HarnessError('USAGE', `--${flag} ${value} is not a number of seconds between 0 and 86400`);
    return Math.round(value * 1000);
  };
  const timeouts = {
    headersMs: ms('head-timeout', argv.headTimeout),
    requestMs: ms('request-timeout', argv.requestTimeout),
    idleMs: ms('idle-timeout', argv.idleTimeout),
  };
  return Object.fromEntries(Object.entries(timeouts).filter(([, value]) => value !== undefined));
}
