/**
 * The client's seam: what repkit's own areas (the service, the adapters, the sitemap reader)
 * ask of a `RobotsClient` besides its public members, reached through `clientSeam`.
 */
import type { FetchOutcome } from './net/robots-http.ts';
import type { RobotsState } from './files/state.ts';
import type { CheckResult, StateVerdictOptions } from './answers/verdict.ts';
import type { Turn } from './politeness.ts';

/**
 * What repkit's service and adapters ask of a client besides its public members: the names
 * read, verdicts on a state at hand, answers from memory without waiting, the address check
 * before a fetch, and the host's turn for a state at hand (so that `admitRequest` reads the
 * robots.txt once). Reached through `clientSeam`, never by users.
 */
export interface ClientSeam {
  /**
   * The names groups are matched by for `agent` (the client's own when undefined), read as
   * robots.txt names crawlers (`Googlebot/2.1` → `Googlebot`), and notes where that changed
   * a name.
   */
  names(agent?: string | readonly string[]): {
    agents: readonly string[];
    notes: readonly string[];
  };
  /** The verdict for `url` from a state `robotsFor` gave, as `check` makes it. */
  verdict(url: string, state: RobotsState, options?: StateVerdictOptions): CheckResult;
  /** The names a state's verdicts are made for (see `agentMode`). */
  agentsFor(state: RobotsState, agents?: readonly string[]): readonly string[];
  /** The state `robotsFor` would give at once, or undefined when that needs a wait. */
  cachedState(url: string): RobotsState | undefined;
  /** Throws `RefusedAddressError` when `url`'s host is one `allowAddress` refuses. */
  preflight(url: string): Promise<void>;
  /** `turn` for a state at hand. */
  turnFor(state: RobotsState): Promise<Turn>;
  /** How many bytes of a fetched file are read. */
  maxBytes(): number;
  /** What the parsed-file map holds: origins, and their estimated bytes (see `maxParsedBytes`). */
  parsedUsage(): { origins: number; bytes: number };
  /**
   * A file's 2xx body handed to `sink` as it is read (sitemaps), through the client's
   * connections, identity and address guard, each redirect hop judged as `fetchPage` judges
   * it; not joined with other calls, not cached. The first URL is the caller's to check.
   */
  streamFile(url: string, options: StreamOptions): Promise<FetchOutcome>;
}

/** How `ClientSeam.streamFile` reads a file. */
export interface StreamOptions {
  /** The crawler redirect hops are judged for (default: the client's names). */
  agent?: string | readonly string[];
  /** Bytes of (transfer-decoded) body read; the rest is not downloaded. */
  maxBytes: number;
  /** The whole fetch, body included. Default: the client's `timeoutMs`. */
  timeoutMs?: number;
  /** The Accept header. */
  accept?: string;
  sink: (chunk: Uint8Array) => void | Promise<void>;
}
