/** Where requests go through a proxy (`proxy: 'env'`): undici's `EnvHttpProxyAgent` options. */
export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy: string;
}

/**
 * The proxy settings of the environment as it is now (`HTTP_PROXY`, `HTTPS_PROXY`,
 * `NO_PROXY`, upper or lower case): read once, when the client is made, so that a later
 * change of the environment does not change where an existing client's requests go.
 */
export function proxyFromEnvironment(): ProxySettings {
  const env = process.env;
  const pick = (name: string): string | undefined => env[name] ?? env[name.toLowerCase()];
  const httpProxy = pick('HTTP_PROXY');
  const httpsProxy = pick('HTTPS_PROXY') ?? httpProxy;
  const noProxy = pick('NO_PROXY');
  return {
    ...(httpProxy ? { httpProxy } : {}),
    ...(httpsProxy ? { httpsProxy } : {}),
    noProxy: noProxy ?? '',
  };
}
