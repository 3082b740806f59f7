// Test support: clients that misbehave on purpose, over a raw socket, to show a server cuts
// them loose and keeps answering others: idle connections, a request head that never ends,
// a body that stalls. Each waits at most `giveUpMs` (a guard, not a measurement) and reports
// what the server sent before it closed the connection.
import net from 'node:net';

export interface Closed {
  /** Whether the server closed the connection before giveUpMs. */
  closed: boolean;
  /** What the server sent (a 408 status line, say), as text. */
  answer: string;
}

const connect = (url: string): Promise<net.Socket> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = net.connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });

/** Opens `count` connections that never send a byte. */
export async function openIdleConnections(url: string, count: number): Promise<net.Socket[]> {
  const sockets: net.Socket[] = [];
  for (let i = 0; i < count; i++) {
    const socket = await connect(url);
    socket.on('error', () => {});
    // Reading (and dropping) what comes, so the client sees the server close it.
    socket.resume();
    sockets.push(socket);
  }
  return sockets;
}

/** Writes `start`, then `drip` one byte every 100 ms, and waits for the server to close. */
export async function misbehave(url: string, start: string, drip: string, giveUpMs: number): Promise<Closed> {
  const socket = await connect(url);
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  socket.on('error', () => {});
  socket.write(start);
  let i = 0;
  const timer = setInterval(() => {
    if (!socket.destroyed && !socket.writableEnded) socket.write(drip[i++ % drip.length]);
  }, 100);
  const closed = await closedBy(socket, giveUpMs);
  clearInterval(timer);
  socket.destroy();
  return { closed, answer };
}

/** A request head that never ends: one more header byte every 100 ms. */
export const slowHead = (url: string, giveUpMs: number) =>
  misbehave(url, `GET / HTTP/1.1\r\nHost: ${new URL(url).host}\r\nX-Slow: `, 'a', giveUpMs);

/** A whole head announcing 1,000 bytes of body, then a byte every 100 ms. */
export const stalledBody = (url: string, path: string, headers: string, giveUpMs: number) =>
  misbehave(
    url,
    `POST ${path} HTTP/1.1\r\nHost: ${new URL(url).host}\r\n${headers}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    ' ',
    giveUpMs,
  );

/** Whether the server closes `socket` before giveUpMs. */
export const closedBy = (socket: net.Socket, giveUpMs: number): Promise<boolean> =>
  new Promise((resolve) => {
    if (socket.destroyed) return resolve(true);
    const guard = setTimeout(() => resolve(false), giveUpMs);
    socket.once('close', () => {
      clearTimeout(guard);
      resolve(true);
    });
  });
