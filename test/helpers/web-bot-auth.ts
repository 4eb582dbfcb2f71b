/**
 * Web Bot Auth on the receiving side, for tests: RFC 9421's Ed25519 test key and a check of
 * a request as a loopback site recorded it, with `web-bot-auth`'s own verifier.
 */
import { verify } from 'web-bot-auth';
import { verifierFromJWK } from 'web-bot-auth/crypto';
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

/** Verifies a request as the site received it (its signature over its authority); throws if it fails. */
export async function verifyRequest(
  request: RecordedRequest,
  key: JsonWebKey = TEST_PUBLIC_KEY,
): Promise<void> {
  const headers = Object.fromEntries(
    Object.entries(request.headers).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  const url = `http://${request.headers.host}${request.path}`;
  await verify({ method: 'GET', url, headers }, await verifierFromJWK(key));
}
