/**
 * One sitemap file read as it streams in: sitemap XML (a `urlset` or a `sitemapindex`), the RSS
 * 2.0 and Atom 1.0 feeds Google takes as sitemaps, or a plain list of URLs, one per line. XML
 * goes through saxes, a strict, non-validating tokenizer that expands no entity but XML's own;
 * a DTD is refused wherever it stands, so no entity can be declared at all.
 *
 * The bytes are handed to the tokenizer as Latin-1 text, one character per byte, so that its
 * positions are byte offsets; the values read (URLs, dates) are decoded from UTF-8 after.
 *
 * Read as sitemaps are written, not as a validator would: a UTF-8 byte order mark and blank
 * lines before the XML declaration (a template's stray newline) are skipped, and the elements
 * may carry a prefix bound to the sitemap or Atom namespace (`<ns0:urlset>`, as Python's
 * ElementTree writes them). A UTF-16 file, and an HTML page, are said to be what they are.
 */
import { SaxesParser } from 'saxes';
import { SitemapError } from './errors.ts';
import { boundPrefix, firstNonBlank, fromBytes, MARKS, UTF16_MARKS, UTF8_BOM } from './written.ts';

/** What a file lists: a page, or (in an index) another sitemap. */
export interface FileItem {
  kind: 'url' | 'sitemap';
  /** As written, trimmed. */
  loc: string;
  /** `lastmod` (`pubDate` in RSS, `updated` in Atom), as written. */
  lastmod?: string;
  /** The line the entry starts on (1-based). */
  line: number;
}

/** Something in a file that is skipped, not fatal. */
export interface FileNote {
  line: number;
  message: string;
}

/** Bounds of one file. */
export interface FileBounds {
  /** Decoded bytes. */
  maxBytes: number;
  /** URLs of a urlset, feed or list. */
  maxUrls: number;
  /** Sitemaps of an index. */
  maxSitemaps: number;
}

/** The longest `loc` taken (sitemaps.org: less than 2,048 characters). */
export const MAX_LOC_CHARS = 2_048;
/** The longest run of bytes without `<` or `>`: a text or a tag longer is no sitemap's. */
export const MAX_RUN_BYTES = 1024 * 1024;
/** The deepest nesting of elements read. */
export const MAX_DEPTH = 64;
/** Skipped entries told of one by one per file; past them, one note counts the rest. */
export const MAX_NOTES = 100;

type Format = 'xml' | 'text';

/** The elements that hold an entry, and where its URL and date are, per root element. */
const SHAPES = {
  urlset: { entry: 'url', kind: 'url', loc: 'loc', date: 'lastmod' },
  sitemapindex: { entry: 'sitemap', kind: 'sitemap', loc: 'loc', date: 'lastmod' },
  rss: { entry: 'item', kind: 'url', loc: 'link', date: 'pubDate' },
  feed: { entry: 'entry', kind: 'url', loc: undefined, date: 'updated' },
} as const;
type Root = keyof typeof SHAPES;

/**
 * Reads one file. `write` takes its decoded bytes in order and returns the entries completed
 * by them; `end` returns the last ones. Both throw `SitemapError` when the file cannot be read
 * further (what was returned before stands).
 */
export class SitemapFile {
  readonly #sitemap: string;
  readonly #bounds: FileBounds;
  readonly #notes: FileNote[] = [];
  /** Notes past `MAX_NOTES`, counted, and the line of the last. */
  #notesLeftOut = 0;
  #notesLastLine = 0;
  #format: Format | undefined;
  #bytes = 0;
  #urls = 0;
  #sitemaps = 0;
  #items: FileItem[] = [];
  /** The error that ended the file, thrown again by any later call. */
  #failed: SitemapError | undefined;
  /** Bytes since the last `<` or `>` (see `MAX_RUN_BYTES`). */
  #run = 0;
  // XML
  #xml: SaxesParser | undefined;
  #root: Root | undefined;
  #open: string[] = [];
  #entry: { line: number; loc?: string; lastmod?: string } | undefined;
  #text = '';
  /**
   * The root's prefix and colon when it is bound to a sitemap or Atom namespace
   * (`ns0:`), taken off every element name that carries it; empty otherwise.
   */
  #prefix = '';
  /** Bytes and line ends skipped before the first `<` (the tokenizer never sees them). */
  #skippedBytes = 0;
  #skippedLines = 0;
  /** The file's first bytes while they may be the start of a byte order mark. */
  #held = '';
  // Text
  #partial = '';
  #line = 1;

  constructor(sitemap: string, bounds: FileBounds) {
    this.#sitemap = sitemap;
    this.#bounds = bounds;
  }

  /**
   * Entries skipped so far, and why: the first `MAX_NOTES`, then one note counting the rest
   * (a file of 50 MiB of lines that are no URL is 26 million of them).
   */
  get notes(): readonly FileNote[] {
    if (this.#notesLeftOut === 0) return this.#notes;
    const line = this.#notesLastLine;
    const message = `${this.#notesLeftOut} more entries or lines skipped, the last on line ${line}`;
    return [...this.#notes, { line, message }];
  }

  #note(line: number, message: string): void {
    if (this.#notes.length < MAX_NOTES) this.#notes.push({ line, message });
    else {
      this.#notesLeftOut++;
      this.#notesLastLine = line;
    }
  }

  /** `urlset`, `sitemapindex`, `rss`, `feed`, `text`, or undefined before the first tag or line. */
  get shape(): Root | 'text' | undefined {
    return this.#format === 'text' ? 'text' : this.#root;
  }

  write(chunk: Uint8Array): FileItem[] {
    return this.#guarded(() => this.#write(chunk));
  }

  end(): FileItem[] {
    return this.#guarded(() => this.#end());
  }

  /**
   * Runs a step; when it fails, the entries it completed first are returned, and the error
   * is thrown by the next call, so that nothing read before it is lost.
   */
  #guarded(step: () => void): FileItem[] {
    if (this.#failed) throw this.#failed;
    try {
      step();
    } catch (error) {
      if (!(error instanceof SitemapError)) throw error;
      this.#failed = error;
      if (this.#items.length === 0) throw error;
    }
    return this.#take();
  }

  #write(chunk: Uint8Array): void {
    this.#bytes += chunk.length;
    if (this.#bytes > this.#bounds.maxBytes) {
      throw this.#error('file-too-large', `more than ${this.#bounds.maxBytes} bytes decoded`);
    }
    let text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length).toString('latin1');
    if (this.#format === undefined) {
      text = this.#leading(text, this.#bytes === chunk.length);
      if (this.#format === undefined) return;
    }
    if (this.#format === 'text') this.#lines(text, false);
    else {
      this.#measureRun(text);
      this.#feedXml(text);
    }
  }

  #end(): void {
    if (this.#format === undefined) {
      throw this.#error('malformed', 'empty: no sitemap, feed or URL list');
    }
    if (this.#format === 'text') this.#lines('', true);
    else {
      this.#feedXml(undefined);
      if (this.#root === undefined) throw this.#error('malformed', 'no root element');
    }
  }

  /** Bounds what the tokenizer buffers: a text node or a tag is held whole until it ends. */
  #measureRun(text: string): void {
    const last = Math.max(text.lastIndexOf('<'), text.lastIndexOf('>'));
    this.#run = last < 0 ? this.#run + text.length : text.length - last - 1;
    if (this.#run > MAX_RUN_BYTES) {
      throw this.#error('malformed', `more than ${MAX_RUN_BYTES} bytes without markup`);
    }
  }

  #take(): FileItem[] {
    const items = this.#items;
    this.#items = [];
    return items;
  }

  /**
   * Before the format is known: skips a UTF-8 byte order mark at the file's start and blank
   * space, and decides the format at the first other character (XML at a `<`, a URL list
   * otherwise). Returns what is left to read; XML is handed over from its `<`, since nothing
   * may come before an XML declaration, and what was skipped is counted for the positions.
   */
  #leading(chunk: string, first: boolean): string {
    // A byte order mark may come in pieces: the first bytes are held until it can be told.
    const atStart = first || this.#held !== '';
    const text = this.#held + chunk;
    this.#held = '';
    if (atStart && text.length < 3 && MARKS.some((mark) => mark.startsWith(text))) {
      this.#held = text;
      return '';
    }
    if (atStart && UTF16_MARKS.some((mark) => text.startsWith(mark))) {
      throw new SitemapError(
        'malformed',
        this.#sitemap,
        'UTF-16 (its byte order mark): a sitemap is UTF-8',
        {
          offset: 0,
          line: 1,
        },
      );
    }
    const from = atStart && text.startsWith(UTF8_BOM) ? UTF8_BOM.length : 0;
    const at = firstNonBlank(text, from);
    if (at < text.length) this.#format = text.charCodeAt(at) === 0x3c ? 'xml' : 'text';
    if (this.#format === 'text') {
      // A URL list counts its own lines, the blank ones skipped before included.
      this.#line += this.#skippedLines;
      return text;
    }
    const skipped = text.slice(0, at);
    this.#skippedBytes += at;
    for (let i = skipped.indexOf('\n'); i >= 0; i = skipped.indexOf('\n', i + 1)) {
      this.#skippedLines++;
    }
    return text.slice(at);
  }

  #error(reason: ConstructorParameters<typeof SitemapError>[0], detail: string): SitemapError {
    const at = this.#xml;
    return new SitemapError(reason, this.#sitemap, detail, {
      offset: at ? at.position + this.#skippedBytes : this.#bytes,
      line: at ? at.line + this.#skippedLines : this.#line,
    });
  }

  #add(kind: 'url' | 'sitemap', loc: string, lastmod: string | undefined, line: number): void {
    const value = fromBytes(loc).trim();
    if (value === '') {
      this.#note(line, 'an entry without a URL: skipped');
      return;
    }
    if (value.length > MAX_LOC_CHARS) {
      this.#note(line, `a URL of ${value.length} characters: skipped`);
      return;
    }
    if (kind === 'url' && ++this.#urls > this.#bounds.maxUrls) {
      throw this.#error('too-many-entries', `more than ${this.#bounds.maxUrls} URLs`);
    }
    if (kind === 'sitemap' && ++this.#sitemaps > this.#bounds.maxSitemaps) {
      throw this.#error('too-many-entries', `more than ${this.#bounds.maxSitemaps} sitemaps`);
    }
    const date = lastmod === undefined ? undefined : fromBytes(lastmod).trim();
    this.#items.push({ kind, loc: value, ...(date ? { lastmod: date } : {}), line });
  }

  /** A URL list: one URL per line; blank lines and lines that are no URL are skipped. */
  #lines(text: string, last: boolean): void {
    const lines = (this.#partial + text).split('\n');
    this.#partial = last ? '' : lines.pop()!;
    if (this.#partial.length > MAX_LOC_CHARS * 2) {
      throw this.#error('malformed', `a line of more than ${MAX_LOC_CHARS * 2} bytes`);
    }
    for (const raw of lines) {
      const line = raw.replace(/^\u00ef\u00bb\u00bf/, '').trim();
      if (line !== '') {
        if (/^https?:\/\//i.test(line)) this.#add('url', line, undefined, this.#line);
        else this.#note(this.#line, 'not a URL: skipped');
      }
      this.#line++;
    }
  }

  #feedXml(text: string | undefined): void {
    const xml = (this.#xml ??= this.#parser());
    try {
      if (text === undefined) xml.close();
      else xml.write(text);
    } catch (error) {
      if (error instanceof SitemapError) throw error;
      // The tokenizer's `line:column: ` (after a file name when given) is its own count: the
      // error says where in the file's bytes instead.
      const detail = (error as Error).message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
      throw this.#error('malformed', detail);
    }
  }

  #parser(): SaxesParser {
    const xml = new SaxesParser({ position: true });
    xml.on('doctype', (doctype) => {
      // An HTML page served in a sitemap's place: said as what it is (no DTD is read either way).
      if (/^\s*html\b[^[]*$/i.test(doctype)) {
        throw this.#error('malformed', 'an HTML page (<!DOCTYPE html>), not a sitemap or feed');
      }
      throw this.#error('doctype', 'a DOCTYPE: DTDs and entity declarations are refused');
    });
    xml.on('opentag', (tag) => {
      if (this.#root === undefined) this.#prefix = boundPrefix(tag.name, tag.attributes);
      const name = this.#local(tag.name);
      if (this.#root === undefined) {
        if (!(name in SHAPES)) {
          throw this.#error(
            'malformed',
            `<${name}> is no sitemap, index or feed (urlset, sitemapindex, rss, feed)`,
          );
        }
        this.#root = name as Root;
      }
      const shape = SHAPES[this.#root];
      if (this.#open.push(name) > MAX_DEPTH) {
        throw this.#error('malformed', `elements nested more than ${MAX_DEPTH} deep`);
      }
      if (name === shape.entry) this.#entry = { line: xml.line + this.#skippedLines };
      else if (this.#entry && this.#root === 'feed' && name === 'link') {
        const rel = tag.attributes['rel'];
        const href = tag.attributes['href'];
        if (typeof href === 'string' && (rel === undefined || rel === 'alternate')) {
          this.#entry.loc ??= href;
        }
      }
      this.#text = '';
    });
    const text = (value: string) => {
      // Only the text of the elements read is kept, and it is bounded by the file's bytes.
      if (this.#entry) this.#text += value;
    };
    xml.on('text', text);
    xml.on('cdata', text);
    xml.on('closetag', (tag) => {
      const shape = SHAPES[this.#root!];
      const entry = this.#entry;
      this.#open.pop();
      if (!entry) return;
      const parent = this.#open.at(-1);
      const name = this.#local(tag.name);
      if (name === shape.loc && parent === shape.entry) entry.loc = this.#text;
      else if (name === shape.date && parent === shape.entry) entry.lastmod = this.#text;
      else if (name === shape.entry) {
        this.#entry = undefined;
        this.#add(shape.kind, entry.loc ?? '', entry.lastmod, entry.line);
      }
      this.#text = '';
    });
    return xml;
  }

  /** An element's name without the root's namespace prefix (see `#prefix`). */
  #local(name: string): string {
    return this.#prefix !== '' && name.startsWith(this.#prefix)
      ? name.slice(this.#prefix.length)
      : name;
  }
}
