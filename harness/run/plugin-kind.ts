// How a worker of `touchstone plugin` runs plugin cases: the plugin's command under the run's
// limits, or, with --record or --replay, a recorded session (plugin-session.ts) instead.
import { loadFixtureDescriptors } from '../plugin/fixture-descriptors.js';
import { runPluginCase } from '../plugin/plugin-checks.js';
import { createSessionRecorder, createSessionReplayer } from '../plugin/plugin-session.js';
import type { PluginCase } from '../plugin/plugin-suite-format.js';
import type { StartWorker } from './run-kind.js';
import { requestSaver } from '../plugin/saved-request.js';

export const startWorker: StartWorker<PluginCase> = ({ config, registry }) => {
  const plugin = config.plugin!;
  // The CLI has prepared or checked the directory already; opening it here only reads.
  const limits = { timeoutMs: plugin.timeoutMs, maxOutputBytes: plugin.maxOutputBytes, cwd: plugin.cwd };
  const session = plugin.replay
    ? createSessionReplayer(plugin.replay)
    : plugin.record
      ? createSessionRecorder(plugin.record, plugin.command, limits, { parameter: plugin.parameter })
      : undefined;
  const describe = loadFixtureDescriptors(undefined, plugin.own?.descriptors);
  return {
    run: async ({ facts, testCase }) => {
      const outcome = await runPluginCase(testCase, {
        command: plugin.command,
        describe,
        parameter: plugin.parameter,
        registry,
        strict: config.strict,
        limits,
        runPlugin: session?.runnerFor(facts.suite, testCase.id),
        reproduce: requestSaver(config.outDir, plugin.cwd, plugin.command, facts.suite, testCase.id),
      });
      // Recording: the case's runs are its recording only now that it reached an outcome.
      session?.finish(facts.suite, testCase.id, outcome.outcome !== 'ERROR');
      return outcome;
    },
    close: () => {},
  };
};
