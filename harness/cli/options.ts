// The options of the commands that run suites, as the library takes them (harness/cli/api.ts)
// and as the commands' handlers get them from yargs (which gives each flag in camelCase too).
// Kept apart from the commands, which import yargs: the library's types must not need yargs'.
import type { RecordMode } from '../proxy/proxy-options.js';

/** Which cases to run (or list): --suite, --only, --grep, --grep-invert. */
export interface SelectionOptions {
  suite?: string | string[];
  only?: string | string[];
  grep?: string;
  grepInvert?: string;
}

/**
 * What `touchstone run` and the library's run() take: each key is the flag of the same name in
 * camelCase (the flags' descriptions say what each does). Seconds and counts may be numbers or
 * the text a flag would give.
 */
export interface RunOptions extends SelectionOptions {
  /** One per worker when there are several: each worker's cases change only its own target's state. */
  target?: string | string[];
  workers?: number;
  shard?: string;
  tokens?: string;
  requestTimeout?: number | string;
  caseTimeout?: number | string;
  maxFailures?: number | string;
  out?: string;
  /** The reports to write (--reporter): html, junit, json, markdown, ctrf, github; absent, all but github. */
  reporter?: string | string[];
  strict?: boolean;
  baseline?: string;
  record?: string;
  /** With record: what a case's existing cassette becomes, as VCR's record modes (default once: replayed and kept). */
  recordMode?: RecordMode;
  replay?: string;
  /** With replay: selected cases the recordings do not hold are SKIP (else a usage error naming them). */
  skipUnrecorded?: boolean;
  /** false (--no-preflight): judge the target even when it does not answer like the service. */
  preflight?: boolean;
}

/** What `touchstone plugin` and `compiler` (and the library's judgePlugin) take besides the target: the flags, in camelCase. */
export interface ProtocolRunOptions extends SelectionOptions {
  workers?: number;
  shard?: string;
  out?: string;
  /** The reports to write (--reporter), as for RunOptions. */
  reporter?: string | string[];
  strict?: boolean;
  baseline?: string;
  /** Seconds one run of the target may take (default: the command's). */
  timeout?: number;
  /** MiB of stdout one run may write (default 256). */
  maxOutput?: number;
}

export interface PluginOptions extends ProtocolRunOptions {
  /** Required unless `replay` is given. */
  plugin?: string;
  /** The generator parameter every built request carries (--parameter). */
  parameter?: string;
  /** Your own .proto files (--proto), found under protoPath (--proto-path, protoc's -I). */
  proto?: string | string[];
  protoPath?: string | string[];
  record?: string;
  replay?: string;
}
