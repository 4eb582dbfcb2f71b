/**
 * A connection URL as it may be logged: the password (and any user info that does not parse)
 * replaced by `***`, so that banners and warnings never print a secret.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.href;
  } catch {
    // Not a URL: still hide anything that looks like user info.
    return url.replace(/\/\/[^/@]*@/, '//***@');
  }
}
