/**
 * repkit/crawlee: repkit as the robots.txt layer of a Crawlee crawler. `crawlee` is an optional
 * peer dependency: only this entry needs it, and without it loading this entry fails with a
 * `MissingPeerError` that says to install it.
 */
import { loadWithPeer } from '../core/internal.ts';
import type * as Adapter from './with-robots.ts';
import type * as File from './robots-file.ts';

const [adapter, file]: [typeof Adapter, typeof File] = await loadWithPeer(
  'crawlee',
  'repkit/crawlee',
  () => Promise.all([import('./with-robots.ts'), import('./robots-file.ts')]),
);

export const withRepkitRobots = adapter.withRepkitRobots;
export const RedirectRefusedError = adapter.RedirectRefusedError;
export type RedirectRefusedError = Adapter.RedirectRefusedError;
export const isRedirectRefusedError = adapter.isRedirectRefusedError;
export const RepkitRobotsTxtFile = file.RepkitRobotsTxtFile;
export type RepkitRobotsTxtFile = File.RepkitRobotsTxtFile;
export type { RepkitRobotsOptions, RepkitRobotsCrawler } from './with-robots.ts';
