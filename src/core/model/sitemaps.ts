import type { ByteString } from '../text/bytes.ts';
import { IntColumn } from './columns.ts';
import type { Source } from '../text/source.ts';

/**
 * A file's sitemap lines, kept as where their values are in the text: a crawler checking
 * URLs never reads them, so the URLs are made the first time the list is.
 */
export class SitemapTable {
  /** Per line: start and end of the value in the source text. */
  readonly #spans = new IntColumn();
  /** Values that are bytes although the text is not (a character split by the line cut). */
  #byteValues: Map<number, ByteString> | undefined;
  #urls: readonly string[] | undefined;

  /** @param source what was tokenized: the spans refer to its text. */
  constructor(private readonly source: Source) {}

  /** Adds the value `text[start, end)`, or `bytes` when given. */
  add(start: number, end: number, bytes?: ByteString): void {
    if (bytes !== undefined) (this.#byteValues ??= new Map()).set(this.#spans.length, bytes);
    this.#spans.push(start);
    this.#spans.push(end);
  }

  /** Gives back unused capacity once parsing is done. */
  seal(): void {
    this.#spans.seal();
  }

  /** The URLs in file order, without empty values and duplicates. */
  list(): readonly string[] {
    if (this.#urls) return this.#urls;
    const seen = new Set<string>();
    for (let cell = 0; cell < this.#spans.length; cell += 2) {
      const bytes = this.#byteValues?.get(cell);
      const value = bytes ?? this.source.slice(this.#spans.at(cell), this.#spans.at(cell + 1));
      // Text may hold lone surrogates; shown as U+FFFD, as its UTF-8 bytes would be.
      const url = this.source.shown(value, bytes !== undefined);
      if (url.length > 0) seen.add(url);
    }
    this.#urls = [...seen];
    return this.#urls;
  }
}
