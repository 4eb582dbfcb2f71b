import {
  isInvalidUrlError,
  isRefusedAddressError,
  admitRequest,
  type Admission as RequestAdmission,
  type CheckResult,
  type RobotsClient,
} from '../fetch/index.ts';
import { clientSeam, readLater, storeFailed } from '../fetch/internal.ts';

/**
 * What to do with a request Crawlee dequeued: the crawler's admission, or `refused-address`
 * for a host the client may not connect to (Crawlee's robots check skips it).
 */
export type Admission = RequestAdmission | { kind: 'refused-address' };

/**
 * Whether a request Crawlee dequeued may go now (see `admitRequest`): a disallowed one is
 * skipped by Crawlee's own robots check (never requested), a deferred one is put back in the
 * queue untouched. A URL without a robots.txt (not http/https) is Crawlee's to fail; a
 * refused address is not crawled at all.
 */
export async function admit(client: RobotsClient, url: string): Promise<Admission> {
  try {
    return await admitRequest(client, url);
  } catch (error) {
    if (isRefusedAddressError(error)) return { kind: 'refused-address' };
    if (isInvalidUrlError(error)) return { kind: 'go', spacingMs: 0 };
    return storeFailed(error);
  }
}

/**
 * Whether Crawlee may keep a URL with this verdict: false only where the file disallows it.
 * While the robots.txt is unreachable Crawlee must keep it (a `false` is dropped for good);
 * `admit` defers it when its turn comes.
 */
export function keeps(verdict: CheckResult): boolean {
  return verdict.allowed || readLater(verdict);
}

/** Whether Crawlee may keep `url` (enqueue it): false only for a URL the file disallows. */
export async function mayKeep(client: RobotsClient, url: string): Promise<boolean> {
  try {
    const state = await client.robotsFor(url);
    return keeps(clientSeam(client).verdict(url, state));
  } catch (error) {
    return !isRefusedAddressError(error);
  }
}
