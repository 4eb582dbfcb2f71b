import type { Dispatcher } from 'undici';
import { InvalidUrlError, type RobotsClient } from '../fetch/index.ts';
import { identityOf, mayRequest, reportStatus, type GuardOptions } from './decide.ts';

/**
 * An undici interceptor that keeps robots.txt for every request its dispatcher sends:
 *
 * ```ts
 * const agent = new Agent().compose(robotsInterceptor(client), interceptors.redirect({ maxRedirections: 5 }));
 * await request('https://example.com/page', { dispatcher: agent });
 * await fetch('https://example.com/page', { dispatcher: agent });
 * ```
 *
 * Each request is judged as it will be sent, against its own origin's robots.txt (the
 * client's cache, store and politeness); a request refused fails with `DisallowedError` or
 * `DeferredError` and is not sent. Every redirect hop is a request of its own through the
 * dispatcher (`fetch` follows redirects hop by hop; undici's redirect interceptor does when
 * composed after this one, as above), so each hop is judged too. A 429 or 503 answer pauses
 * its host for its `Retry-After`, for every process on the client's store.
 */
export function robotsInterceptor(
  client: RobotsClient,
  options: GuardOptions = {},
): Dispatcher.DispatcherComposeInterceptor {
  const agent = identityOf(client, options);
  return (dispatch) => (opts, handler) => {
    const url = urlOf(opts);
    if (url === undefined) return dispatch(opts, handler);
    if (url instanceof InvalidUrlError) {
      fail(handler, url);
      return true;
    }
    // The dispatched path is the request line's target as it is sent: judged as it is.
    mayRequest(client, url, options, true)
      .then(() => client.requestHeaders(url))
      .then(
        (added) =>
          dispatch(withHeaders(opts, added, agent), watching(handler, client, url, options)),
        (error: Error) => fail(handler, error),
      );
    return true;
  };
}

/**
 * The request with the client's signature and price offer (`requestHeaders`) added, and its
 * `User-Agent` (`agent`) where the caller set none; as it was when there is nothing to add.
 * undici takes headers as an object, a flat array or an iterable.
 */
function withHeaders(
  opts: Dispatcher.DispatchOptions,
  added: Record<string, string>,
  agent: string | undefined,
): Dispatcher.DispatchOptions {
  if (Object.keys(added).length === 0 && agent === undefined) return opts;
  const given = opts.headers;
  const pairs: [string, string | string[]][] = [];
  if (Array.isArray(given)) {
    for (let i = 0; i + 1 < given.length; i += 2) pairs.push([String(given[i]), given[i + 1]!]);
  } else if (given && typeof (given as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [name, value] of given as Iterable<[string, string | string[]]>) {
      pairs.push([name, value]);
    }
  } else if (given) {
    for (const [name, value] of Object.entries(given)) {
      if (value !== undefined) pairs.push([name, value as string | string[]]);
    }
  }
  const headers: Record<string, string | string[]> = {};
  let own = false;
  for (const [name, value] of pairs) {
    const lower = name.toLowerCase();
    if (lower === 'user-agent') own = true;
    if (!(lower in added)) headers[name] = value;
  }
  if (agent !== undefined && !own) headers['user-agent'] = agent;
  return { ...opts, headers: { ...headers, ...added } };
}

/**
 * The request's URL as it is sent: the origin, then the dispatched path as it stands (a path
 * is not a reference: `//other.example/x` goes to this origin). Undefined when it is not
 * http(s); an `InvalidUrlError` for a path that is not in origin form (`/...`), which is
 * refused rather than sent unjudged.
 */
function urlOf(opts: Dispatcher.DispatchOptions): string | InvalidUrlError | undefined {
  const origin = String(opts.origin ?? '');
  if (!origin.startsWith('http:') && !origin.startsWith('https:')) return undefined;
  const path = String(opts.path);
  const base = origin.endsWith('/') ? origin.slice(0, -1) : origin;
  if (path.charCodeAt(0) !== 0x2f) {
    return new InvalidUrlError(`${base} ${path}`, 'the request path does not start with "/"');
  }
  return base + path;
}

/** The handler, told of 429 and 503 answers on their way to it. */
function watching(
  handler: Dispatcher.DispatchHandler,
  client: RobotsClient,
  url: string,
  options: GuardOptions,
): Dispatcher.DispatchHandler {
  return new Proxy(handler, {
    get(target, key, receiver) {
      if (key !== 'onResponseStart') {
        // Bound to the handler itself: undici's handlers keep their state in private fields.
        const value: unknown = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (
        controller: Dispatcher.DispatchController,
        status: number,
        headers: Record<string, string | string[] | undefined>,
        message: string,
      ) => {
        const retryAfter = headers['retry-after'];
        void reportStatus(
          client,
          url,
          status,
          Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
          options,
        );
        return target.onResponseStart?.(controller, status, headers, message);
      };
    },
  });
}

/** A request refused before it was sent: the handler hears the error, as of a failed send. */
function fail(handler: Dispatcher.DispatchHandler, error: Error): void {
  const controller = {
    abort() {},
    pause() {},
    resume() {},
    aborted: true,
    paused: false,
    reason: error,
  } as unknown as Dispatcher.DispatchController;
  handler.onResponseError?.(controller, error);
}
