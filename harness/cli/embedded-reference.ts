// The one place the CLI reaches into reference-impl/: `serve` and `run` without --target
// start the reference service. The engine (suite, http, report) never imports it, and the
// import is dynamic so the engine's module graph stays free of it.
import { suitePaths } from '../suite/suite-paths.js';

export interface RunningService {
  url: string;
  close(): Promise<void>;
}

export async function startReferenceService(options: { port?: number; host?: string; worldFile?: string } = {}): Promise<RunningService> {
  const reference = await import('../../reference-impl/service/service.js');
  const world = reference.loadWorld(options.worldFile ?? suitePaths.world);
  const service = reference.createReferenceService({ world });
  const url = await service.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  return { url, close: () => service.close() };
}
