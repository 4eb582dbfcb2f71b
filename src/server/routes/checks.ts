import { usedEntry } from '../../cache/internal.ts';
import {
  InvalidUrlError,
  RefusedAddressError,
  type CheckResult,
  type RobotsState,
} from '../../fetch/index.ts';
import { BadRequestError } from '../errors.ts';
import * as schema from '../schemas.ts';
import { budgetedRobotsFor, clientOf, mapLimit, type RouteContext } from './context.ts';

/**
 * The routes that fetch (through the client's cache and address guard): `/v1/check` (one
 * URL or a batch), `/v1/usage` and `/v1/robots`.
 */
export function registerCheckRoutes(context: RouteContext): void {
  const { app, client, maxBatch, concurrency, verdicts } = context;

  /** Checks that a URL may be fetched by the service; the field name goes into the 400. */
  const checkable = async (url: string, field: string): Promise<URL> => {
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
      await client.preflight(url);
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
  };

  /**
   * The fresh state in memory for an http(s) URL, when there is one: no DNS, no store, no
   * fetch, so nothing to refuse (its origin was checked when it was fetched). Anything else,
   * a bad URL included, takes `stateFor`'s whole way, which says what is wrong.
   */
  const cachedStateFor = (url: string): RobotsState | undefined => {
    try {
      // Only http(s) origins are ever in memory: the client fetches no other robots.txt.
      return client.cachedState(url);
    } catch {
      return undefined;
    }
  };

  /**
   * The robots.txt state for a URL (fetched or cached); a bad URL is a 400 on `field`. A
   * fetch is taken from the asking client's budget of new origins (FetchBudgetError past it).
   */
  const stateFor = async (url: string, field: string, who: string): Promise<RobotsState> =>
    cachedStateFor(url) ?? fetchedStateFor(url, field, who);

  /** `stateFor` past the memory: the URL checked, then its file from the store or fetched. */
  const fetchedStateFor = async (url: string, field: string, who: string): Promise<RobotsState> => {
    await checkable(url, field);
    try {
      return await budgetedRobotsFor(context, url, who);
    } catch (error) {
      if (error instanceof InvalidUrlError)
        throw new BadRequestError('invalid-url', field, `${field}: ${error.message}`);
      throw error;
    }
  };

  /**
   * The states of `urls`: those fresh in memory at once, the rest fetched or read from the
   * store, at most `concurrency` at a time; a URL that cannot be checked (`BadRequestError`)
   * has its error in its place, and the others are still answered.
   */
  const statesFor = async (
    urls: readonly string[],
    who: string,
  ): Promise<(RobotsState | BadRequestError)[]> => {
    const states: (RobotsState | BadRequestError | undefined)[] = urls.map(cachedStateFor);
    const missing: number[] = [];
    states.forEach((state, i) => state || missing.push(i));
    if (missing.length === 0) return states as RobotsState[];
    await mapLimit(missing, concurrency, async (i) => {
      try {
        states[i] = await fetchedStateFor(urls[i]!, `body.urls.${i}`, who);
      } catch (error) {
        if (!(error instanceof BadRequestError)) throw error;
        states[i] = error;
      }
    });
    return states as (RobotsState | BadRequestError)[];
  };

  app.get('/v1/usage', { schema: schema.usage }, async (request) => {
    const { url, agent } = request.query as { url: string; agent?: string | string[] };
    // The robots.txt first (and the address guard on the host); the tdmrep.json and the page
    // are fetched by the client's own guarded connections, only where robots.txt allows.
    await stateFor(url, 'querystring.url', clientOf(request));
    return client.usage(url, agent === undefined ? {} : { agent });
  });

  // The cached check is the service's hot path: a URL whose file is fresh in memory and
  // checked on the event loop is answered without a promise (fastify's async handler costs
  // one per request).
  app.get('/v1/check', { schema: schema.checkOne }, (request, reply) => {
    const { url, agent } = request.query as { url: string; agent?: string | string[] };
    const cached = cachedStateFor(url);
    const now = cached && verdicts([url], [cached], agent, clientOf(request));
    if (Array.isArray(now)) {
      // Sent here and nothing returned: fastify would send a returned reply again.
      reply.send(present(now[0]!));
      return undefined;
    }
    return (async () => {
      const state = cached ?? (await fetchedStateFor(url, 'querystring.url', clientOf(request)));
      return present((await (now ?? verdicts([url], [state], agent, clientOf(request))))[0]!);
    })();
  });

  app.post('/v1/check', { schema: schema.checkMany(maxBatch) }, async (request) => {
    const { urls, agent } = request.body as { urls: string[]; agent?: string | string[] };
    const states = await statesFor(urls, clientOf(request));
    const checked = states.flatMap((state, i) => (state instanceof BadRequestError ? [] : [i]));
    if (checked.length === urls.length) {
      const all = states as RobotsState[];
      return { results: (await verdicts(urls, all, agent, clientOf(request))).map(present) };
    }
    const answered = await verdicts(
      checked.map((i) => urls[i]!),
      checked.map((i) => states[i] as RobotsState),
      agent,
      clientOf(request),
    );
    let next = 0;
    const results = states.map((state, i) =>
      state instanceof BadRequestError
        ? { url: urls[i]!, error: state.reason, field: state.field, message: state.message }
        : present(answered[next++]!),
    );
    return { results };
  });

  app.get('/v1/robots', { schema: schema.robots }, async (request) => {
    const { url } = request.query as { url: string };
    const state = await stateFor(url, 'querystring.url', clientOf(request));
    const { entry } = state;
    const used = usedEntry(state.entry);
    // A robots.txt that redirects elsewhere is read from where it lands, as Google does; but
    // the body of whatever page that is is not handed out: the service is no GET proxy.
    const landed = used.chain.at(-1);
    const elsewhere = landed !== undefined && !isRobotsTxtUrl(landed);
    return {
      robotsUrl: state.location.robotsUrl,
      outcome: entry.outcome,
      status: entry.status,
      source: state.source,
      ...(entry.error ? { error: entry.error } : {}),
      ...(entry.edge ? { edge: entry.edge } : {}),
      ...(entry.edgeRead ? { reading: entry.edgeRead } : {}),
      ...(elsewhere
        ? { bodyOmitted: `the robots.txt redirected to ${landed}, which is not a /robots.txt` }
        : { body: Buffer.from(used.body ?? '', 'base64').toString('utf8') }),
    };
  });
}

function isRobotsTxtUrl(url: string): boolean {
  try {
    return new URL(url).pathname === '/robots.txt';
  } catch {
    return false;
  }
}

/** A check as the API returns it: the verdict fields at the top level. */
function present(result: CheckResult): Omit<CheckResult, 'explanation'> {
  if (result.explanation === undefined) return result;
  const { explanation: _explanation, ...rest } = result;
  return rest;
}
