/** `node .bench/bench/crawlee-only.js`: the Crawlee row alone (`npm run bench` runs it too). */
import { benchCrawlee } from './crawlee.ts';

await benchCrawlee((metric, peer, value) => console.log(`${metric}, ${peer}: ${value.toFixed(0)}`));
