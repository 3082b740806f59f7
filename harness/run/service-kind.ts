// How a worker of `touchstone run` runs service cases: a keep-alive transport of its own, the
// target of its lane, and each request naming its case's cassette when the run goes through
// the record/replay proxy.
import { DEFAULT_CASE_TIMEOUT_S, DEFAULT_REQUEST_TIMEOUT_S } from '../core/run-config.js';
import type { Case } from '../core/suite-format.js';
import { createHttpTransport } from '../http/transport.js';
import { withCassette } from '../proxy/with-cassette.js';
import { createCaseContext, runCase, SILENT_HOOKS, type ServiceTarget } from '../suite/case-runner.js';
import { readWorldRoles } from '../suite/world-tokens.js';
import type { StartWorker } from './run-kind.js';

export const startWorker: StartWorker<Case> = ({ config, registry, schemas, lane }) => {
  const transport = createHttpTransport({
    timeoutMs: config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_S * 1000,
    timeoutOption: '--request-timeout',
  });
  const target: ServiceTarget = {
    url: config.targetUrls?.[lane] ?? config.targetUrl,
    reportedUrl: config.reportedUrls?.[lane] ?? config.reportedUrls?.[0],
    tokens: config.tokens,
    send: transport.send,
    capabilities: new Set(config.capabilities),
    registry,
    strict: config.strict,
    roles: readWorldRoles(),
    schemas: schemas(),
    caseTimeoutMs: config.caseTimeoutMs ?? DEFAULT_CASE_TIMEOUT_S * 1000,
  };
  const unrecorded = new Set(config.unrecorded);
  const folder = config.recordings?.folder;
  return {
    run: async ({ facts, testCase }) =>
      unrecorded.has(facts.id)
        ? { outcome: 'SKIP', message: `${folder} holds no recording of this case (--skip-unrecorded)` }
        : // Through the record/replay proxy every case has its own cassette, <suite>/<case>.
          runCase(
            testCase,
            createCaseContext(config.cassettes ? { ...target, send: withCassette(transport.send, () => facts.id) } : target, SILENT_HOOKS),
          ),
    close: () => transport.close(),
  };
};
