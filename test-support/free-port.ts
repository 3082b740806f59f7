// A port for a server a test starts by number (the tutorial's `--port`, Prism's `-p`): such a
// server cannot be told to listen on port 0. Between the probe here and its listen the port
// must stay free. A port from the kernel's ephemeral range can be taken in that window by any
// outgoing connection on the machine (in .ci/run the kill matrix opens thousands beside the
// tests), and a server that lost its port left the tutorial waiting until its timeout once. So
// the port is drawn below that range, where only an explicit bind takes it, and probed free.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The first port of the kernel's ephemeral range (Linux); 32768 where it cannot be read. */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 2048 ? low : 32768;
  } catch {
    return 32768;
  }
}

function bindable(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A free port on 127.0.0.1 outside the ephemeral range. */
export async function freePort(): Promise<number> {
  const low = Math.min(ephemeralLow(), 32768);
  const first = 1024 + Math.floor(low / 4);
  for (let tries = 0; tries < 100; tries++) {
    const port = first + Math.floor(Math.random() * (low - first));
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port found between ${first} and ${low} in 100 tries`);
}
