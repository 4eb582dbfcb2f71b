import type { RobotsClient } from '../fetch/index.ts';
import { identityOf, mayRequest, reportStatus, type GuardOptions } from './decide.ts';

/** How `robotsFetch` keeps robots.txt: the guards' options, and the `fetch` it wraps. */
export interface RobotsFetchOptions extends GuardOptions {
  /** The fetch that sends (default: the global one). */
  fetch?: typeof globalThis.fetch;
}

/** Statuses fetch follows, and the most hops it follows (as the Fetch standard says). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_HOPS = 20;

/**
 * `fetch` that keeps robots.txt: each request, and each redirect hop, is judged as it will be
 * sent (the URL serialised as fetch serialises it) against its own origin's robots.txt, with
 * the client's cache, store and politeness:
 *
 * ```ts
 * const fetch = robotsFetch(client);
 * const page = await fetch('https://example.com/page'); // DisallowedError if not allowed
 * ```
 *
 * A disallowed request is a `DisallowedError` naming the deciding line, and is not sent; while
 * a robots.txt cannot be read, or the host's turn is further off than `maxWaitMs`, a
 * `DeferredError` (never a request). A 429 or 503 answer pauses its host for its
 * `Retry-After`, for every process on the client's store. Redirects are followed here, hop by
 * hop (`redirect: 'manual'` and `'error'` are kept as given); URLs that are not http(s)
 * (`data:`) have no robots.txt and go as they are.
 */
export function robotsFetch(
  client: RobotsClient,
  options: RobotsFetchOptions = {},
): typeof globalThis.fetch {
  const send = options.fetch ?? globalThis.fetch;
  const agent = identityOf(client, options);
  return async (input, init) => {
    let request = new Request(input, init);
    if (!isHttp(request.url)) return send(request.url, sendInit(request));
    const mode = request.redirect;
    // A body is read once: 307 and 308 send it again, so a copy is kept for them.
    let spare = request.body ? request.clone() : undefined;
    for (let hop = 0; ; hop++) {
      await mayRequest(client, request.url, options);
      // The client's signature (Web Bot Auth) and price offer, made for this hop's URL.
      const headers = new Headers(request.headers);
      if (agent !== undefined && !headers.has('user-agent')) headers.set('user-agent', agent);
      for (const [name, value] of Object.entries(await client.requestHeaders(request.url))) {
        headers.set(name, value);
      }
      const response = await send(request.url, sendInit(request, headers));
      await reportStatus(
        client,
        request.url,
        response.status,
        response.headers.get('retry-after') ?? undefined,
        options,
      );
      const location = response.headers.get('location');
      if (mode === 'manual' || !REDIRECTS.has(response.status) || location === null) {
        return response;
      }
      if (mode === 'error')
        throw new TypeError(`fetch: ${request.url} redirected (redirect: 'error')`);
      if (hop + 1 >= MAX_HOPS)
        throw new TypeError(`fetch: more than ${MAX_HOPS} redirects from ${request.url}`);
      await response.body?.cancel();
      const next = new URL(location, request.url).href;
      if (!isHttp(next)) throw new TypeError(`fetch: redirect to ${next} is not http(s)`);
      // 303, and 301/302 after a POST, go on as a GET without a body (the Fetch standard).
      const asGet =
        response.status === 303
          ? request.method !== 'HEAD'
          : request.method === 'POST' && response.status < 303;
      if (asGet) {
        const headers = withoutBodyHeaders(request.headers);
        request = new Request(next, {
          method: 'GET',
          headers: crossOrigin(request.url, next) ? withoutCredentials(headers) : headers,
          signal: request.signal,
        });
        spare = undefined;
      } else {
        const body = spare;
        spare = body?.clone();
        request = new Request(next, {
          method: request.method,
          headers: crossOrigin(request.url, next)
            ? withoutCredentials(request.headers)
            : request.headers,
          signal: request.signal,
          ...(body ? { body: body.body, duplex: 'half' } : {}),
        } as RequestInit);
      }
    }
  };
}

/**
 * What is sent, as a URL and plain options rather than a `Request`: a `fetch` of another
 * realm (undici's own) does not take this realm's `Request`.
 */
function sendInit(request: Request, headers: Headers = request.headers): RequestInit {
  const init: RequestInit & { duplex?: 'half' } = {
    method: request.method,
    headers,
    redirect: 'manual',
    signal: request.signal,
  };
  if (request.body) {
    init.body = request.body;
    init.duplex = 'half';
  }
  return init;
}

function isHttp(url: string): boolean {
  return url.startsWith('http:') || url.startsWith('https:');
}

function withoutBodyHeaders(headers: Headers): Headers {
  const kept = new Headers(headers);
  for (const name of [
    'content-type',
    'content-length',
    'content-encoding',
    'content-language',
    'content-location',
  ]) {
    kept.delete(name);
  }
  return kept;
}

function crossOrigin(from: string, to: string): boolean {
  return new URL(from).origin !== new URL(to).origin;
}

/** As fetch does on a redirect to another origin: the credentials stay behind. */
function withoutCredentials(headers: Headers): Headers {
  const kept = new Headers(headers);
  kept.delete('authorization');
  kept.delete('proxy-authorization');
  kept.delete('cookie');
  return kept;
}
