/** Robots.txt files built to cost the matcher most, for the tests of bounded work. */

/** 500 KiB of rules whose one segment nearly occurs everywhere in the path. */
export function nearMissFile(): string {
  const rule = `Disallow: /*${'a'.repeat(4095)}c\n`;
  let body = 'User-agent: *\n';
  while (body.length + rule.length < 500_000) body += rule;
  return body + 'Disallow: /c\n';
}

/** A path that nearly matches every rule of `nearMissFile`, as long as a URL may be (8,192 characters with the origin). */
export const NEAR_MISS_PATH = `/c${'a'.repeat(8150)}`;
