import { usedEntry } from '../../cache/internal.ts';
import { requestTarget } from '../../core/index.ts';
import type { CheckResult, RobotsClient } from '../../fetch/index.ts';
import { clientSeam } from '../../fetch/internal.ts';
import type { CheckPlacement } from '../check-placement.ts';
import type { ServiceMetrics } from '../metrics.ts';
import type { WorkPool } from '../work/pool.ts';
import { mapLimit, type Verdicts } from './context.ts';

/**
 * The service's one way to make verdicts, for its routes and for MCP's tools over HTTP: on
 * the event loop where `placement` says a file's checks are cheap (a check costs O(path +
 * pattern) per candidate rule), each other file's URLs in one worker task. Answers at once
 * when no URL needs a worker: the cached check, the service's hot path, then costs no promise.
 */
export function verdictsOn(context: {
  client: RobotsClient;
  metrics: ServiceMetrics;
  work: WorkPool;
  placement: CheckPlacement;
}): Verdicts {
  const { client, metrics, work, placement } = context;
  const seam = clientSeam(client);
  return (urls, states, agent, from, explain = false) => {
    // Names are read as robots.txt names crawlers (`Googlebot/2.1` → `Googlebot`), and the
    // response says so (`agent`, `agentNotes`).
    const { agents, notes } = seam.names(agent);
    const options = { agents, agentNotes: notes, explain };
    const results = new Array<CheckResult>(urls.length);
    const onWorker = new Map<string, number[]>();
    for (let i = 0; i < urls.length; i++) {
      const state = states[i]!;
      const key = placement.key(state);
      if (key === undefined) {
        results[i] = seam.verdict(urls[i]!, state, options);
      } else if (placement.onWorker(key)) {
        const indexes = onWorker.get(key);
        if (indexes) indexes.push(i);
        else onWorker.set(key, [i]);
      } else {
        const start = performance.now();
        results[i] = seam.verdict(urls[i]!, state, options);
        placement.timed(key, performance.now() - start);
      }
    }
    if (onWorker.size === 0) {
      metrics.checksAnswered(results);
      return results;
    }
    return (async () => {
      // At most the client's share of the workers at once: a request's own large files wait
      // their turn instead of being refused for its shape.
      await mapLimit([...onWorker], work.share, async ([key, indexes]) => {
        const state = states[indexes[0]!]!;
        const found = await work.run(
          'checks',
          {
            key,
            body: Buffer.from(usedEntry(state.entry).body ?? '', 'base64'),
            profile: client.profile,
            maxBytes: seam.maxBytes(),
            // The worker judges each URL as it will be requested, as the client's verdicts do.
            urls: indexes.map((i) => requestTarget(urls[i]!)?.url ?? urls[i]!),
            agents: [...seam.agentsFor(state, agents)],
            explain,
          },
          from,
        );
        indexes.forEach((index, k) => {
          results[index] = seam.verdict(urls[index]!, state, { ...options, computed: found[k]! });
        });
      });
      metrics.checksAnswered(results);
      return results;
    })();
  };
}
