// A transport that names, on every request, the cassette the proxy should record it in
// or replay it from: how one proxy serves many cases (and parallel workers) at once.
//
// A miss is never an answer. The proxy answers a request its recording lacks with its miss
// status (599, MISS_HEADER set); handed to a case, that status would be judged as the
// recorded implementation's answer (a FAIL or a WARN blaming it for a hole in the recording,
// or a PASS where any status is allowed). So the transport turns a miss into a RECORDING error
// naming the request and the nearest recorded ones: the case is ERROR, its requirements
// unchecked, whatever step, check, cleanup or control call sent it.
import { HarnessError } from '../core/errors.js';
import { headerValue, type Transport } from '../http/transport.js';
import { CASSETTE_HEADER, MISS_HEADER } from './proxy-options.js';
import type { MissExplanation } from './miss-explanation.js';

export function withCassette(send: Transport, cassette: () => string | undefined): Transport {
  return async (request) => {
    const name = cassette();
    const response = await send(name === undefined ? request : { ...request, headers: [...request.headers, [CASSETTE_HEADER, name]] });
    if (headerValue(response.headers, MISS_HEADER) === undefined) return response;
    throw new HarnessError('RECORDING', describeMiss(response.body, `${request.method} ${request.url}`));
  };
}

/** "the recording lacks this request: GET /x (cassette a/b: why); nearest recorded: #2 GET /x?y (query: recorded …, sent …)". */
function describeMiss(body: Buffer, sent: string): string {
  let miss: MissExplanation;
  try {
    miss = JSON.parse(body.toString('utf8')) as MissExplanation;
  } catch {
    return `the recording lacks this request: ${sent} (the proxy's explanation was not readable)`;
  }
  const why = miss.error.replace(/^touchstone: /, '');
  const request = `${miss.request.method} ${miss.request.url}`;
  const nearest = miss.nearest.map(({ seq, request, differences }) => {
    const how = differences.map((d) => `${d.rule}: recorded ${JSON.stringify(d.recorded)}, sent ${JSON.stringify(d.actual)}`);
    return `#${seq} ${request}${how.length > 0 ? ` (${how.join('; ')})` : ''}`;
  });
  return `the recording lacks this request: ${request} (cassette ${miss.cassette}: ${why})${nearest.length > 0 ? `; nearest recorded: ${nearest.join('; ')}` : ''}`;
}
