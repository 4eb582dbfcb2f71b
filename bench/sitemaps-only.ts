/** `node .bench/bench/sitemaps-only.js`: the sitemap rows alone (`npm run bench` runs them too). */
import { benchSitemaps } from './sitemaps.ts';

const print = (metric: string, peer: string, value: number) =>
  console.log(`${metric}, ${peer}: ${value >= 100 ? value.toFixed(0) : value.toFixed(3)}`);
await benchSitemaps(print);
