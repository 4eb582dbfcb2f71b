/**
 * Real servers on loopback for fetch tests: a scriptable HTTP server and raw TCP servers for
 * peers that misbehave. Every server is closed by the test that starts it.
 */
import {
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { LookupAddress } from 'node:dns';
import {
  connect,
  createServer as createTcpServer,
  type LookupFunction,
  type Server as TcpServer,
  type Socket,
} from 'node:net';

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
}

export interface TestServer {
  /** `http://host:port`. */
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A resolver (a client's `lookup`) by which each name is the IPv4 address `addressOf` gives,
 * or does not resolve (`ENOTFOUND`, as getaddrinfo says it) where it gives none.
 */
export function lookupBy(addressOf: (host: string) => string | undefined): LookupFunction {
  return ((host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    const address = addressOf(host);
    const all = options?.all === true;
    if (address === undefined) {
      const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), {
        code: 'ENOTFOUND',
      });
      return callback(error, all ? [] : '');
    }
    const answer: LookupAddress = { address, family: 4 };
    if (all) callback(null, [answer]);
    else callback(null, answer.address, answer.family);
  }) as unknown as LookupFunction;
}

/** A resolver (a client's `lookup`) by which every name is `address`. */
export function lookupTo(address: string): LookupFunction {
  return lookupBy(() => address);
}

/** An HTTP server on `host` (any 127.x.y.z address) and an ephemeral port. */
export async function httpServer(handler: Handler, host = '127.0.0.1'): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    requests.push({ path: req.url ?? '', headers: req.headers });
    handler(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, host, done));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://${host}:${port}`,
    requests,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

/** A TCP server that runs `onConnection` for each client (for peers that stall or reset). */
export async function tcpServer(onConnection: (socket: Socket) => void): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const requests: RecordedRequest[] = [];
  const server: TcpServer = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', () => requests.push({ path: '(raw)', headers: {} }));
    onConnection(socket);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

/** A robots.txt route: every request for /robots.txt gets `respond`. */
export function robotsRoute(respond: Handler): Handler {
  return (req, res) => {
    if (req.url === '/robots.txt') return respond(req, res);
    res.writeHead(404).end();
  };
}

/** A clock tests move by hand. */
export class TestClock {
  constructor(public time = Date.UTC(2026, 0, 1)) {}
  now = (): number => this.time;
  advance(ms: number): void {
    this.time += ms;
  }
}

export interface TestProxy {
  /** `http://127.0.0.1:port`, for `ProxyAgent` and `HTTP_PROXY`. */
  url: string;
  /** `host:port` of every target reached through the proxy, in order. */
  targets: string[];
  /** `host:port METHOD path` of every plain-HTTP request seen, tunnelled or forwarded. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A forward proxy on loopback: CONNECT tunnels and absolute-form requests, each target
 * recorded, so a test can see which requests went through it.
 */
export async function proxyServer(): Promise<TestProxy> {
  const targets: string[] = [];
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const target = new URL(req.url ?? '');
    targets.push(target.host);
    requests.push(`${target.host} ${req.method} ${target.pathname}${target.search}`);
    const upstream = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    targets.push(req.url ?? '');
    // Plain HTTP inside the tunnel: note each request line that goes by.
    client.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('latin1').split('\r\n')) {
        const m = /^(GET|HEAD|POST|PUT|DELETE) (\S+) HTTP\/1\.[01]$/.exec(line);
        if (m) requests.push(`${req.url} ${m[1]} ${m[2]}`);
      }
    });
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    targets,
    requests,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
