import { usedEntry } from '../../cache/internal.ts';
import type { CheckResult, RobotsState, UsageAnswer } from '../../fetch/index.ts';
import { BadRequestError } from '../errors.ts';
import * as schema from '../schemas.ts';
import { clientOf, type RouteContext } from './context.ts';
import { cachedStateFor, fetchedStateFor, stateFor, statesFor } from './states.ts';

/**
 * The routes that fetch (through the client's cache and address guard): `/v1/check` (one
 * URL or a batch), `/v1/usage` and `/v1/robots`. Each handler is a function of the route
 * context, what the request asked and who asked it.
 */
export function registerCheckRoutes(context: RouteContext): void {
  const { app, maxBatch } = context;
  app.get('/v1/usage', { schema: schema.usage }, (request) =>
    usageAnswer(context, request.query as UsageQuery, clientOf(request)),
  );
  // The cached check is the service's hot path: a URL whose file is fresh in memory and
  // checked on the event loop is answered without a promise (fastify's async handler costs
  // one per request).
  app.get('/v1/check', { schema: schema.checkOne }, (request, reply) => {
    const answer = checkOne(context, request.query as CheckQuery, clientOf(request));
    if (answer instanceof Promise) return answer;
    // Sent here and nothing returned: fastify would send a returned reply again.
    reply.send(answer);
    return undefined;
  });
  app.post('/v1/check', { schema: schema.checkMany(maxBatch) }, (request) =>
    checkMany(context, request.body as CheckBody, clientOf(request)),
  );
  app.get('/v1/robots', { schema: schema.robots }, (request) =>
    robotsAnswer(context, (request.query as { url: string }).url, clientOf(request)),
  );
}

/** What `/v1/check` and `/v1/usage` are asked by query. */
export interface CheckQuery {
  url: string;
  agent?: string | string[];
}
/** What `GET /v1/usage` is asked. */
type UsageQuery = CheckQuery & { llms?: boolean };

/** What `POST /v1/check` is asked. */
export interface CheckBody {
  urls: string[];
  agent?: string | string[];
}

/** `GET /v1/usage`: the usage answer, robots.txt first (and the address guard on the host). */
export async function usageAnswer(
  context: RouteContext,
  { url, agent, llms }: UsageQuery,
  who: string,
): Promise<UsageAnswer> {
  // The tdmrep.json and the page are fetched by the client's own guarded connections, only
  // where robots.txt allows.
  await stateFor(context, url, 'querystring.url', who);
  return context.client.usage(url, {
    ...(agent === undefined ? {} : { agent }),
    ...(llms ? { llms: true } : {}),
  });
}

/** `GET /v1/check`: at once when the file is fresh in memory and checked here, else later. */
export function checkOne(
  context: RouteContext,
  { url, agent }: CheckQuery,
  who: string,
): CheckResult | Promise<CheckResult> {
  const { verdicts } = context;
  const cached = cachedStateFor(context, url);
  const now = cached && verdicts([url], [cached], agent, who);
  if (Array.isArray(now)) return present(now[0]!);
  return (async () => {
    const state = cached ?? (await fetchedStateFor(context, url, 'querystring.url', who));
    return present((await (now ?? verdicts([url], [state], agent, who)))[0]!);
  })();
}

/** One URL's place in a `POST /v1/check` answer: its verdict, or why it could not be checked. */
type BatchResult = CheckResult | { url: string; error: string; field: string; message: string };

/** `POST /v1/check`: every URL answered in its place; a bad one has its error there. */
export async function checkMany(
  context: RouteContext,
  { urls, agent }: CheckBody,
  who: string,
): Promise<{ results: BatchResult[] }> {
  const { verdicts } = context;
  const states = await statesFor(context, urls, who);
  const checked = states.flatMap((state, i) => (state instanceof BadRequestError ? [] : [i]));
  if (checked.length === urls.length) {
    const all = states as RobotsState[];
    return { results: (await verdicts(urls, all, agent, who)).map(present) };
  }
  const answered = await verdicts(
    checked.map((i) => urls[i]!),
    checked.map((i) => states[i] as RobotsState),
    agent,
    who,
  );
  let next = 0;
  const results = states.map((state, i) =>
    state instanceof BadRequestError
      ? { url: urls[i]!, error: state.reason, field: state.field, message: state.message }
      : present(answered[next++]!),
  );
  return { results };
}

/** `GET /v1/robots`: the file as fetched or cached, with its status and reading. */
export async function robotsAnswer(context: RouteContext, url: string, who: string) {
  const state = await stateFor(context, url, 'querystring.url', who);
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
    ...(entry.errorCode ? { errorCode: entry.errorCode } : {}),
    ...(entry.edge ? { edge: entry.edge } : {}),
    ...(entry.edgeRead ? { reading: entry.edgeRead } : {}),
    ...(elsewhere
      ? { bodyOmitted: `the robots.txt redirected to ${landed}, which is not a /robots.txt` }
      : { body: Buffer.from(used.body ?? '', 'base64').toString('utf8') }),
  };
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
