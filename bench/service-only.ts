/** `node .bench/bench/service-only.js`: the service rows alone (`npm run bench` runs them too). */
import { BARE_ROUTE, benchService } from './service.ts';

const rows: Record<string, Record<string, number>> = {};
await benchService((metric, peer, value) => ((rows[metric] ??= {})[peer] = value));
for (const [metric, byPeer] of Object.entries(rows)) {
  const route = byPeer[BARE_ROUTE];
  const ratio = route
    ? ` (${(byPeer['repkit']! / route).toFixed(2)}× the bare route's ${route.toFixed(0)})`
    : '';
  console.log(`${metric}: ${byPeer['repkit']!.toFixed(0)}${ratio}`);
}
