import type { Dispatcher } from 'undici';
import type { FetchResult } from '../../cache/internal.ts';
import type { RefusedHop } from '../../cache/index.ts';
import { classifyEdge } from '../../core/index.ts';
import { RefusedAddressError } from '../errors.ts';
import type { AddressFilter } from './addresses.ts';
import { discard, readBody, readHead } from './response-body.ts';
import { guardedConnector } from './connector.ts';
import type { ProxySettings } from './proxy.ts';
import type { HostResolver } from './resolver.ts';

/** What one fetch came to, before caching decisions: the entry's record, its body as read. */
export interface FetchOutcome extends FetchResult<Uint8Array> {
  /** A redirect target `beforeHop` refused: it was not requested. */
  refusedHop?: RefusedHop;
  /**
   * The server answered a conditional request 304: the copy asked about is current (status
   * 304, outcome `ok`, no body). Only with `HttpOptions.conditional`.
   */
  notModified?: true;
}

export interface HttpOptions {
  userAgent: string;
  /** Bytes of (decompressed) body read; the rest is not downloaded. */
  maxBytes: number;
  /** Redirects followed; one more is treated as "no robots.txt" (Google follows five). */
  maxRedirects: number;
  /** Whole fetch, redirects and body included. */
  timeoutMs: number;
  /**
   * Headers kept besides those that matter for caching (a page's `x-robots-tag`...), their
   * repeated values joined by a line feed.
   */
  keepHeaders?: readonly string[];
  /** The Accept header. Default: plain text first, as for a robots.txt. */
  accept?: string;
  /**
   * Asked before each redirect target is requested: a reason refuses it (the fetch ends
   * there, `not-found`, with `refusedHop`). Pages check each hop against its own robots.txt.
   */
  beforeHop?: (url: string) => Promise<string | undefined>;
  /**
   * Headers added to each request, hop by hop (a Web Bot Auth signature covers the URL it
   * is sent to; `crawler-max-price` for crawlers that pay).
   */
  requestHeaders?: (url: string) => Record<string, string> | Promise<Record<string, string>>;
  /**
   * Takes a 2xx body chunk by chunk as it is decoded (up to `maxBytes`), instead of it being
   * kept: the outcome's `body` is then its first bytes only (what `classifyEdge` reads). The
   * read waits for each call; a call that throws ends the fetch as an error.
   */
  sink?: (chunk: Uint8Array) => void | Promise<void>;
  /**
   * The validators of the copy held (its `ETag`, `Last-Modified`): sent as `If-None-Match`
   * and `If-Modified-Since`, so that an unchanged file answers 304 without a body.
   */
  conditional?: { etag?: string; lastModified?: string };
}

/** Response headers a wall or a payment demand speaks in, read for `classifyEdge` only. */
const EDGE_HEADERS = [
  'cf-mitigated',
  'x-vercel-mitigated',
  'x-amzn-waf-action',
  'crawler-price',
  'payment-required',
  'www-authenticate',
  'content-type',
];
/** Statuses whose body a wall or a payment demand may fill: their head is read to see. */
const EDGE_STATUSES = new Set([402, 403, 429, 503]);

const KEPT_HEADERS = [
  'cache-control',
  'expires',
  'date',
  'age',
  'retry-after',
  'content-type',
  'content-encoding',
  'content-length',
  'etag',
  'last-modified',
  'location',
];

type Undici = typeof import('undici');

/**
 * undici, loaded when the first request is made: a process that never fetches (the CLI on a
 * local file, a service answering from its cache) does not pay for loading it (about a
 * tenth of a second, most of the CLI's start).
 */
let undici: Promise<Undici> | undefined;
const loadUndici = (): Promise<Undici> => (undici ??= import('undici'));

/** The HTTP side of the fetch layer: one connection pool, made at the first request, closed with `close()`. */
export class RobotsHttp {
  /** The connection pool, once the first request asked for it. */
  private agent: Promise<Dispatcher> | undefined;
  private readonly makeAgent: (undici: Undici) => Dispatcher;
  /** Whether the pool is the caller's (closed by its owner, not here). */
  private readonly borrowed: boolean;
  /** Set when requests go through a proxy under an address guard (see the constructor). */
  private readonly proxiedGuard: HostResolver | undefined;

  constructor(options: {
    connectTimeoutMs: number;
    resolver: HostResolver;
    allowAddress: AddressFilter;
    /** The caller's dispatcher (a proxy, say): used instead of repkit's own connections. */
    dispatcher?: Dispatcher | undefined;
    /** Whether `close()` closes that dispatcher too (one the client made for itself). */
    ownsDispatcher?: boolean;
    /**
     * Requests go through a proxy from the environment (`proxy: 'env'`) under the address
     * guard: its direct connections (`NO_PROXY` hosts) are guarded at the socket by the
     * connector given here, and a proxied host is resolved here first and refused when it
     * is, or resolves to, a refused address (or does not resolve here at all).
     */
    proxy?: ProxySettings;
    /** With `proxy`: the caller gave an address filter, so proxied hosts are checked too. */
    guardProxied?: boolean;
  }) {
    this.borrowed = options.dispatcher !== undefined && !options.ownsDispatcher;
    this.proxiedGuard = options.proxy && options.guardProxied ? options.resolver : undefined;
    const { dispatcher, proxy } = options;
    this.makeAgent = (undici) => {
      if (dispatcher && !proxy) return dispatcher;
      const connect = guardedConnector(undici.buildConnector, {
        timeoutMs: options.connectTimeoutMs,
        resolver: options.resolver,
        allowAddress: options.allowAddress,
      });
      return proxy
        ? // Used for the direct connections only (NO_PROXY hosts): the proxies connect for themselves.
          new undici.EnvHttpProxyAgent({ ...proxy, connect })
        : // A server's keep-alive hint is capped too: a robots.txt is fetched once a day, and
          // honouring a 60 s hint kept a socket open per origin (10,000 origins a minute ran
          // the process out of file descriptors).
          new undici.Agent({ connect, keepAliveTimeout: 4_000, keepAliveMaxTimeout: 4_000 });
    };
  }

  private pool(): Promise<Dispatcher> {
    return (this.agent ??= loadUndici().then(this.makeAgent));
  }

  /**
   * Lets requests in flight finish for up to a second, then destroys what is left (a
   * connection still pending would otherwise hold the close forever). A borrowed dispatcher
   * is left to its owner.
   */
  async close(): Promise<void> {
    if (this.borrowed || this.agent === undefined) return;
    const agent = await this.agent;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((done) => {
      timer = setTimeout(done, 1_000);
    });
    await Promise.race([agent.close(), grace]);
    clearTimeout(timer);
    await agent.destroy();
  }

  /**
   * Fetches a robots.txt with Google's semantics: 2xx → parse; 3xx → follow up to
   * `maxRedirects` (across hosts too), more or a loop → "no robots.txt"; 429 and 5xx →
   * server error; other 4xx → "no robots.txt"; DNS, connection, timeout and protocol
   * failures → server error; a host whose address the guard refuses, on any hop → server
   * error. The whole fetch ends by `timeoutMs`, whatever it is waiting for (a name, a
   * connection, a TLS handshake, headers or body). Never throws.
   */
  async fetch(url: string, options: HttpOptions): Promise<FetchOutcome> {
    const chain: string[] = [];
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // undici does not give up a pending connection when the signal aborts: the deadline
    // answers for it, and the abort cleans up behind.
    const deadline = new Promise<FetchOutcome>((done) => {
      timer = setTimeout(() => {
        controller.abort();
        done({ outcome: 'error', status: 0, headers: {}, chain, ...failure(undefined, true) });
      }, options.timeoutMs);
    });
    try {
      return await Promise.race([this.follow(url, options, chain, controller.signal), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async follow(
    url: string,
    options: HttpOptions,
    chain: string[],
    signal: AbortSignal,
  ): Promise<FetchOutcome> {
    let current = url;
    try {
      const [{ request }, dispatcher] = await Promise.all([loadUndici(), this.pool()]);
      for (;;) {
        chain.push(current);
        // Through a proxy the proxy connects: the name is checked before it is sent there.
        if (this.proxiedGuard) await this.proxiedGuard.resolve(new URL(current).hostname);
        const response = await request(current, {
          dispatcher,
          method: 'GET',
          signal,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
          headers: {
            ...(await options.requestHeaders?.(current)),
            'user-agent': options.userAgent,
            accept: options.accept ?? 'text/plain, */*;q=0.5',
            'accept-encoding': 'gzip, deflate, br',
            ...conditionalHeaders(options.conditional),
          },
        });
        const status = response.statusCode;
        const headers = keptHeaders(response.headers, options.keepHeaders);
        if (status === 304 && options.conditional) {
          discard(response.body);
          return { outcome: 'ok', status, headers, chain, notModified: true };
        }
        if (status < 300 || status >= 400) return await answered(response, headers, chain, options);
        discard(response.body);
        const next = await redirectHop(current, status, headers, chain, options);
        if (typeof next !== 'string') return next;
        current = next;
      }
    } catch (error) {
      return { outcome: 'error', status: 0, headers: {}, chain, ...failure(error, signal.aborted) };
    }
  }
}

/** `If-None-Match` and `If-Modified-Since` for the validators held, each when there is one. */
function conditionalHeaders(held: HttpOptions['conditional']): Record<string, string> {
  return {
    ...(held?.etag ? { 'if-none-match': held.etag } : {}),
    ...(held?.lastModified ? { 'if-modified-since': held.lastModified } : {}),
  };
}

/** A redirect: the next URL, or how the fetch ends (no target, a loop, too many, refused). */
async function redirectHop(
  current: string,
  status: number,
  headers: Record<string, string>,
  chain: string[],
  options: HttpOptions,
): Promise<string | FetchOutcome> {
  const next = redirectTarget(current, headers['location']);
  const problem =
    next === undefined
      ? `redirect ${status} without a usable Location`
      : chain.includes(next)
        ? `redirect loop back to ${next}`
        : chain.length > options.maxRedirects
          ? `more than ${options.maxRedirects} redirects`
          : undefined;
  if (problem) return { outcome: 'not-found', status, headers, chain, error: problem };
  const refusal = await options.beforeHop?.(next!);
  if (refusal !== undefined) {
    const refusedHop = { url: next!, reason: refusal };
    return { outcome: 'not-found', status, headers, chain, error: refusal, refusedHop };
  }
  return next!;
}

/** The outcome of a response that is no redirect: a file, no file (4xx), or an error. */
async function answered(
  response: Dispatcher.ResponseData,
  headers: Record<string, string>,
  chain: string[],
  options: HttpOptions,
): Promise<FetchOutcome> {
  const status = response.statusCode;
  const edgeHeaders = pickHeaders(response.headers, EDGE_HEADERS, ', ');
  if (status >= 200 && status < 300) {
    const encoding = headers['content-encoding'];
    const { bytes, truncated } = await readBody(
      response.body,
      encoding,
      options.maxBytes,
      options.sink,
    );
    const edge = classifyEdge({ status, headers: edgeHeaders, body: bytes });
    return { outcome: 'ok', status, body: bytes, truncated, headers, chain, ...withEdge(edge) };
  }
  const edge = classifyEdge({
    status,
    headers: edgeHeaders,
    ...(EDGE_STATUSES.has(status)
      ? { body: await readHead(response.body, headers['content-encoding']) }
      : (discard(response.body), {})),
  });
  if (status === 429 || status >= 500) {
    return { outcome: 'error', status, headers, chain, error: `HTTP ${status}`, ...withEdge(edge) };
  }
  if (status >= 400) return { outcome: 'not-found', status, headers, chain, ...withEdge(edge) };
  return { outcome: 'error', status, headers, chain, error: `unexpected HTTP status ${status}` };
}

/** `{ edge }` when there is one, else nothing: results keep one shape without it. */
function withEdge(edge: ReturnType<typeof classifyEdge>): { edge?: NonNullable<typeof edge> } {
  return edge ? { edge } : {};
}

function keptHeaders(
  raw: Record<string, string | string[] | undefined>,
  extra: readonly string[] = [],
): Record<string, string> {
  // Rule-carrying fields keep their repeated values apart (one per line): a new
  // X-Robots-Tag field starts over with no crawler scope.
  return { ...pickHeaders(raw, KEPT_HEADERS, ', '), ...pickHeaders(raw, extra, '\n') };
}

/** The fields `names` of `raw` that are present, repeated values joined by `separator`. */
function pickHeaders(
  raw: Record<string, string | string[] | undefined>,
  names: readonly string[],
  separator: string,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of names) {
    const value = raw[name];
    if (value !== undefined) kept[name] = Array.isArray(value) ? value.join(separator) : value;
  }
  return kept;
}

function redirectTarget(from: string, location: string | undefined): string | undefined {
  if (!location) return undefined;
  try {
    const next = new URL(location, from);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return undefined;
    next.hash = '';
    return next.href;
  } catch {
    return undefined;
  }
}

/**
 * A failure without a response, in words and by its code (the error's own, or its cause's:
 * undici wraps the socket's); past the fetch's time limit, `ETIMEDOUT`.
 */
function failure(error: unknown, timedOut: boolean): { error: string; errorCode?: string } {
  if (timedOut) return { error: 'timed out', errorCode: 'ETIMEDOUT' };
  const err = (error ?? {}) as { message?: string; cause?: { message?: string } };
  const code = codeOf(error) ?? codeOf(err.cause);
  const message = err.cause?.message ?? err.message ?? String(error);
  return typeof code === 'string' && code.length > 0
    ? { error: `${code}: ${message}`, errorCode: code }
    : { error: message };
}

/** An error's network code; a refused address's `EREFUSEDADDRESS` however it was thrown. */
function codeOf(error: unknown): unknown {
  if (error instanceof RefusedAddressError) return error.errno;
  return (error as { code?: unknown } | undefined)?.code;
}
