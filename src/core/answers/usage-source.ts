/**
 * Where a usage statement was made, and how to say it: pure, so that the CLI and the web
 * tester (bundled for the browser) describe sources alike.
 */
import type { TdmrepRuleSource } from '../tdmrep/tdmrep.ts';

/** Where a statement was made. */
export type UsageSource =
  | {
      /** A robots.txt line (Content-Usage, Content-Signal). */
      kind: 'robots-txt';
      /** Its line number (1-based), when the file had one for it. */
      line?: number;
      /** The line as written. */
      text: string;
      /**
       * The line stands before any `User-agent`: repkit reads it for the whole file (every
       * group without a Content-Signal of its own); Cloudflare's reading does not.
       */
      fileLevel?: true;
    }
  | {
      /** An HTTP response header of the page. */
      kind: 'header';
      /** The header's name (`X-Robots-Tag`, `tdm-reservation`...). */
      field: string;
      /** Its value, as sent. */
      text: string;
    }
  | {
      /** A `<meta>` tag of the page. */
      kind: 'meta';
      /** The tag's `name`. */
      name: string;
      /** Its line in the HTML (1-based). */
      line: number;
      /** Its `content`. */
      text: string;
    }
  | TdmrepRuleSource
  | {
      /** What a fetch came to (a page's HTTP status, a robots.txt that could not be read). */
      kind: 'fetch';
      /** It, in words. */
      text: string;
    };

/** A source in words: `robots.txt line 5: Content-Usage: ...`, `X-Robots-Tag header: noai`. */
export function describeSource(source: UsageSource): string {
  switch (source.kind) {
    case 'robots-txt':
      return `robots.txt${source.line ? ` line ${source.line}` : ''}: ${source.text}${source.fileLevel ? ' (before any User-agent: read for the whole file)' : ''}`;
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
