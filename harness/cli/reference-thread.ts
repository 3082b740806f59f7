// The body of a worker thread that serves one lane of a run: the embedded reference, started by
// startReferenceThread (embedded-reference.ts) with the options it was given. It says once
// whether it listens ({ listening: url }) or could not start ({ failed }), and on the first
// message from the CLI closes the service and ends the thread. Built to
// dist/commands/reference-thread.js (bin/build.ts); loaded from here under tsx from the sources.
import { parentPort, workerData } from 'node:worker_threads';
import { HarnessError } from '../core/errors.js';
import { type ReferenceThreadData, type ReferenceThreadReport, startReferenceService } from './embedded-reference.js';

const port = parentPort;
if (!port) throw new Error('reference-thread.ts runs in a worker thread, started by startReferenceThread');
const { options, scratch } = workerData as ReferenceThreadData;
const report = (message: ReferenceThreadReport) => port.postMessage(message);
// The reference's temporary files (its Git trees and commits; blobs stay in memory) go into the folder the CLI
// made for this lane and removes itself, even when it ends without closing the lane (a process
// exit ends the thread without its own exit handlers). Set here, not through the Worker's env:
// tsx, registered before this module runs, keeps its cache where it was.
for (const name of ['TMPDIR', 'TMP', 'TEMP']) process.env[name] = scratch;

try {
  const service = await startReferenceService(options);
  port.once('message', async () => {
    await service.close();
    // Ends the thread now (an idle timer of the reference would keep it alive), with its exit handlers.
    process.exit(0);
  });
  report({ listening: service.url });
} catch (error) {
  report({
    failed:
      error instanceof HarnessError
        ? { code: error.code, message: error.message }
        : { message: `the embedded reference could not start: ${(error as Error).stack ?? String(error)}` },
  });
}
