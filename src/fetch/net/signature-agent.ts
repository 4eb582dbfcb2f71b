/**
 * The `Signature-Agent` a signed request carries, as draft-ietf-webbotauth-httpsig-protocol-01
 * writes it: a Structured Fields Dictionary member keyed by the signature's label
 * (`sig1="https://bot.example"`), covered as `"signature-agent";key="sig1"`, whose value is the
 * member re-serialized (RFC 9421 §2.1.2). The bare String of earlier drafts
 * (`"https://bot.example"`, covered as `"signature-agent"`) is kept as an option for receivers
 * that read only it. Signing itself is `web-bot-auth`'s.
 */
import { InvalidOptionError } from '../errors.ts';

/** How the `Signature-Agent` is written: the draft's Dictionary (default) or the legacy String. */
export type SignatureAgentForm = 'dictionary' | 'string';
/** How a verifier resolves the member to keys (the draft's `type` parameter). */
export type SignatureAgentType = 'directory' | 'jwks_uri' | 'cimd';

/** The header as sent, and what the signature covers of it. */
export interface SignatureAgent {
  /** The field as sent: `sig1="https://bot.example"`, or `"https://..."` for the String form. */
  field: string;
  /** The covered component's value: the member re-serialized, or the String itself. */
  covered: string;
  /** The component identifier: `signature-agent` with `key` for the Dictionary form. */
  component: string | { name: string; parameters: Map<string, string> };
}

/** The well-known path of an HTTP Message Signatures Directory. */
const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';

/**
 * The `Signature-Agent` for `url` under `label`. In the Dictionary form a `directory` member
 * (the default type) is an origin, as the draft requires: a URL given as the origin or as its
 * directory's well-known URL is sent as the origin; any other path needs `type` (`jwks_uri`,
 * `cimd`), which is then sent as the member's parameter.
 *
 * @throws {InvalidOptionError} for a URL that is not http(s), or a path the type cannot carry.
 */
export function signatureAgentOf(
  url: string,
  options: {
    form?: SignatureAgentForm;
    type?: SignatureAgentType;
    label?: string;
    member?: string;
  } = {},
): SignatureAgent {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // said below
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    throw new InvalidOptionError('webBotAuth.signatureAgent', 'must be an http(s) URL');
  }
  if (options.form === 'string') {
    const field = sfString(url);
    return { field, covered: field, component: 'signature-agent' };
  }
  const type = options.type ?? 'directory';
  const atOrigin =
    (parsed.pathname === '/' || parsed.pathname === DIRECTORY_PATH) && !parsed.search;
  if (type === 'directory' && !atOrigin) {
    throw new InvalidOptionError(
      'webBotAuth.signatureAgent',
      `a directory Signature-Agent is an origin (or its ${DIRECTORY_PATH}); for a JWKS or a client metadata document at another path, set signatureAgentType to jwks_uri or cimd`,
    );
  }
  const value = type === 'directory' ? parsed.origin : url;
  const member = options.member ?? options.label ?? 'sig1';
  const covered = `${sfString(value)}${type === 'directory' ? '' : `;type=${type}`}`;
  return {
    field: `${member}=${covered}`,
    covered,
    component: { name: 'signature-agent', parameters: new Map([['key', member]]) },
  };
}

/** A Structured Fields String: printable ASCII, `"` and `\` escaped. */
function sfString(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) {
      throw new InvalidOptionError(
        'webBotAuth.signatureAgent',
        'must be ASCII (a URL as its ASCII serialisation)',
      );
    }
  }
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
