// What the commands that judge a service (run, mutate, target check) do with --target: check
// it is an http(s) URL, and the preflight: ask it what it can do (which also proves something
// answers there), and whether it answers like the service at all.
import { CAPABILITIES } from '../../lib/control-contract.js';
import { isJsonMediaType } from '../secrets/json-field-scrubber.js';
import { closestName } from '../core/did-you-mean.js';
import { HarnessError, isRecordingMiss } from '../core/errors.js';
import { ANONYMOUS, createTargetClient } from '../http/target-client.js';
import { createTargetControl } from '../http/target-control.js';
import { createHttpTransport, headerValue, type Transport } from '../http/transport.js';
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
    return await readCapabilities(targetUrl, send);
  } finally {
    transport.close();
  }
}

async function readCapabilities(targetUrl: string, send: Transport): Promise<Set<string>> {
  try {
    return await createTargetControl(targetUrl, send, USER_AGENT).capabilities();
  } catch (error) {
    if (isRecordingMiss(error)) throw error;
    throw new HarnessError('TARGET_UNREACHABLE', `target ${targetUrl} is unreachable: ${(error as Error).message}`);
  }
}

/** A client of the service at `targetUrl` as the cases' (their headers), acting as the roles of `tokens`. */
export const serviceClient = (targetUrl: string, send: Transport, tokens: Record<string, string> = {}) =>
  createTargetClient({ baseUrl: targetUrl, tokens, transport: send, userAgent: USER_AGENT });

/** The request that shows a target speaks the service: open to anyone, its user is in every world. */
export const SERVICE_PROBE = '/users/octocat/social_accounts';

export interface Preflight {
  capabilities: Set<string>;
  /** Said before the run: the target serves reset without declaring it, or declares names nobody knows. */
  warnings: string[];
}

/**
 * The checks `touchstone run` makes before any case (and `target check` begins with): the
 * target answers; it answers a request of the service like a JSON API (an HTML or plain-text
 * page is a web server, a wrong port or a wrong path prefix: exit 3, not a verdict of
 * NON-CONFORMING over hundreds of cases); and a reset it serves is declared.
 *
 * Decisions: only the media type decides "not the service". The spec leaves the error body's
 * shape unsaid, so an empty 404 from a target that has not built social accounts passes;
 * a body of another type does not. Serving reset undeclared is found by sending it: the run
 * resets before every case anyway, so one more reset before the first changes nothing the run
 * relies on.
 */
export async function preflight(targetUrl: string, how: { send?: Transport; timeoutMs?: number } = {}): Promise<Preflight> {
  const { send } = how;
  if (send === undefined) {
    // A target that hangs is told within one request's bound (the run's --request-timeout).
    const transport = createHttpTransport({ timeoutMs: how.timeoutMs ?? 10_000 });
    try {
      return await preflight(targetUrl, { send: transport.send });
    } finally {
      transport.close();
    }
  }
  const capabilities = await readCapabilities(targetUrl, send);
  let answer: Awaited<ReturnType<Transport>>;
  try {
    answer = (await serviceClient(targetUrl, send).send({ method: 'GET', path: SERVICE_PROBE }, ANONYMOUS)).response;
  } catch (error) {
    if (isRecordingMiss(error)) throw error;
    throw new HarnessError('TARGET_UNREACHABLE', `target ${targetUrl} is unreachable: ${(error as Error).message}`);
  }
  const type = headerValue(answer.headers, 'content-type');
  if (answer.body.length > 0 && !(type !== undefined && isJsonMediaType(type)))
    throw new HarnessError(
      'TARGET_UNREACHABLE',
      `target ${targetUrl} does not answer like the service: GET ${SERVICE_PROBE} answered ${answer.status} ${type ?? 'without a Content-Type'}, not JSON. Is ${targetUrl} the base URL every path of the spec goes under? (--no-preflight runs anyway)`,
    );
  const warnings: string[] = [];
  if (!capabilities.has('control.reset')) {
    const reset = await send({ method: 'POST', url: `${targetUrl}/_conformance/reset`, headers: [['User-Agent', USER_AGENT]] }).catch(
      () => undefined,
    );
    if (reset && reset.status < 300)
      warnings.push(
        `the target serves POST /_conformance/reset (${reset.status}) but does not list control.reset in GET /_conformance/capabilities: it will not be reset between cases, which run on shared state. Add "control.reset" to its capabilities (docs/target-contract.md).`,
      );
  }
  const known = new Set<string>(CAPABILITIES);
  const unknown = [...capabilities].filter((c) => !known.has(c));
  for (const name of unknown) {
    const close = closestName(name, known);
    warnings.push(
      `the target lists capability ${name}, which touchstone does not know and ignores${close ? `: did you mean ${close}?` : ''}`,
    );
  }
  return { capabilities, warnings };
}
