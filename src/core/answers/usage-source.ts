/**
 * Where a usage statement was made, and how to say it: pure, so that the CLI and the web
 * tester (bundled for the browser) describe sources alike.
 */

/** Where a statement was made. */
export type UsageSource =
  | { kind: 'robots-txt'; line?: number; text: string }
  | { kind: 'header'; field: string; text: string }
  | { kind: 'meta'; name: string; line: number; text: string }
  | { kind: 'tdmrep'; url: string; rule: number; location: string }
  /** What a fetch came to (a page's HTTP status, a robots.txt that could not be read). */
  | { kind: 'fetch'; text: string };

/** A source in words: `robots.txt line 5: Content-Usage: ...`, `X-Robots-Tag header: noai`. */
export function describeSource(source: UsageSource): string {
  switch (source.kind) {
    case 'robots-txt':
      return `robots.txt${source.line ? ` line ${source.line}` : ''}: ${source.text}`;
    case 'header':
      return `${source.field} header: ${source.text}`;
    case 'meta':
      return `<meta name="${source.name}"> line ${source.line}: ${source.text}`;
    case 'tdmrep':
      return `${source.url} rule ${source.rule + 1} (${source.location})`;
    case 'fetch':
      return source.text;
  }
}
