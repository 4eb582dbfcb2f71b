/**
 * `node .bench/bench/crawlee-only.js [deferral]`: the Crawlee rows alone (`npm run bench` runs
 * them too); with `deferral`, only the deferral rows.
 */
import { benchCrawlee, benchCrawleeDeferral } from './crawlee.ts';

const print = (metric: string, peer: string, value: number) =>
  console.log(`${metric}, ${peer}: ${value >= 100 ? value.toFixed(0) : value.toFixed(3)}`);
if (process.argv[2] !== 'deferral') await benchCrawlee(print);
await benchCrawleeDeferral(print);
