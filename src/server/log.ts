import type { FastifyRequest } from 'fastify';

/**
 * A request as the log shows it (Fastify's fields), with the user info of every URL in its
 * query replaced by `***`: `/v1/check?url=https://user:secret@host/` logged the password
 * (docs/service.md: no secrets in logs). A query that does not parse is logged as it came.
 */
export function loggedRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: withoutCredentials(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** `path?query` with the user info of each query value that is a URL as `***`. */
function withoutCredentials(url: string): string {
  const query = url.indexOf('?');
  // `@` comes %-encoded in a query value, most often: no cheaper test than decoding.
  if (query < 0) return url;
  try {
    let changed = false;
    const params = [...new URLSearchParams(url.slice(query + 1))].map(([name, value]) => {
      const hidden = hideUserInfo(value);
      changed ||= hidden !== value;
      return [name, hidden];
    });
    return changed ? `${url.slice(0, query)}?${new URLSearchParams(params).toString()}` : url;
  } catch {
    return url;
  }
}

/** A URL with its user name and password as `***`; anything else as it is. */
function hideUserInfo(value: string): string {
  if (!value.includes('@')) return value;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return value;
  }
  if (parsed.username === '' && parsed.password === '') return value;
  parsed.username = '***';
  parsed.password = '';
  return parsed.href;
}
