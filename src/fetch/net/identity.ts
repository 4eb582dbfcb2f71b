/**
 * What a crawler's requests say of it besides the User-Agent: a Web Bot Auth signature (HTTP
 * Message Signatures, RFC 9421, as draft-meunier-web-bot-auth-architecture uses them) and,
 * for crawlers that pay, the most a page may cost (`crawler-max-price`). The signature is
 * made by `web-bot-auth` (an optional peer), loaded at the first signed request.
 */
import { createReadStream } from 'node:fs';
import { loadWithPeer } from '../../core/internal.ts';
import { InvalidOptionError } from '../errors.ts';
import {
  signatureAgentOf,
  type SignatureAgent,
  type SignatureAgentForm,
  type SignatureAgentType,
} from './signature-agent.ts';

/** Signing every request repkit makes or guards (see `RobotsClientOptions.webBotAuth`). */
export interface WebBotAuthOptions {
  /**
   * The Ed25519 private key as a JWK (`{ kty: 'OKP', crv: 'Ed25519', d, x }`), as its JSON
   * text, or the path of a file holding that JSON. Its key id is its JWK thumbprint.
   */
  key: JsonWebKey | string;
  /**
   * The `Signature-Agent`: where verifiers find the key. Sent and covered by the signature
   * as draft-ietf-webbotauth-httpsig-protocol-01 writes it, a Dictionary member keyed by the
   * signature's label (`sig1="https://bot.example"`, covered as
   * `"signature-agent";key="sig1"`). For the default `directory` type it is an origin (given
   * as the origin or its `/.well-known/http-message-signatures-directory` URL).
   */
  signatureAgent?: string;
  /**
   * `'string'` sends the bare String of earlier drafts (`"https://..."`, covered as
   * `"signature-agent"`), which the draft's receivers accept only as legacy, for receivers
   * that read nothing else.
   * @default 'dictionary'
   */
  signatureAgentForm?: SignatureAgentForm;
  /**
   * How verifiers resolve the URL to keys (the member's `type`): `directory` (the origin's
   * well-known directory), `jwks_uri` (the URL is a JWK Set) or `cimd` (a client ID metadata
   * document). Dictionary form only.
   * @default 'directory'
   */
  signatureAgentType?: SignatureAgentType;
  /** How long each signature is valid. Default 60 s. */
  validityMs?: number;
}

type Signer = import('web-bot-auth').Signer;
type WebBotAuth = typeof import('web-bot-auth');

/**
 * `headers` with the Web Bot Auth signature of a GET of `url` added: `@authority`, the
 * `Signature-Agent` (as `agent` writes it) and `crawler-max-price` when there is one (pay per
 * crawl reads a price only from a covered header), under `label` (default `sig1`). `nonce`
 * is random unless given (test vectors fix it).
 */
export async function signedHeaders(
  lib: WebBotAuth,
  signer: Signer,
  request: {
    url: string;
    headers: Record<string, string>;
    agent: SignatureAgent | undefined;
    created: Date;
    expires: Date;
    label?: string;
    nonce?: string;
  },
): Promise<Record<string, string>> {
  const { agent, headers } = request;
  // The library reads a covered field's value from the message: for a Dictionary member,
  // RFC 9421 §2.1.2's value is the member re-serialized, so that is what it is given.
  const message = {
    ...headers,
    ...(agent ? { 'signature-agent': agent.covered } : {}),
  };
  const components = [
    '@authority',
    ...(agent ? [agent.component] : []),
    ...(headers['crawler-max-price'] ? ['crawler-max-price'] : []),
  ];
  const signed = await lib.signatureHeaders(
    { method: 'GET', url: request.url, headers: message },
    signer,
    {
      created: request.created,
      expires: request.expires,
      components,
      ...(request.label ? { key: request.label } : {}),
      ...(request.nonce ? { nonce: request.nonce } : {}),
    },
  );
  return {
    ...headers,
    ...(agent ? { 'signature-agent': agent.field } : {}),
    signature: signed.Signature,
    'signature-input': signed['Signature-Input'],
  };
}

/** A JWK given as an object or JSON text: checked now, so a wrong key fails at construction. */
function jwkOf(key: JsonWebKey | string): JsonWebKey | undefined {
  if (typeof key !== 'string') return checkedJwk(key);
  if (!key.trimStart().startsWith('{')) return undefined; // a path, read at the first request
  try {
    return checkedJwk(JSON.parse(key) as JsonWebKey);
  } catch (error) {
    if (error instanceof InvalidOptionError) throw error;
    throw new InvalidOptionError('webBotAuth.key', `is not JSON: ${(error as Error).message}`);
  }
}

function checkedJwk(jwk: JsonWebKey): JsonWebKey {
  if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.d !== 'string' || !jwk.x) {
    throw new InvalidOptionError(
      'webBotAuth.key',
      'must be an Ed25519 private key as a JWK (kty "OKP", crv "Ed25519", with d and x)',
    );
  }
  return jwk;
}

/** The headers a client adds to its requests; see the module comment. */
export class RequestIdentity {
  readonly #key: JsonWebKey | string | undefined;
  readonly #agent: SignatureAgent | undefined;
  readonly #validityMs: number;
  readonly #maxPrice: string | undefined;
  #signer: Promise<{ lib: WebBotAuth; signer: Signer }> | undefined;

  constructor(options: { webBotAuth?: WebBotAuthOptions; maxPrice?: string }) {
    const auth = options.webBotAuth;
    this.#key = auth ? (jwkOf(auth.key) ?? auth.key) : undefined;
    this.#agent =
      auth?.signatureAgent === undefined
        ? undefined
        : signatureAgentOf(auth.signatureAgent, {
            ...(auth.signatureAgentForm ? { form: auth.signatureAgentForm } : {}),
            ...(auth.signatureAgentType ? { type: auth.signatureAgentType } : {}),
          });
    this.#validityMs = auth?.validityMs ?? 60_000;
    if (!(this.#validityMs > 0)) {
      throw new InvalidOptionError('webBotAuth.validityMs', 'must be a positive number');
    }
    this.#maxPrice = options.maxPrice;
  }

  /** Whether requests are signed. */
  get signs(): boolean {
    return this.#key !== undefined;
  }

  /** Headers for a file's request (robots.txt, tdmrep.json): the signature, if any. */
  forFile(url: string): Promise<Record<string, string>> {
    return this.#headers(url, false);
  }

  /** Headers for a page's request: the signature and `crawler-max-price`, each if set. */
  forPage(url: string): Promise<Record<string, string>> {
    return this.#headers(url, true);
  }

  async #headers(url: string, page: boolean): Promise<Record<string, string>> {
    const headers: Record<string, string> = {};
    if (page && this.#maxPrice) headers['crawler-max-price'] = this.#maxPrice;
    if (this.#key === undefined) return headers;
    const { lib, signer } = await this.#loadSigner();
    const created = new Date();
    return signedHeaders(lib, signer, {
      url,
      headers,
      agent: this.#agent,
      created,
      expires: new Date(created.getTime() + this.#validityMs),
    });
  }

  #loadSigner(): Promise<{ lib: WebBotAuth; signer: Signer }> {
    // A key that cannot be used fails every signed request alike (each fetch an error:
    // unsigned requests are never sent in its place), not once and then unsigned. The error
    // a request carries names neither the key's file nor its content: answers may reach
    // anyone (the service's callers); `checkWebBotAuth` says why, at start-up.
    return (this.#signer ??= loadSigner(this.#key!).catch(() => {
      throw new InvalidOptionError(
        'webBotAuth.key',
        'cannot sign requests (the key or the web-bot-auth package cannot be used; checkWebBotAuth says why)',
      );
    }));
  }
}

/** The library and a signer for `key` (a JWK, or the path of its file). */
async function loadSigner(key: JsonWebKey | string): Promise<{ lib: WebBotAuth; signer: Signer }> {
  const [lib, crypto] = await Promise.all([
    loadWithPeer('web-bot-auth', 'webBotAuth (request signing)', () => import('web-bot-auth')),
    loadWithPeer(
      'web-bot-auth',
      'webBotAuth (request signing)',
      () => import('web-bot-auth/crypto'),
    ),
  ]);
  const jwk = typeof key === 'string' ? await jwkFile(key) : key;
  try {
    return { lib, signer: await crypto.signerFromJWK(jwk) };
  } catch {
    throw new InvalidOptionError('webBotAuth.key', 'is not a usable Ed25519 private key');
  }
}

/** The most of a key file read: a JWK is a few hundred bytes (`/dev/zero` is refused). */
const MAX_KEY_FILE_BYTES = 64 * 1024;

/** The JWK in the file at `path`; the error says what is wrong without quoting the file. */
async function jwkFile(path: string): Promise<JsonWebKey> {
  let text: string;
  try {
    // One byte past the bound (`end` is inclusive) tells a file over it from one that fits.
    const chunks: Buffer[] = [];
    for await (const chunk of createReadStream(path, { end: MAX_KEY_FILE_BYTES })) {
      chunks.push(chunk as Buffer);
    }
    const bytes = Buffer.concat(chunks);
    if (bytes.length > MAX_KEY_FILE_BYTES) {
      throw new InvalidOptionError(
        'webBotAuth.key',
        `the file ${path} is over 64 KiB: no JWK (a key is a few hundred bytes)`,
      );
    }
    text = new TextDecoder().decode(bytes);
  } catch (error) {
    if (error instanceof InvalidOptionError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new InvalidOptionError(
      'webBotAuth.key',
      `the file ${path} cannot be read${code === 'ENOENT' ? ': no such file' : code ? ` (${code})` : ''}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new InvalidOptionError('webBotAuth.key', `the file ${path} is not JSON (a JWK is)`);
  }
  return checkedJwk(parsed as JsonWebKey);
}

/**
 * Checks that requests can be signed with `options`: the `web-bot-auth` package is there and
 * the key is an Ed25519 private JWK (read from its file). Call it at start-up: a signing
 * misconfiguration is then a usage error with its cause, not every robots.txt unreachable.
 *
 * @throws `MissingPeerError` without `web-bot-auth`; `InvalidOptionError` (`option:
 * 'webBotAuth.key'`) for a key that cannot be read or used, saying why.
 * @example
 * await checkWebBotAuth({ key: './bot-key.jwk' }); // before new RobotsClient({ webBotAuth })
 */
export async function checkWebBotAuth(options: WebBotAuthOptions): Promise<void> {
  await loadSigner(jwkOf(options.key) ?? options.key);
}
