// The readable JSON form of one run of a plugin: what the report attaches to each case and
// what a recorded session keeps beside the exact bytes. One function, so a run reads the
// same in both places and a reviewer can diff a recording against a report attachment.
import { readableRequestBytes, readableResponseBytes, type ReadableMessage, type UndecodableBytes } from '../protocol/readable-form.js';
import { strictUtf8Text } from '../core/strict-utf8.js';
import type { PluginProcessResult } from './plugin-process.js';

export interface ReadableExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  truncated: boolean;
  /** Only when the program could not be started. */
  spawnError?: string;
}

export interface ReadableRun {
  request: ReadableMessage | UndecodableBytes;
  response: ReadableMessage | UndecodableBytes;
  exit: ReadableExit;
  /** stderr as text when it is valid UTF-8 … */
  stderr?: string;
  /** … else its bytes, so nothing is silently replaced by U+FFFD. */
  stderr_base64?: string;
}

export function readableExit(result: PluginProcessResult): ReadableExit {
  return {
    code: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    truncated: result.truncated,
    ...(result.spawnError !== undefined && { spawnError: result.spawnError }),
  };
}

export function readableRun(stdin: Uint8Array, result: PluginProcessResult): ReadableRun {
  const stderr = strictUtf8Text(result.stderr);
  return {
    request: readableRequestBytes(stdin),
    response: readableResponseBytes(result.stdout),
    exit: readableExit(result),
    ...(stderr === undefined ? { stderr_base64: result.stderr.toString('base64') } : { stderr }),
  };
}
