// What the commands that judge a service (run, mutate) do with --target: check it is an
// http(s) URL, and ask it what it can do (which also proves something answers there).
import { HarnessError } from '../core/errors.js';
import { createTargetControl } from '../http/target-control.js';
import { createHttpTransport } from '../http/transport.js';
import { withCassette } from '../proxy/with-cassette.js';
import { USER_AGENT } from '../suite/case-runner.js';

export function normaliseTarget(target: string): string {
  // "localhost:8080" parses as a URL of scheme "localhost:": the scheme is what is missing.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(target))
    throw new HarnessError('USAGE', `--target ${target} has no scheme: give a URL such as http://${target}`);
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new HarnessError('USAGE', `--target ${target} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new HarnessError('USAGE', `--target ${target} must be an http:// or https:// URL`);
  return url.toString().replace(/\/+$/, '');
}

/** The target's capabilities; any HTTP answer proves the target is there, no answer at all is exit 3. */
export async function probeTarget(targetUrl: string, cassette?: string): Promise<Set<string>> {
  const transport = createHttpTransport({ timeoutMs: 10_000 });
  try {
    const send = withCassette(transport.send, () => cassette);
    return await createTargetControl(targetUrl, send, USER_AGENT).capabilities();
  } catch (error) {
    throw new HarnessError('TARGET_UNREACHABLE', `target ${targetUrl} is unreachable: ${(error as Error).message}`);
  } finally {
    transport.close();
  }
}
