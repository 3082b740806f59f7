// The one place the CLI reaches into reference-impl/: `serve` and `run` without --target
// start the reference service. The engine (suite, http, report) never imports it, and the
// import is dynamic so the engine's module graph stays free of it.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { HarnessError, type HarnessErrorCode } from '../core/errors.js';
import { PROJECT_ROOT, suitePaths } from '../core/suite-paths.js';

export interface RunningService {
  url: string;
  close(): Promise<void>;
}

export interface ReferenceOptions {
  port?: number;
  host?: string;
  worldFile?: string;
  /** Built-in faults to start with (touchstone serve --fault). */
  faults?: string[];
  /** Built-in variations to start with (touchstone serve --variant). */
  variants?: string[];
  /** Where source-import events are POSTed (touchstone serve --import-webhook). */
  importWebhook?: string;
  /** Proxies whose X-Forwarded-Proto/-Host are believed (touchstone serve --trust-proxy); default this machine. */
  trustProxy?: string[];
  /** Limits on slow and idle clients (touchstone serve --head-timeout …); the service's defaults otherwise. */
  clientTimeouts?: { headersMs?: number; requestMs?: number; idleMs?: number };
  /**
   * Build the world's Git objects before answering anything. They take seconds (the 3 × 100 MiB
   * files of the size boundaries), more than a request's 15 s bound on a machine loaded by other
   * jobs (a kill matrix beside the tests once had a false failure so): the run waits for them
   * once, at the start, never inside a case. A run whose cases read Git data asks for it; other
   * uses (most tests) would only pay for it.
   */
  warmGit?: boolean;
}

export async function startReferenceService(options: ReferenceOptions = {}): Promise<RunningService> {
  const reference = await import('../../reference-impl/service/service.js');
  const faults = options.faults ?? [];
  const unknown = faults.filter((name) => !reference.isServiceFault(name));
  if (unknown.length > 0)
    throw new HarnessError('USAGE', `unknown fault ${unknown.join(', ')}; the reference has: ${reference.SERVICE_FAULTS.join(', ')}`);
  const variants = options.variants ?? [];
  const unknownVariants = variants.filter((name) => !reference.isServiceVariant(name));
  if (unknownVariants.length > 0)
    throw new HarnessError(
      'USAGE',
      `unknown variation ${unknownVariants.join(', ')}; the reference has: ${reference.SERVICE_VARIANTS.join(', ') || 'none'}`,
    );
  let world: ReturnType<typeof reference.loadWorld>;
  try {
    world = reference.loadWorld(options.worldFile ?? suitePaths.world);
  } catch (error) {
    if (error instanceof reference.WorldError) throw new HarnessError('CONFIG', error.message);
    throw error;
  }
  if (options.importWebhook !== undefined && !/^https?:\/\/[^/\s]+/.test(options.importWebhook))
    throw new HarnessError('USAGE', `--import-webhook must be an http(s) URL, not ${options.importWebhook}`);
  const service = reference.createReferenceService({
    world,
    faults: faults.filter(reference.isServiceFault),
    variants: variants.filter(reference.isServiceVariant),
    importWebhook: options.importWebhook,
    clientTimeouts: options.clientTimeouts,
    ...(options.trustProxy !== undefined && options.trustProxy.length > 0 && { trustProxy: options.trustProxy }),
  });
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new HarnessError('USAGE', `--port ${port} is not a port number (0-65535; 0 picks a free one)`);
  try {
    const url = await service.listen({ port, host: options.host ?? '127.0.0.1' });
    if (options.warmGit) await reference.warmWorldGit(world);
    return { url, close: () => service.close() };
  } catch (error) {
    await service.close();
    throw new HarnessError('USAGE', `cannot listen on ${options.host ?? '127.0.0.1'}:${port}: ${(error as Error).message}`);
  }
}

/**
 * `count` references, one per lane of a run. Several lanes each get their own worker thread
 * (startReferenceThread), so that they answer in parallel on separate cores: on one thread, the
 * CLI's, two lanes' requests were handled one after the other, and a second worker gained ~10 %.
 * Decision: one lane keeps its reference on this thread, as `serve`, `target` and `mutate` do:
 * a thread costs loading the reference's modules again (and building its Git data again), and
 * a single lane has nothing to run beside. Started together; when one cannot start, those that
 * did are closed and its error is thrown.
 */
export async function startReferenceLanes(count: number, options: ReferenceOptions = {}): Promise<RunningService[]> {
  if (count === 1) return [await startReferenceService(options)];
  const started = await Promise.allSettled(
    Array.from({ length: count }, (_, i) => startReferenceThread(options, `the embedded reference of lane ${i + 1} of ${count}`)),
  );
  const failure = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  const services = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  if (!failure) return services;
  await closeServices(services).catch(() => {});
  throw failure.reason;
}

/** Closes every service, and then throws the first error one of them gave (a lane whose thread died). */
export async function closeServices(services: RunningService[]): Promise<void> {
  const closed = await Promise.allSettled(services.map((s) => s.close()));
  const failure = closed.find((c): c is PromiseRejectedResult => c.status === 'rejected');
  if (failure) throw failure.reason;
}

/** What startReferenceThread gives its thread (reference-thread.ts). */
export interface ReferenceThreadData {
  options: ReferenceOptions;
  /** The folder for the thread's temporary files, removed by the CLI. */
  scratch: string;
}

/** What the thread says once: the service listens, or it could not start. */
export type ReferenceThreadReport = { listening: string } | { failed: { code?: HarnessErrorCode; message: string } };

/** How long close() waits for the thread to close its service and end before it is terminated. */
const CLOSE_BOUND_MS = 10_000;

/**
 * The reference started by startReferenceService(options) in a worker thread of its own. The
 * thread runs the code this module runs: the compiled reference (dist/commands/reference-thread.js)
 * from a build, the TypeScript sources under tsx from the sources. Options must be data (the
 * thread gets a copy). A failure to start, or a thread that ends before it listens, rejects
 * with a HarnessError; a thread that ends by itself later makes close() reject with one, so a
 * run whose reference died does not end as if nothing happened. close() ends the thread.
 */
export async function startReferenceThread(
  options: ReferenceOptions = {},
  name = 'the embedded reference',
  /** The thread's module, as Worker's first arguments: reference-thread.ts (tests give one that fails). */
  module: ThreadModule = referenceThreadModule(),
): Promise<RunningService> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'touchstone-lane-'));
  // The thread's temporary files (its Git trees and commits) are in scratch: removed when this process exits
  // too, which ends its threads without their own exit handlers (`touchstone run | head`).
  const removeScratch = () => rmSync(scratch, { recursive: true, force: true });
  process.once('exit', removeScratch);
  const data: ReferenceThreadData = { options, scratch };
  const [file, how] = module;
  let worker: Worker;
  try {
    worker = new Worker(file, { ...how, workerData: data });
  } catch (error) {
    removeScratch();
    process.off('exit', removeScratch);
    if ((error as Error).name !== 'DataCloneError') throw error;
    throw new HarnessError('USAGE', `the options of ${name} cannot be sent to its thread (they must be data): ${(error as Error).message}`);
  }
  let closing = false;
  let death: HarnessError | undefined;
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      if (!closing) death ??= new HarnessError('TARGET_UNREACHABLE', `${name} stopped (its thread ended with code ${code})`);
      removeScratch();
      process.off('exit', removeScratch);
      resolve();
    }),
  );
  // An error the thread did not catch ends it: kept, and given at close() (or as the start's failure).
  worker.on('error', (error) => {
    death ??= new HarnessError('TARGET_UNREACHABLE', `${name} stopped: ${error.stack ?? error.message}`);
  });
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      closing = true;
      worker.postMessage('close');
      const bound = setTimeout(() => void worker.terminate(), CLOSE_BOUND_MS);
      await exited;
      clearTimeout(bound);
      if (death) throw death;
    })();
    return closed;
  };
  return new Promise((resolve, reject) => {
    worker.once('message', (report: ReferenceThreadReport) => {
      if ('listening' in report) return resolve({ url: report.listening, close });
      reject(new HarnessError(report.failed.code ?? 'TARGET_UNREACHABLE', report.failed.message));
      closing = true;
      void worker.terminate();
    });
    void exited.then(() => reject(death));
  });
}

/**
 * The thread's module, as Worker's first arguments. From a build (this module's URL is a .js in
 * dist/), the compiled one. From the sources (.ts: tsx, or Playwright loading a test), a small
 * script that registers tsx in the thread and imports the source: on Node 20 a thread shares
 * no loader hooks with the thread that started it, and `--import tsx` in its execArgv does not
 * apply to its module (measured: ERR_UNKNOWN_FILE_EXTENSION).
 */
export type ThreadModule = [file: string | URL, how: { eval?: boolean }];

function referenceThreadModule(): ThreadModule {
  if (!import.meta.url.endsWith('.ts')) return [pathToFileURL(path.join(PROJECT_ROOT, 'dist', 'commands', 'reference-thread.js')), {}];
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const source = JSON.stringify(new URL('./reference-thread.ts', import.meta.url).href);
  return [`import(${tsx}).then(({ register }) => register()).then(() => import(${source}))`, { eval: true }];
}
