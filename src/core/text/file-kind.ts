/**
 * What a body is when it is no robots.txt at all: an HTML page (a server answering 200 with
 * a page for a missing file, a block page), UTF-16 text (Google reads UTF-8 and finds no
 * rule in it) or binary data. Read from the body's first bytes; Google parses such a body
 * like any other and finds no group, so every URL is allowed, which an answer should say
 * is why.
 */
export type NotRobotsTxt = 'html-content' | 'utf-16' | 'binary-content';

/** What each kind is, in words (`an HTML page`), for the answers that say so. */
export const NOT_ROBOTS_TXT_WORDS: Readonly<Record<NotRobotsTxt, string>> = {
  'html-content': 'an HTML page',
  'utf-16': 'UTF-16 text',
  'binary-content': 'binary data',
};

/** How much of the head is looked at. */
export const HEAD_BYTES = 4096;

const HTML_START = /<(!doctype html|html|head|body)[\s>]/;
/** A tag, a comment or a declaration opening the text. */
const TAG_START = /^<[a-z!?/]/;
/** A line a robots.txt is made of. */
const DIRECTIVE_LINE = /^[ \t]*(user-agent|allow|disallow|sitemap)[ \t]*:/m;

/** What the body whose first bytes are `head` is, when it is no robots.txt; else undefined. */
export function notRobotsTxt(head: Uint8Array): NotRobotsTxt | undefined {
  if (isUtf16(head)) return 'utf-16';
  if (isBinary(head)) return 'binary-content';
  const text = new TextDecoder().decode(head).trimStart().toLowerCase();
  // A page with its html or body tags, or any markup with no robots.txt line in sight (a
  // one-line block page: `<h1>Access denied</h1>`). No robots.txt starts with a tag.
  if (TAG_START.test(text) && (HTML_START.test(text) || !DIRECTIVE_LINE.test(text))) {
    return 'html-content';
  }
  return undefined;
}

/** A UTF-16 byte-order mark, or NUL in every other byte of mostly-ASCII text. */
function isUtf16(head: Uint8Array): boolean {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return true;
  const pairs = Math.min(head.length >> 1, 64);
  if (pairs < 8) return false;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < pairs; i++) {
    if (head[2 * i] === 0) evenNul++;
    if (head[2 * i + 1] === 0) oddNul++;
  }
  return Math.max(evenNul, oddNul) >= pairs * 0.9 && Math.min(evenNul, oddNul) <= pairs * 0.1;
}

/** Control bytes (NUL included) in more than a tenth of the head: not text. */
function isBinary(head: Uint8Array): boolean {
  let control = 0;
  for (const byte of head) if (byte < 0x09 || (byte > 0x0d && byte < 0x20)) control++;
  return head.length > 0 && control > head.length * 0.1;
}
