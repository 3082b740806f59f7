// Test support for proxy-crash.test.ts: a recording proxy in a process of its own, so the
// test can kill -9 it. The test bundles it with esbuild and runs `node` on the bundle; it
// loads the proxy, then waits for one stdin line {"mode","target","cassette"} before
// creating it, so the test can start the next child (node and the imports, most of its
// startup) while the current run is still going, without that child touching the
// cassette early. It prints `loaded` once ready for that line, then the proxy's URL; SIGTERM closes the proxy
// (compacting the journal) and exits 0. Faster than `bin/touchstone.js proxy` (no CLI).
import { createInterface } from 'node:readline';
import type { ProxyMode } from '../harness/proxy/proxy-options.js';
import { createProxy } from '../harness/proxy/proxy-server.js';

process.stdout.write('loaded\n');
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const first = await lines.next();
if (first.done) process.exit(0); // the test no longer needs this child
const { mode, target, cassette } = JSON.parse(first.value) as { mode: ProxyMode; target: string; cassette: string };
// `record` re-records (the crash test replaces the cassette on every other run), as before record modes.
const proxy = await createProxy({ mode, target, cassette, ...(mode === 'record' && { recordMode: 'all' as const }) });
process.stdout.write(`${proxy.url}\n`);
process.once('SIGTERM', () => {
  proxy.close().then(
    () => process.exit(0),
    (error: Error) => {
      process.stderr.write(`crash-child: close failed: ${error.stack ?? error.message}\n`);
      process.exit(3);
    },
  );
});
