/**
 * What the client holds per origin and how it reads names: the records its parts share
 * (verdicts, usage answers and the client itself), kept here so that none imports another.
 */
import type { CacheEntry } from '../../cache/index.ts';
import type { RobotsTxt } from '../../core/index.ts';
import type { TdmrepFile } from '../../core/tdmrep-entry.ts';
import type { RobotsLocation } from '../net/location.ts';

/** `fetched`: this call (or one it joined) fetched the file; `cache`: a fresh copy; `stale`: an older good copy, used because fetching fails. */
export type FetchSource = 'fetched' | 'cache' | 'stale';

/** A robots.txt as the client holds it for one origin. */
export interface RobotsState {
  /** Where the file is, for which origin. */
  location: RobotsLocation;
  /** What its last fetch came to, as the store keeps it. */
  entry: CacheEntry;
  /** Where this copy came from. */
  source: FetchSource;
  /** The parsed file behind the verdicts, when there is one (`ok`, or a stale good copy). */
  robots?: RobotsTxt;
}

/** An origin's TDMRep file as the client holds it. */
export interface TdmrepState {
  /** `scheme://host[:port]/.well-known/tdmrep.json`. */
  url: string;
  /** What its last fetch came to, as the store keeps it. */
  entry: CacheEntry;
  /** The parsed file, when one was served (2xx, or a stale good copy). */
  file?: TdmrepFile;
}

/**
 * How several crawler names are read. `fallback`: in order, the first name a group of the
 * file names decides, else `*` (Google's crawler families: `Googlebot-Image`, then
 * `Googlebot`). `merged`: the groups of every name apply together, as one crawler.
 */
export type AgentMode = 'fallback' | 'merged';
