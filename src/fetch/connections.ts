import { ANY_ADDRESS } from './net/addresses.ts';
import { RobotsHttp } from './net/robots-http.ts';
import type { RobotsClientOptions } from './options.ts';
import { proxyFromEnvironment } from './net/proxy.ts';
import { HostResolver } from './net/resolver.ts';

/**
 * A client's way out: its name resolution (with the address guard and DNS limits) and its
 * HTTP layer (its own connections, the caller's dispatcher, or the environment's proxies).
 */
export function connections(
  options: RobotsClientOptions,
  timeoutMs: number,
  connectTimeoutMs: number,
): { resolver: HostResolver; http: RobotsHttp } {
  const allowAddress = options.allowAddress ?? ANY_ADDRESS;
  const resolver = new HostResolver({
    allowAddress,
    ...(options.lookup ? { lookup: options.lookup } : {}),
    ...(options.dns?.maxConcurrent ? { maxConcurrent: options.dns.maxConcurrent } : {}),
    timeoutMs: options.dns?.timeoutMs ?? Math.min(5_000, timeoutMs),
    ...(options.dns?.ttlMs !== undefined ? { ttlMs: options.dns.ttlMs } : {}),
  });
  const http = new RobotsHttp({
    connectTimeoutMs: Math.min(connectTimeoutMs, timeoutMs),
    resolver,
    allowAddress,
    dispatcher: options.dispatcher,
    ...(options.proxy === 'env'
      ? {
          proxy: proxyFromEnvironment(),
          ownsDispatcher: true,
          guardProxied: options.allowAddress !== undefined,
        }
      : {}),
  });
  return { resolver, http };
}
