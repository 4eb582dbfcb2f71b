/**
 * The product token of a user-agent value: its leading run of `[A-Za-z_-]`, as Google
 * extracts it (`Googlebot/2.1` → `Googlebot`, `Foo Bar` → `Foo`). Use it to turn a full
 * HTTP User-Agent header into the name robots.txt groups are matched by.
 */
export function productToken(userAgent: string): string {
  let end = 0;
  while (end < userAgent.length) {
    const c = userAgent.charCodeAt(end);
    const isLetter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (!isLetter && c !== 0x2d && c !== 0x5f) break;
    end++;
  }
  return userAgent.slice(0, end);
}

/** Whether a name is one a crawler can be matched by: non-empty and all `[A-Za-z_-]`. */
export function isValidProductToken(name: string): boolean {
  return name.length > 0 && productToken(name) === name;
}

/**
 * Whether a `User-agent:` value names every crawler: `*`, or (Google) `*` followed by
 * whitespace and anything else.
 */
export function isGlobalAgent(value: string): boolean {
  if (value.charCodeAt(0) !== 0x2a) return false;
  if (value.length === 1) return true;
  const c = value.charCodeAt(1);
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}
