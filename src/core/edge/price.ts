import type { PaymentChallengePrice } from './payment-auth.ts';

/**
 * The prices a payment demand names: Cloudflare's pay per crawl (`crawler-price: USD 0.01`)
 * and x402 (a `PAYMENT-REQUIRED` header of base64 JSON, version 2, or a JSON body, version 1).
 */

/** What a `402 Payment Required` asks, by the scheme that asked. */
export type EdgePrice =
  /** Cloudflare pay per crawl: `crawler-price: USD 0.01`. */
  | {
      /** Cloudflare's pay per crawl. */
      scheme: 'crawler-price';
      /** An ISO 4217 code, upper-cased (`USD`). */
      currency: string;
      /** A decimal amount, as written (`0.01`). */
      amount: string;
    }
  /**
   * x402: the first payment option offered, its amount in the asset's base units (`10000` of
   * USDC's six decimals is one cent) on `network`.
   */
  | {
      /** x402 (Coinbase's HTTP 402 payments). */
      scheme: 'x402';
      /** In the asset's base units, as a decimal string. */
      amount: string;
      /** The asset's contract address or name. */
      asset?: string;
      /** The chain (`base`, `eip155:8453`...). */
      network?: string;
      /** Where the payment goes. */
      payTo?: string;
    }
  /**
   * The "Payment" HTTP authentication scheme (`WWW-Authenticate: Payment ...`,
   * draft-httpauth-payment): the first usable challenge's amount in the currency's base
   * units, by `method` for `intent`.
   */
  | ({
      /** The Payment authentication scheme. */
      scheme: 'payment';
    } & PaymentChallengePrice);

/** `USD 0.01`: a currency code and a decimal amount. */
export function parsePriceHeader(value: string): { currency: string; amount: string } | undefined {
  const parts = value.trim().split(/[ \t]+/);
  if (parts.length !== 2) return undefined;
  const [currency, amount] = parts as [string, string];
  if (!/^[A-Za-z]{3}$/.test(currency) || !/^\d{1,12}(\.\d{1,12})?$/.test(amount)) return undefined;
  return { currency: currency.toUpperCase(), amount };
}

/** Bytes of an x402 header or body read as JSON: real ones are well under a kilobyte or two. */
const X402_MAX_CHARS = 16 * 1024;

/**
 * An x402 demand's price: from the `PAYMENT-REQUIRED` header (base64 JSON, x402 version 2)
 * or a JSON body with `x402Version` (version 1). Undefined when neither is one.
 */
export function x402Price(
  header: string | undefined,
  body: string | undefined,
): { price: EdgePrice; evidence: string } | undefined {
  if (header) {
    const decoded = decodeBase64(header.trim());
    const found = decoded === undefined ? undefined : fromX402Json(decoded);
    if (found) return { price: found, evidence: 'PAYMENT-REQUIRED header (x402)' };
  }
  if (body && body.trimStart().startsWith('{')) {
    const found = fromX402Json(body);
    if (found) return { price: found, evidence: 'x402 JSON body' };
  }
  return undefined;
}

function fromX402Json(text: string): EdgePrice | undefined {
  if (text.length > X402_MAX_CHARS) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || !('x402Version' in value)) return undefined;
  const accepts = (value as { accepts?: unknown }).accepts;
  const first: Record<string, unknown> =
    Array.isArray(accepts) && typeof accepts[0] === 'object' && accepts[0] !== null
      ? (accepts[0] as Record<string, unknown>)
      : {};
  // Version 2 names the amount `amount`; version 1 `maxAmountRequired`.
  const amount = text0(first['amount']) ?? text0(first['maxAmountRequired']) ?? '';
  const price: EdgePrice = { scheme: 'x402', amount };
  const asset = text0(first['asset']);
  const network = text0(first['network']);
  const payTo = text0(first['payTo']);
  if (asset) price.asset = asset;
  if (network) price.network = network;
  if (payTo) price.payTo = payTo;
  return price;
}

/** A short string field (or a number, as text); anything else is not read. */
function text0(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.length <= 200 ? value : undefined;
}

function decodeBase64(text: string): string | undefined {
  if (text.length > X402_MAX_CHARS || !/^[A-Za-z0-9+/_-]+=*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
