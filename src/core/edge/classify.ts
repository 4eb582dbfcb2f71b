import { notRobotsTxt } from '../text/file-kind.ts';
import { parsePriceHeader, x402Price, type EdgePrice } from './price.ts';
import { paymentChallengePrice } from './payment-auth.ts';

/**
 * What answered in a site's place, when something did: a bot wall (`challenge`), an HTML page
 * where a robots.txt (or other file) was asked for (`html`), or a demand for payment
 * (`payment-required`, with its price when it names one). `evidence` lists what was seen
 * (`status 403`, `cf-mitigated: challenge`, `body: challenge-platform`).
 */
export type Edge =
  | {
      /** A bot wall: a challenge page, a CAPTCHA, a block. */
      kind: 'challenge';
      /** What was seen that says so. */
      evidence: string[];
      /** Whose wall, when its marks say. */
      vendor?: EdgeVendor;
    }
  | {
      /** An HTML page where another file was asked for. */
      kind: 'html';
      /** What was seen that says so. */
      evidence: string[];
    }
  | {
      /** A demand for payment (`402`, pay per crawl, x402). */
      kind: 'payment-required';
      /** What was seen that says so. */
      evidence: string[];
      /** The price it names, when it names one. */
      price?: EdgePrice;
    };

/** Whose wall it is, when its marks say. */
export type EdgeVendor =
  | 'cloudflare'
  | 'anubis'
  | 'vercel'
  | 'aws-waf'
  | 'datadome'
  | 'human'
  | 'sucuri'
  | 'radware'
  /** Given by earlier versions (a CAPTCHA widget alone), and so still in entries they stored. */
  | 'captcha';

/** An HTTP answer as the classifier reads it: header names in lower case, the body's head. */
export interface EdgeInput {
  /** The HTTP status. */
  status: number;
  /** The response headers, names in lower case. */
  headers: Readonly<Record<string, string>>;
  /** The body's first bytes, when it was read (16 KiB are enough: see `EDGE_HEAD_BYTES`). */
  body?: Uint8Array;
}

/** How much of a body the classifier reads. */
export const EDGE_HEAD_BYTES = 16 * 1024;

/** Headers a wall sets on its answer, with the values that mean a challenge (any, for `*`). */
const WALL_HEADERS: readonly (readonly [string, readonly string[], EdgeVendor])[] = [
  ['cf-mitigated', ['challenge'], 'cloudflare'],
  ['x-vercel-mitigated', ['challenge', 'deny'], 'vercel'],
  ['x-amzn-waf-action', ['challenge', 'captcha'], 'aws-waf'],
];

/**
 * Marks in an HTML body that only a wall's interstitial page carries (lower case, found as
 * plain substrings of the head: no pattern is made from the input). Not a widget or a phrase
 * an ordinary page may carry: a reCAPTCHA, hCaptcha or Turnstile script on a contact form,
 * "verify you are human" in a sign-up page, or the script Cloudflare adds to every page it
 * screens (`/cdn-cgi/challenge-platform/`) make no wall; a single-page app's `index.html`
 * served for `/robots.txt` may carry any of them, and Google reads it as a file without rules.
 */
const WALL_MARKS: readonly (readonly [string, EdgeVendor])[] = [
  ['_cf_chl_opt', 'cloudflare'],
  ['cf-browser-verification', 'cloudflare'],
  ['<title>just a moment...</title>', 'cloudflare'],
  ['<title>attention required! | cloudflare</title>', 'cloudflare'],
  ['id="anubis_challenge"', 'anubis'],
  ['/.within.website/x/cmd/anubis/', 'anubis'],
  ["<title>making sure you're not a bot!</title>", 'anubis'],
  ['captcha-delivery.com', 'datadome'],
  ['id="px-captcha"', 'human'],
  ['<title>sucuri website firewall', 'sucuri'],
  // Radware Bot Manager (ShieldSquare): its captcha page's assets.
  ['captcha.perfdrive.com/captcha-public/', 'radware'],
];

/**
 * What stood in a site's place in an answer, or undefined when the site answered itself:
 *
 * - `payment-required`: status 402; the price from `crawler-price` (Cloudflare's pay per
 *   crawl), from x402 (the `PAYMENT-REQUIRED` header, or a JSON body with `x402Version`), or
 *   from the Payment authentication scheme (`WWW-Authenticate: Payment ...`).
 * - `challenge`: a wall's header at any status (`cf-mitigated: challenge`,
 *   `x-vercel-mitigated`, `x-amzn-waf-action: challenge|captcha`); a wall's interstitial
 *   mark in an HTML body at 2xx, 403, 429 or 503 (see `WALL_MARKS`: a CAPTCHA widget or a
 *   phrase is none); or an HTML page with status 202, which no file is served with (Anubis).
 * - `html`: any other HTML page with a 2xx status: a page served in a file's place.
 *
 * A plain 403 or 404 page is no edge: it is the site's own answer.
 */
export function classifyEdge(answer: EdgeInput): Edge | undefined {
  const { status, headers } = answer;
  if (status === 402) return paymentRequired(answer);
  for (const [name, values, vendor] of WALL_HEADERS) {
    const value = headers[name]?.trim().toLowerCase();
    if (value !== undefined && values.includes(value)) {
      return { kind: 'challenge', evidence: [`status ${status}`, `${name}: ${value}`], vendor };
    }
  }
  const walled = status === 403 || status === 429 || status === 503;
  if (!(status >= 200 && status < 300) && !walled) return undefined;
  const head = answer.body?.subarray(0, EDGE_HEAD_BYTES);
  const html = head !== undefined && head.length > 0 && isHtml(head);
  if (!html) return undefined;
  const text = new TextDecoder().decode(head).toLowerCase();
  for (const [mark, vendor] of WALL_MARKS) {
    if (text.includes(mark)) {
      return { kind: 'challenge', evidence: [`status ${status}`, `body: ${mark}`], vendor };
    }
  }
  if (status === 202) {
    return { kind: 'challenge', evidence: ['status 202', 'body: an HTML page'] };
  }
  if (walled) return undefined;
  return { kind: 'html', evidence: [`status ${status}`, htmlEvidence(head, headers)] };
}

function paymentRequired(answer: EdgeInput): Edge {
  const evidence = ['status 402'];
  const edge: Extract<Edge, { kind: 'payment-required' }> = { kind: 'payment-required', evidence };
  const header = answer.headers['crawler-price'];
  const crawlerPrice = header === undefined ? undefined : parsePriceHeader(header);
  if (crawlerPrice) {
    evidence.push(`crawler-price: ${header!.trim()}`);
    edge.price = { scheme: 'crawler-price', ...crawlerPrice };
    return edge;
  }
  const body = answer.body
    ? new TextDecoder().decode(answer.body.subarray(0, EDGE_HEAD_BYTES))
    : undefined;
  const x402 = x402Price(answer.headers['payment-required'], body);
  if (x402) {
    evidence.push(x402.evidence);
    edge.price = x402.price;
    return edge;
  }
  const payment = paymentChallengePrice(answer.headers['www-authenticate']);
  if (payment) {
    evidence.push(`WWW-Authenticate: Payment (method ${payment.method}, intent ${payment.intent})`);
    edge.price = { scheme: 'payment', ...payment };
  }
  return edge;
}

/**
 * An HTML body, by its first bytes (see `notRobotsTxt`), whatever it is labelled: a robots.txt
 * served as `text/html` whose first line is an HTML comment is still a robots.txt, as Google
 * reads it.
 */
function isHtml(head: Uint8Array): boolean {
  return notRobotsTxt(head) === 'html-content';
}

function htmlEvidence(head: Uint8Array, headers: Readonly<Record<string, string>>): string {
  const type = headers['content-type'];
  return type && type.toLowerCase().includes('html')
    ? `content-type: ${type}`
    : 'body: an HTML page';
}

/** What an edge is, in words: `a Cloudflare challenge (cf-mitigated: challenge)`. */
export function describeEdge(edge: Edge): string {
  const seen = edge.evidence.filter((e) => !e.startsWith('status ')).join(', ');
  const status = edge.evidence.find((e) => e.startsWith('status '));
  const why = [status, seen].filter(Boolean).join('; ');
  switch (edge.kind) {
    case 'challenge':
      return `a bot wall answered${edge.vendor ? ` (${edge.vendor})` : ''}: ${why}`;
    case 'html':
      return `an HTML page answered in the file's place: ${why}`;
    case 'payment-required': {
      const price = edge.price;
      const asked =
        price?.scheme === 'crawler-price'
          ? ` ${price.currency} ${price.amount}`
          : price?.scheme === 'x402'
            ? ` ${price.amount}${price.asset ? ` of ${price.asset}` : ''} (x402)`
            : price?.scheme === 'payment'
              ? ` ${price.amount} base units of ${price.currency} by ${price.method} (Payment ${price.intent})`
              : '';
      return `payment required${asked}: ${why}`;
    }
  }
}
