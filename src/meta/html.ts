import { Readable } from 'node:stream';
import type { StartTag } from 'parse5-sax-parser';

/** A `<meta name content>` found in the document head. */
export interface MetaTag {
  /** The name, lower-cased (`robots`, `googlebot`...). */
  name: string;
  content: string;
  /** 1-based line of the tag. */
  line: number;
}

/** An HTML document: text, bytes, or a stream of either (Node or web stream). */
export type HtmlInput =
  string | Uint8Array | AsyncIterable<string | Uint8Array> | ReadableStream<string | Uint8Array>;

export interface HeadRead {
  metas: MetaTag[];
  /** Input consumed, in characters of decoded text, before reading stopped. */
  charsRead: number;
  /**
   * Why reading stopped: the head ended (or body content began), the input ended, or the
   * read limit was reached (`MAX_HEAD_CHARS`) with the head still open.
   */
  stoppedAt: 'head-end' | 'input-end' | 'limit';
  /** Meta tags past `MAX_META_TAGS`, not kept. */
  metasDropped: number;
}

/**
 * Most characters of a page read looking for its head: 1 MiB. Google reads up to 15 MB of an
 * HTML file, but robots meta tags belong in the head, which real pages close within a few
 * kilobytes; a head still open after a megabyte is hostile or broken.
 */
export const MAX_HEAD_CHARS = 1024 * 1024;
/** Most `<meta name content>` tags kept from one head. */
export const MAX_META_TAGS = 1_000;

/** Elements that may stand in the head; any other start tag means the body has begun. */
const HEAD_ELEMENTS = new Set([
  'html',
  'head',
  'meta',
  'title',
  'link',
  'style',
  'script',
  'noscript',
  'base',
  'template',
]);
/** Elements whose text is not page content. */
const TEXT_ELEMENTS = new Set(['title', 'style', 'script', 'noscript', 'template']);
/** The first write to the parser; each later one is twice as large (see `batches`). */
const FIRST_BATCH = 16 * 1024;

/**
 * Reads `<meta>` tags from the document head with a real HTML tokenizer (parse5): comments,
 * scripts, attributes in any order and quoting, entities and upper case are handled as
 * browsers handle them. Reading stops at `</head>` or at the first body content, so a large
 * page is read only as far as its head.
 */
export async function readHeadMetas(
  input: HtmlInput,
  options: { maxChars?: number } = {},
): Promise<HeadRead> {
  const maxChars = options.maxChars ?? MAX_HEAD_CHARS;
  // Loaded when a page is first read: the CLI and the service start without it.
  const { SAXParser } = await import('parse5-sax-parser');
  const parser = new SAXParser({ sourceCodeLocationInfo: true });
  // The parser passes its input through; nobody reads that, so let it flow away.
  parser.resume();
  const metas: MetaTag[] = [];
  let metasDropped = 0;
  let inText: string | undefined;
  let done = false;
  const stop = () => {
    done = true;
    parser.stop();
  };
  parser.on('startTag', (tag: StartTag) => {
    if (done) return;
    const name = tag.tagName;
    if (!HEAD_ELEMENTS.has(name)) return stop();
    if (name === 'meta') {
      const attr = (key: string) => tag.attrs.find((a) => a.name === key)?.value;
      const metaName = attr('name');
      const content = attr('content');
      if (metaName !== undefined && content !== undefined && metas.length >= MAX_META_TAGS) {
        metasDropped++;
      } else if (metaName !== undefined && content !== undefined) {
        metas.push({
          name: metaName.trim().toLowerCase(),
          content,
          line: tag.sourceCodeLocation?.startLine ?? 0,
        });
      }
    } else if (TEXT_ELEMENTS.has(name) && !tag.selfClosing) {
      inText = name;
    }
  });
  parser.on('endTag', ({ tagName }) => {
    if (tagName === 'head' || tagName === 'html') stop();
    if (tagName === inText) inText = undefined;
  });
  parser.on('text', ({ text }) => {
    // Text outside title/script/style is body content: the head is over.
    if (!done && inText === undefined && text.trim() !== '') stop();
  });

  let charsRead = 0;
  let limited = false;
  for await (const batch of batches(texts(input), maxChars)) {
    charsRead += batch.text.length;
    parser.write(batch.text);
    if (done) break;
    if (batch.limited) limited = true;
  }
  if (!done) parser.end();
  const stoppedAt = done ? 'head-end' : limited ? 'limit' : 'input-end';
  return { metas, charsRead, stoppedAt, metasDropped };
}

/**
 * The text in writes that double in size, up to `maxChars` in all. The HTML tokenizer goes
 * back over a token that a write leaves unfinished, so equal small writes would cost time
 * quadratic in a long token (a huge attribute or comment); doubling keeps the total linear.
 */
async function* batches(
  source: AsyncIterable<string>,
  maxChars: number,
): AsyncGenerator<{ text: string; limited: boolean }> {
  let size = FIRST_BATCH;
  let pending: string[] = [];
  let pendingLength = 0;
  let total = 0;
  for await (const text of source) {
    pending.push(text);
    pendingLength += text.length;
    if (total + pendingLength >= maxChars) {
      yield { text: pending.join('').slice(0, maxChars - total), limited: true };
      return;
    }
    if (pendingLength >= size) {
      total += pendingLength;
      yield { text: pending.join(''), limited: false };
      pending = [];
      pendingLength = 0;
      size *= 2;
    }
  }
  if (pendingLength > 0) yield { text: pending.join(''), limited: false };
}

/** The input as decoded text, in the pieces it comes in (large strings and arrays in 64 KiB). */
async function* texts(input: HtmlInput): AsyncGenerator<string> {
  const PIECE = 64 * 1024;
  if (typeof input === 'string') {
    for (let i = 0; i < input.length; i += PIECE) yield input.slice(i, i + PIECE);
    return;
  }
  const decoder = new SniffingDecoder();
  if (input instanceof Uint8Array) {
    for (let i = 0; i < input.length; i += PIECE)
      yield decoder.decode(input.subarray(i, i + PIECE));
    yield decoder.end();
    return;
  }
  const source: AsyncIterable<string | Uint8Array> =
    typeof (input as ReadableStream).getReader === 'function'
      ? Readable.fromWeb(input as import('node:stream/web').ReadableStream<string | Uint8Array>)
      : (input as AsyncIterable<string | Uint8Array>);
  const iterator = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      const { value, done } = await iterator.next();
      if (done) break;
      yield typeof value === 'string' ? value : decoder.decode(value);
    }
    yield decoder.end();
  } finally {
    // Stop reading the stream: the rest of the page is not needed.
    await iterator.return?.();
  }
}

/**
 * Bytes to text as browsers begin: a byte-order mark chooses UTF-8, UTF-16LE or UTF-16BE
 * (and is dropped); without one, UTF-8.
 */
class SniffingDecoder {
  private decoder: TextDecoder | undefined;
  private head = new Uint8Array(0);

  decode(bytes: Uint8Array): string {
    if (!this.decoder) {
      // Wait for the first three bytes before choosing.
      const joined = new Uint8Array(this.head.length + bytes.length);
      joined.set(this.head);
      joined.set(bytes, this.head.length);
      if (joined.length < 3) {
        this.head = joined;
        return '';
      }
      this.decoder = new TextDecoder(sniff(joined));
      this.head = new Uint8Array(0);
      bytes = joined;
    }
    return this.decoder.decode(bytes, { stream: true });
  }

  /** What is left: the rest of the stream, or the whole input when it was under three bytes. */
  end(): string {
    if (this.decoder) return this.decoder.decode();
    return new TextDecoder(sniff(this.head)).decode(this.head);
  }
}

function sniff(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}
