/** `node .bench/bench/scan-only.js`: the scan rows alone (`npm run bench` runs them too). */
import { benchScan } from './scan.ts';

const print = (metric: string, peer: string, value: number) =>
  console.log(`${metric}, ${peer}: ${value.toFixed(0)}`);
await benchScan(print);
