import { Readable } from 'node:stream';
import { SAXParser, type StartTag } from 'parse5-sax-parser';

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
  /** Why reading stopped: the head ended (or body content began), or the input ended. */
  stoppedAt: 'head-end' | 'input-end';
}

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
const CHUNK = 16 * 1024;

/**
 * Reads `<meta>` tags from the document head with a real HTML tokenizer (parse5): comments,
 * scripts, attributes in any order and quoting, entities and upper case are handled as
 * browsers handle them. Reading stops at `</head>` or at the first body content, so a large
 * page is read only as far as its head.
 */
export async function readHeadMetas(input: HtmlInput): Promise<HeadRead> {
  const parser = new SAXParser({ sourceCodeLocationInfo: true });
  // The parser passes its input through; nobody reads that, so let it flow away.
  parser.resume();
  const metas: MetaTag[] = [];
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
      if (metaName !== undefined && content !== undefined) {
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
  for await (const chunk of chunks(input)) {
    charsRead += chunk.length;
    parser.write(chunk);
    if (done) break;
  }
  if (!done) parser.end();
  return { metas, charsRead, stoppedAt: done ? 'head-end' : 'input-end' };
}

/** The input as decoded text chunks of at most CHUNK characters. */
async function* chunks(input: HtmlInput): AsyncGenerator<string> {
  if (typeof input === 'string') {
    for (let i = 0; i < input.length; i += CHUNK) yield input.slice(i, i + CHUNK);
    return;
  }
  const decoder = new TextDecoder();
  if (input instanceof Uint8Array) {
    for (let i = 0; i < input.length; i += CHUNK)
      yield decoder.decode(input.subarray(i, i + CHUNK), { stream: true });
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
      const text = typeof value === 'string' ? value : decoder.decode(value, { stream: true });
      for (let i = 0; i < text.length; i += CHUNK) yield text.slice(i, i + CHUNK);
    }
  } finally {
    // Stop reading the stream: the rest of the page is not needed.
    await iterator.return?.();
  }
}
