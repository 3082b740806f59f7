// The one place the CLI reaches into reference-impl/: `serve` and `run` without --target
// start the reference service. The engine (suite, http, report) never imports it, and the
// import is dynamic so the engine's module graph stays free of it.
import { HarnessError } from '../core/errors.js';
import { suitePaths } from '../core/suite-paths.js';

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
