/**
 * The "Payment" HTTP authentication scheme (draft-httpauth-payment-01, September 2026): a 402
 * whose `WWW-Authenticate` carries `Payment id=..., realm=..., method=..., intent=...,
 * request=...`, the `request` a base64url JSON object whose shared fields (the "charge"
 * intent's) are `amount`, in the currency's base units, and `currency`. Read in one pass,
 * bounded, without a regular expression built from the header.
 */

/** One challenge of a `WWW-Authenticate` value: its scheme (lower-cased) and parameters. */
interface Challenge {
  scheme: string;
  params: Map<string, string>;
}

/** Characters of a header value read: real challenges are well under a kilobyte or two. */
const MAX_CHARS = 16 * 1024;
/** Challenges read from one value. */
const MAX_CHALLENGES = 16;

/** RFC 9110's tchar. */
function isTchar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    "!#$%&'*+-.^_`|~".includes(String.fromCharCode(code))
  );
}

/**
 * The challenges of a `WWW-Authenticate` value (several headers joined by commas), as RFC
 * 9110 §11.6.1 writes them: `scheme [token68 | auth-param *("," auth-param)]`, challenges
 * and parameters separated by commas. Anything malformed ends the read: what came before
 * stands.
 */
export function parseChallenges(value: string): Challenge[] {
  const text = value.length > MAX_CHARS ? value.slice(0, MAX_CHARS) : value;
  const challenges: Challenge[] = [];
  let at = 0;
  const skip = (chars: string) => {
    while (at < text.length && chars.includes(text[at]!)) at++;
  };
  const token = () => {
    const start = at;
    while (at < text.length && isTchar(text.charCodeAt(at))) at++;
    return text.slice(start, at);
  };
  while (at < text.length && challenges.length <= MAX_CHALLENGES) {
    skip(' \t,');
    const name = token();
    if (name === '') break;
    skip(' \t');
    if (text[at] !== '=') {
      challenges.push({ scheme: name.toLowerCase(), params: new Map() });
      continue;
    }
    // `name=`: a parameter of the current challenge, or the end of a token68 (`abc==`).
    at++;
    skip(' \t');
    const current = challenges.at(-1);
    if (text[at] === '"') {
      at++;
      let quoted = '';
      while (at < text.length && text[at] !== '"') {
        if (text[at] === '\\') at++;
        if (at < text.length) quoted += text[at++];
      }
      if (text[at] !== '"') break; // an unterminated quoted-string
      at++;
      current?.params.set(name.toLowerCase(), quoted);
    } else {
      const plain = token();
      if (plain === '') {
        skip('=');
        continue; // token68 padding
      }
      current?.params.set(name.toLowerCase(), plain);
    }
  }
  return challenges.slice(0, MAX_CHALLENGES);
}

/** A Payment challenge's price: the first challenge with an `id` and a readable request. */
export interface PaymentChallengePrice {
  /** In the currency's base units (`1000` cents is ten dollars), as the site wrote it. */
  amount: string;
  /** ISO 4217 lower-cased (`usd`), a token address (`0x...`) or a symbol (`sat`). */
  currency: string;
  /** The payment method (`stripe`, `tempo`, `lightning`...). */
  method: string;
  /** The payment intent (`charge`...). */
  intent: string;
  /** The protection space the payment is for. */
  realm?: string;
  /** When the challenge expires (RFC 3339), when it says. */
  expires?: string;
}

/** The price the first usable Payment challenge of `header` asks, or undefined. */
export function paymentChallengePrice(
  header: string | undefined,
): PaymentChallengePrice | undefined {
  if (!header) return undefined;
  for (const { scheme, params } of parseChallenges(header)) {
    if (scheme !== 'payment') continue;
    const id = params.get('id');
    const method = params.get('method');
    const intent = params.get('intent');
    const request = decodeRequest(params.get('request'));
    // The draft: clients reject a challenge whose id is missing or empty.
    if (!id || !method || !intent || !request) continue;
    const realm = params.get('realm');
    const expires = params.get('expires');
    return {
      ...request,
      method,
      intent,
      ...(realm ? { realm } : {}),
      ...(expires ? { expires } : {}),
    };
  }
  return undefined;
}

/** `request`: base64url JSON with `amount` and `currency` strings; anything else is none. */
function decodeRequest(
  value: string | undefined,
): { amount: string; currency: string } | undefined {
  if (!value || value.length > MAX_CHARS) return undefined;
  let json: unknown;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(
      Uint8Array.from(atob(value.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)),
    );
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null) return undefined;
  const { amount, currency } = json as { amount?: unknown; currency?: unknown };
  // Base units are a whole number, written as a string.
  if (typeof amount !== 'string' || !/^\d{1,40}$/.test(amount)) return undefined;
  if (typeof currency !== 'string' || currency.length === 0 || currency.length > 100) {
    return undefined;
  }
  return { amount, currency };
}
