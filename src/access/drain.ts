/**
 * Stopping an HTTP endpoint (the service, `repkit mcp --http`) in bounded time: requests in
 * flight are answered, while connections that carry none (a browser's preconnect, a client
 * that opened a socket and went silent, a keep-alive between requests) are closed at once,
 * streams that are no work (MCP's SSE streams) are ended, and whatever is still open when
 * the grace runs out is cut.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long requests in flight may take to finish once stopping begins. Default 10 s. */
export const DRAIN_GRACE_MS = 10_000;

export interface Drain {
  /** Marks `res` as a stream that carries no work: ended when stopping begins. */
  stream(res: ServerResponse): void;
  /**
   * Begins stopping: idle and silent connections closed now, streams ended, each busy one
   * closed when its last request is answered, and all that is left cut after `graceMs`.
   * Resolves when no connection is left. The server's own `close()` is the caller's.
   */
  begin(graceMs?: number): Promise<void>;
  /** Whether stopping has begun (`/readyz` then answers 503). */
  readonly stopping: boolean;
}

/** Follows `server`'s connections and the requests on each, for `Drain.begin`. */
export function drainOf(server: Server): Drain {
  /** Requests in flight per connection (0: idle, or never sent one). */
  const sockets = new Map<Socket, number>();
  const streams = new Set<ServerResponse>();
  let stopping = false;
  let allClosed: (() => void) | undefined;
  const forget = (socket: Socket) => {
    sockets.delete(socket);
    if (stopping && sockets.size === 0) allClosed?.();
  };
  server.on('connection', (socket: Socket) => {
    if (stopping) return void socket.destroy();
    sockets.set(socket, 0);
    socket.once('close', () => forget(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    sockets.set(socket, (sockets.get(socket) ?? 0) + 1);
    res.once('close', () => {
      streams.delete(res);
      const left = (sockets.get(socket) ?? 1) - 1;
      if (!sockets.has(socket)) return;
      sockets.set(socket, left);
      // Answered while stopping: the connection is not kept alive for another request.
      if (stopping && left === 0) socket.destroy();
    });
  });
  return {
    stream(res) {
      if (stopping) res.end();
      else streams.add(res);
    },
    get stopping() {
      return stopping;
    },
    begin(graceMs = DRAIN_GRACE_MS) {
      stopping = true;
      for (const res of streams) res.end();
      for (const [socket, inFlight] of sockets) if (inFlight === 0) socket.destroy();
      if (sockets.size === 0) return Promise.resolve();
      return new Promise<void>((done) => {
        const cut = setTimeout(() => {
          for (const socket of sockets.keys()) socket.destroy();
        }, graceMs);
        cut.unref();
        allClosed = () => {
          clearTimeout(cut);
          done();
        };
      });
    },
  };
}
