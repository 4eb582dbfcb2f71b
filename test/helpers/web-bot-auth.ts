/**
 * Web Bot Auth on the receiving side, for tests: RFC 9421's Ed25519 test key and a check of
 * a request as a loopback site recorded it, by a verifier independent of the signing library
 * (`http-message-signatures`, which reads a Dictionary member covered with `;key=` itself),
 * holding the draft's profile: `tag="web-bot-auth"`, `created`, `expires`, `keyid`, and the
 * `Signature-Agent` member keyed to the signature's label covered.
 */
import { createPublicKey } from 'node:crypto';
import { createVerifier, httpbis } from 'http-message-signatures';
import type { RecordedRequest } from './servers.ts';

/** RFC 9421's Ed25519 test key (Appendix B.1.4), as a JWK. */
export const TEST_KEY = {
  kty: 'OKP',
  crv: 'Ed25519',
  d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU',
  x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs',
};
/** Its public half. */
export const TEST_PUBLIC_KEY = { kty: 'OKP', crv: 'Ed25519', x: TEST_KEY.x };

/**
 * Verifies a request as the site received it; throws if it fails. `legacy` accepts the
 * String form of `Signature-Agent` (covered as `"signature-agent"`), as the draft lets
 * verifiers do.
 */
export async function verifyRequest(
  request: RecordedRequest,
  key: JsonWebKey = TEST_PUBLIC_KEY,
  options: { legacy?: boolean } = {},
): Promise<void> {
  const headers = Object.fromEntries(
    Object.entries(request.headers).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  const url = `http://${request.headers.host}${request.path}`;
  const input = headers['signature-input'] ?? '';
  const label = input.slice(0, input.indexOf('='));
  if (!/;tag="web-bot-auth"/.test(input)) throw new Error('tag is not web-bot-auth');
  if (headers['signature-agent'] !== undefined) {
    const covered = options.legacy
      ? input.includes('"signature-agent"')
      : input.includes(`"signature-agent";key="${label}"`);
    if (!covered) throw new Error(`the Signature-Agent member ${label} is not covered`);
  }
  const publicKey = createPublicKey({
    key: key as import('node:crypto').JsonWebKey,
    format: 'jwk',
  });
  const ok = await httpbis.verifyMessage(
    {
      keyLookup: async () => ({ algs: ['ed25519'], verify: createVerifier(publicKey, 'ed25519') }),
      requiredParams: ['created', 'expires', 'keyid', 'tag'],
      requiredFields: ['@authority'],
    },
    { method: 'GET', url, headers },
  );
  if (ok !== true) throw new Error('the signature does not verify');
}
