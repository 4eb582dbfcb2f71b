import { RepkitError } from '../core/index.ts';

/** Why a sitemap read stopped. */
export type SitemapFailure =
  /** A DTD (`<!DOCTYPE`, and with it any entity declaration): refused wherever it stands. */
  | 'doctype'
  /** Not well-formed XML, or no sitemap, feed or URL list at all. */
  | 'malformed'
  /** The file went past `maxFileBytes` decoded (a compression bomb stops here). */
  | 'file-too-large'
  /** The file listed more than `maxUrlsPerFile` URLs, or an index more than `maxSitemapsPerIndex`. */
  | 'too-many-entries'
  /** The read went past `maxSitemaps` files or `maxEntries` entries. */
  | 'read-limit'
  /** The file could not be fetched (a status other than 2xx, a network failure, a timeout). */
  | 'fetch-failed'
  /** The sitemap's own robots.txt does not let the crawler fetch it (or cannot be read now). */
  | 'disallowed';

/**
 * A sitemap read stopped: what was read before it was handed out, and this says why, where
 * (`sitemap`, and `offset` and `line` in its decoded bytes when the file itself is at fault),
 * and is thrown by `readSitemaps`' iterator. Code `sitemap`.
 */
export class SitemapError extends RepkitError {
  constructor(
    /** Why the read stopped. */
    readonly reason: SitemapFailure,
    /** The sitemap at fault (its URL, or `bytes` for a body given). */
    readonly sitemap: string,
    detail: string,
    /**
     * Where in the file the fault is, when the file itself is at fault; or, when it could
     * not be fetched, the failure's code (see `errorCode`).
     */
    at?: { offset: number; line: number } | { errorCode: string | undefined },
  ) {
    const where = at && 'line' in at ? at : undefined;
    super(
      'sitemap',
      `${sitemap}${where ? ` line ${where.line} (byte ${where.offset})` : ''}: ${detail}`,
    );
    if (where) {
      this.offset = where.offset;
      this.line = where.line;
    } else if (at && 'errorCode' in at && at.errorCode !== undefined) {
      this.errorCode = at.errorCode;
    }
  }

  /**
   * For `fetch-failed`, and `disallowed` because the sitemap's robots.txt cannot be read now:
   * the failure's code when no response came (`EREFUSEDADDRESS` for an address the client
   * refuses, `ECONNREFUSED`, `ENOTFOUND`, `ETIMEDOUT`...; see `FetchResult.errorCode`).
   */
  readonly errorCode?: string;

  /** Where in the file's decoded bytes (0-based), when the file itself is at fault. */
  readonly offset?: number;
  /** The line there (1-based). */
  readonly line?: number;
}

/**
 * Whether `error` is a `SitemapError`, of this copy of repkit or another (known by its name and
 * code).
 */
export function isSitemapError(error: unknown): error is SitemapError {
  return (
    error instanceof SitemapError ||
    (error instanceof Error &&
      error.name === 'SitemapError' &&
      (error as { code?: unknown }).code === 'sitemap')
  );
}
