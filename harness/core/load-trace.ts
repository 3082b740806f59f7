// The costly loads of a run (the requirement registry read from its YAML, the compiled
// schemas, the service suites) say so when TOUCHSTONE_LOAD_TRACE names a file: each appends a
// line "<what> <pid> <Playwright worker index, or ->". A test counts them per process: the run
// engine promises one build of the schemas per worker, not one per case, and one read of the
// registry per run; a run from a current build loads the compiled engine. Unset (as in every
// user's run), nothing is written.
import { appendFileSync } from 'node:fs';

export const LOAD_TRACE_ENV = 'TOUCHSTONE_LOAD_TRACE';

/**
 * What was loaded. engine-built / engine-sources: Playwright loaded the run engine's config
 * compiled (dist/engine/) or as TypeScript (harness/run/conformance.config.ts), once per process.
 */
export type TracedLoad = 'schemas' | 'requirements' | 'suites' | 'engine-built' | 'engine-sources';

export function traceLoad(what: TracedLoad): void {
  const file = process.env[LOAD_TRACE_ENV];
  if (file) appendFileSync(file, `${what} ${process.pid} ${process.env.TEST_WORKER_INDEX ?? '-'}\n`);
}

export interface TracedLine {
  what: TracedLoad;
  pid: number;
  /** The Playwright worker's index; undefined outside a worker (the CLI, Playwright's runner). */
  worker?: number;
}

/** The lines of a trace file. */
export function parseLoadTrace(text: string): TracedLine[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [what, pid, worker] = line.split(' ');
      return { what: what as TracedLoad, pid: Number(pid), worker: worker === '-' ? undefined : Number(worker) };
    });
}
