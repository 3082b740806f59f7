// What `touchstone run` hands to the Playwright process it starts: written to a private
// temp file (it holds tokens) whose path travels in TOUCHSTONE_RUN_CONFIG.
import { readFileSync } from 'node:fs';
import { HarnessError } from '../errors.js';
import type { RunKind } from './requirement-registry.js';

export const RUN_CONFIG_ENV = 'TOUCHSTONE_RUN_CONFIG';
/** Attachment through which each test hands its CaseOutcome to the reporter. */
export const OUTCOME_ATTACHMENT = 'touchstone-outcome';

export interface RunConfig {
  kind: RunKind;
  /** The service's base URL, or the plugin command as given. */
  targetUrl: string;
  embedded: boolean;
  /** role -> token */
  tokens: Record<string, string>;
  /** Requests go through the record/replay proxy: each names its case's cassette. */
  cassettes: boolean;
  suites: string[];
  outDir: string;
  strict: boolean;
  capabilities: string[];
  baselineFile?: string;
  startedAt: string;
  /** Plugin runs: the command split into words, and the bounds of each run. */
  plugin?: { command: string[]; timeoutMs: number; maxOutputBytes: number };
}

export function readRunConfig(): RunConfig {
  const file = process.env[RUN_CONFIG_ENV];
  if (!file) throw new HarnessError('USAGE', `${RUN_CONFIG_ENV} is not set: start conformance runs with \`touchstone run\``);
  return JSON.parse(readFileSync(file, 'utf8')) as RunConfig;
}
