import type { Command } from 'commander';
import { REPKIT_USER_AGENT, RobotsClient, type RobotsClientOptions } from '../fetch/index.ts';
import type { ProfileName } from '../core/index.ts';
import { CliError } from './errors.ts';

/** What the CLI sends when it fetches a robots.txt, unless --user-agent says otherwise. */
export const DEFAULT_USER_AGENT = REPKIT_USER_AGENT;

export function parseMilliseconds(value: string): number {
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms <= 0)
    throw new CliError(`--timeout must be a positive number of milliseconds, got "${value}"`);
  return ms;
}

/** A fetch client for one CLI run: groups matched by --agent, the header from --user-agent. */
export function fetchClient(
  options: {
    agent: string[];
    userAgent?: string;
    profile: ProfileName;
    timeout: number;
  },
  extra: Pick<RobotsClientOptions, 'store' | 'onFetch'> = {},
): RobotsClient {
  return new RobotsClient({
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    agent: options.agent,
    profile: options.profile,
    timeoutMs: options.timeout,
    connectTimeoutMs: Math.min(options.timeout, 10_000),
    onStoreError: () => {},
    ...extra,
  });
}

/** The options of every command that may fetch: the User-Agent header and the time limit. */
export function fetchOptions(command: Command): Command {
  return command
    .option('--user-agent <header>', 'User-Agent header sent when fetching', DEFAULT_USER_AGENT)
    .option('--timeout <ms>', 'time limit for each fetch', parseMilliseconds, 15_000);
}
