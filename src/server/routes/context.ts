import type { FastifyInstance } from 'fastify';
import {
  FetchBudgetError,
  type CheckResult,
  type RobotsClient,
  type RobotsState,
} from '../../fetch/index.ts';
import type { Drain } from '../../access/index.ts';
import { OriginBudgetError } from '../errors.ts';
import type { CheckPlacement } from '../check-placement.ts';
import type { ServiceMetrics } from '../metrics.ts';
import type { OriginBudget } from '../origin-budget.ts';
import type { WorkPool } from '../work/pool.ts';

/**
 * Verdicts for URLs with their states (`explain`: with everything that led to each), as
 * `RobotsClient.verdict` makes them, each file's checks where the service's placement puts
 * them (`verdictsOn`); `from` is the asking client, for its share of the workers.
 */
export type Verdicts = (
  urls: readonly string[],
  states: readonly RobotsState[],
  agent: string | string[] | undefined,
  from: string,
  explain?: boolean,
) => CheckResult[] | Promise<CheckResult[]>;

/** What every route module is given by `createApp`. */
export interface RouteContext {
  app: FastifyInstance;
  client: RobotsClient;
  metrics: ServiceMetrics;
  work: WorkPool;
  /** Most URLs in one POST /v1/check or /v1/diff. */
  maxBatch: number;
  /** Most verdicts one request may ask for. */
  maxVerdicts: number;
  /** Most bytes of changes one `/v1/diff` answer lists (a summary past them). */
  maxDiffBytes: number;
  /** Checks in flight for one batch request. */
  concurrency: number;
  /** Where each fetched file's checks run: the event loop, or the workers. */
  placement: CheckPlacement;
  /** Verdicts made where `placement` puts each file's checks (see `verdictsOn`). */
  verdicts: Verdicts;
  /** New origins (robots.txt fetches) each client may cause; undefined: no limit. */
  originBudget: OriginBudget | undefined;
  /** The server's connections, for routes whose streams end when it stops. */
  drain: Drain;
}

/**
 * The robots.txt state for `url`, fetched or cached, a fetch taken from `who`'s budget of new
 * origins and its bytes charged to it (see `OriginBudget`); `FetchBudgetError` becomes the
 * service's `OriginBudgetError` (429).
 */
export async function budgetedRobotsFor(
  context: Pick<RouteContext, 'client' | 'originBudget'>,
  url: string,
  who: string,
): Promise<RobotsState> {
  const { client, originBudget } = context;
  if (!originBudget) return client.robotsFor(url);
  let started = false;
  try {
    const state = await client.robotsFor(url, {
      mayFetch: () => (started = originBudget.take(who)),
    });
    // The bytes the fetch this request started adds to the store are the client's.
    if (started) originBudget.charge(who, state.entry.body?.length ?? 0);
    return state;
  } catch (error) {
    if (error instanceof FetchBudgetError) {
      throw new OriginBudgetError(
        originBudget.spent(who) === 'bytes'
          ? { bytesPerMinute: originBudget.bytesPerMinute }
          : { perMinute: originBudget.perMinute },
        originBudget.retryAfterSeconds(who),
      );
    }
    throw error;
  }
}

/** Who a request is from, for fair shares of the workers: its address. */
export function clientOf(request: { ip: string }): string {
  return request.ip;
}

/** `run` over `items`, at most `limit` at once, results in order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  run: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
