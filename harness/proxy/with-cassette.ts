// A transport that names, on every request, the cassette the proxy should record it in
// or replay it from: how one proxy serves many cases (and parallel workers) at once.
import type { Transport } from '../http/transport.js';
import { CASSETTE_HEADER } from './proxy-options.js';

export function withCassette(send: Transport, cassette: () => string | undefined): Transport {
  return (request) => {
    const name = cassette();
    return send(name === undefined ? request : { ...request, headers: [...request.headers, [CASSETTE_HEADER, name]] });
  };
}
