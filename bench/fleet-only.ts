import { benchFleet } from './fleet.ts';
await benchFleet((m, p, v) => console.log(m, v.toFixed(2)), [[2, 2000]]);
