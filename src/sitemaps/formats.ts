/**
 * One sitemap file read as it streams in: sitemap XML (a `urlset` or a `sitemapindex`), the RSS
 * 2.0 and Atom 1.0 feeds Google takes as sitemaps, or a plain list of URLs, one per line. XML
 * goes through saxes, a strict, non-validating tokenizer that expands no entity but XML's own;
 * a DTD is refused wherever it stands, so no entity can be declared at all.
 *
 * The bytes are handed to the tokenizer as Latin-1 text, one character per byte, so that its
 * positions are byte offsets; the values read (URLs, dates) are decoded from UTF-8 after.
 */
import { SaxesParser } from 'saxes';
import { SitemapError } from './errors.ts';

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

type Format = 'xml' | 'text';

/** The elements that hold an entry, and where its URL and date are, per root element. */
const SHAPES = {
  urlset: { entry: 'url', kind: 'url', loc: 'loc', date: 'lastmod' },
  sitemapindex: { entry: 'sitemap', kind: 'sitemap', loc: 'loc', date: 'lastmod' },
  rss: { entry: 'item', kind: 'url', loc: 'link', date: 'pubDate' },
  feed: { entry: 'entry', kind: 'url', loc: undefined, date: 'updated' },
} as const;
type Root = keyof typeof SHAPES;

/** Text read as Latin-1 back to what its UTF-8 bytes say (ASCII, the usual case, as it is). */
function fromBytes(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[^\x00-\x7f]/.test(text)) return text;
  const decoded = Buffer.from(text, 'latin1').toString('utf8');
  // A character reference above U+00FF is no byte: then the text was not bytes.
  return decoded.includes('\ufffd') ? text : decoded;
}

/**
 * Reads one file. `write` takes its decoded bytes in order and returns the entries completed
 * by them; `end` returns the last ones. Both throw `SitemapError` when the file cannot be read
 * further (what was returned before stands).
 */
export class SitemapFile {
  readonly #sitemap: string;
  readonly #bounds: FileBounds;
  readonly #notes: FileNote[] = [];
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
  // Text
  #partial = '';
  #line = 1;

  constructor(sitemap: string, bounds: FileBounds) {
    this.#sitemap = sitemap;
    this.#bounds = bounds;
  }

  /** Entries skipped so far, and why. */
  get notes(): readonly FileNote[] {
    return this.#notes;
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
    const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length).toString('latin1');
    this.#format ??= this.#detect(text);
    if (this.#format === undefined) return;
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

  /** XML when the first character after a BOM and whitespace is `<`; a URL list otherwise. */
  #detect(text: string): Format | undefined {
    const first = /[^\s\u00ef\u00bb\u00bf]/.exec(text);
    if (!first) return undefined;
    return first[0] === '<' ? 'xml' : 'text';
  }

  #error(reason: ConstructorParameters<typeof SitemapError>[0], detail: string): SitemapError {
    const at = this.#xml;
    return new SitemapError(reason, this.#sitemap, detail, {
      offset: at ? at.position : this.#bytes,
      line: at ? at.line : this.#line,
    });
  }

  #add(kind: 'url' | 'sitemap', loc: string, lastmod: string | undefined, line: number): void {
    const value = fromBytes(loc).trim();
    if (value === '') {
      this.#notes.push({ line, message: 'an entry without a URL: skipped' });
      return;
    }
    if (value.length > MAX_LOC_CHARS) {
      this.#notes.push({ line, message: `a URL of ${value.length} characters: skipped` });
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
        else this.#notes.push({ line: this.#line, message: 'not a URL: skipped' });
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
      throw this.#error('malformed', (error as Error).message.replace(/^[^:]*:\d+:\d+: /, ''));
    }
  }

  #parser(): SaxesParser {
    const xml = new SaxesParser({ position: true });
    xml.on('doctype', () => {
      throw this.#error('doctype', 'a DOCTYPE: DTDs and entity declarations are refused');
    });
    xml.on('opentag', (tag) => {
      const name = tag.name;
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
      if (name === shape.entry) this.#entry = { line: xml.line };
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
      if (tag.name === shape.loc && parent === shape.entry) entry.loc = this.#text;
      else if (tag.name === shape.date && parent === shape.entry) entry.lastmod = this.#text;
      else if (tag.name === shape.entry) {
        this.#entry = undefined;
        this.#add(shape.kind, entry.loc ?? '', entry.lastmod, entry.line);
      }
      this.#text = '';
    });
    return xml;
  }
}
