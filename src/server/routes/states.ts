import { InvalidUrlError, RefusedAddressError, type RobotsState } from '../../fetch/index.ts';
import { clientSeam } from '../../fetch/internal.ts';
import { BadRequestError } from '../errors.ts';
import { budgetedRobotsFor, mapLimit, type RouteContext } from './context.ts';

/**
 * The robots.txt states the fetching routes answer from: fresh in memory at once, else
 * fetched or read from the store within the asking client's budget, each URL checked first
 * (a bad or refused URL is a 400 on its field).
 */

/** Checks that a URL may be fetched by the service; the field name goes into the 400. */
async function checkable(context: RouteContext, url: string, field: string): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BadRequestError(
      'invalid-url',
      field,
      `${field}: not an absolute URL: ${JSON.stringify(url)}`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new BadRequestError(
      'invalid-url',
      field,
      `${field}: only http and https URLs can be fetched`,
    );
  }
  // The client refuses the addresses at the socket on every hop; this only turns a refused
  // first host into a clear 400, without DNS for an origin whose file is at hand.
  try {
    await clientSeam(context.client).preflight(url);
  } catch (error) {
    if (error instanceof RefusedAddressError)
      throw new BadRequestError(
        'private-address',
        field,
        `${field}: ${error.message}; start the service with --allow-private-addresses to allow it`,
      );
    if (error instanceof InvalidUrlError)
      throw new BadRequestError('invalid-url', field, `${field}: ${error.message}`);
    throw error;
  }
  return parsed;
}

/**
 * The fresh state in memory for an http(s) URL, when there is one: no DNS, no store, no
 * fetch, so nothing to refuse (its origin was checked when it was fetched). Anything else,
 * a bad URL included, takes `stateFor`'s whole way, which says what is wrong.
 */
export function cachedStateFor(context: RouteContext, url: string): RobotsState | undefined {
  try {
    // Only http(s) origins are ever in memory: the client fetches no other robots.txt.
    return clientSeam(context.client).cachedState(url);
  } catch {
    return undefined;
  }
}

/**
 * The robots.txt state for a URL (fetched or cached); a bad URL is a 400 on `field`. A
 * fetch is taken from the asking client's budget of new origins (FetchBudgetError past it).
 */
export async function stateFor(
  context: RouteContext,
  url: string,
  field: string,
  who: string,
): Promise<RobotsState> {
  return cachedStateFor(context, url) ?? fetchedStateFor(context, url, field, who);
}

/** `stateFor` past the memory: the URL checked, then its file from the store or fetched. */
export async function fetchedStateFor(
  context: RouteContext,
  url: string,
  field: string,
  who: string,
): Promise<RobotsState> {
  await checkable(context, url, field);
  try {
    return await budgetedRobotsFor(context, url, who);
  } catch (error) {
    if (error instanceof InvalidUrlError)
      throw new BadRequestError('invalid-url', field, `${field}: ${error.message}`);
    throw error;
  }
}

/**
 * The states of `urls`: those fresh in memory at once, the rest fetched or read from the
 * store, at most `concurrency` at a time; a URL that cannot be checked (`BadRequestError`)
 * has its error in its place, and the others are still answered.
 */
export async function statesFor(
  context: RouteContext,
  urls: readonly string[],
  who: string,
): Promise<(RobotsState | BadRequestError)[]> {
  const states: (RobotsState | BadRequestError | undefined)[] = urls.map((url) =>
    cachedStateFor(context, url),
  );
  const missing: number[] = [];
  states.forEach((state, i) => state || missing.push(i));
  if (missing.length === 0) return states as RobotsState[];
  await mapLimit(missing, context.concurrency, async (i) => {
    try {
      states[i] = await fetchedStateFor(context, urls[i]!, `body.urls.${i}`, who);
    } catch (error) {
      if (!(error instanceof BadRequestError)) throw error;
      states[i] = error;
    }
  });
  return states as (RobotsState | BadRequestError)[];
}
