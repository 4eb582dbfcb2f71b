import type { Command } from 'commander';
import { REPKIT_USER_AGENT, RobotsClient, type RobotsClientOptions } from '../fetch/index.ts';
import type { ProfileName } from '../core/index.ts';
import { CliError } from './errors.ts';
import { Option } from './toolkit.ts';

/** What the edge options (`fetchOptions`) come to, as commander gives them. */
export interface EdgeOptions {
  challenge?: 'unreachable' | 'literal';
  crawlerMaxPrice?: string;
  webBotAuthKey?: string;
  signatureAgent?: string;
}

/** What the CLI sends when it fetches a robots.txt, unless --user-agent says otherwise. */
export const DEFAULT_USER_AGENT = REPKIT_USER_AGENT;

/** The client options the edge options give (a wall's reading, a price, a signing key). */
export function edgeClientOptions(
  options: EdgeOptions,
): Pick<RobotsClientOptions, 'challenge' | 'crawlerMaxPrice' | 'webBotAuth'> {
  if (options.signatureAgent !== undefined && options.webBotAuthKey === undefined) {
    throw new CliError('--signature-agent needs --web-bot-auth-key (the key that signs)');
  }
  return {
    ...(options.challenge ? { challenge: options.challenge } : {}),
    ...(options.crawlerMaxPrice ? { crawlerMaxPrice: options.crawlerMaxPrice } : {}),
    ...(options.webBotAuthKey
      ? {
          webBotAuth: {
            key: options.webBotAuthKey,
            ...(options.signatureAgent ? { signatureAgent: options.signatureAgent } : {}),
          },
        }
      : {}),
  };
}

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
  } & EdgeOptions,
  extra: Pick<RobotsClientOptions, 'store' | 'onFetch' | 'allowAddress'> = {},
): RobotsClient {
  return new RobotsClient({
    ...edgeClientOptions(options),
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    // No name given: the client reads it from the User-Agent.
    ...(options.agent.length > 0 ? { agent: options.agent } : {}),
    profile: options.profile,
    timeoutMs: options.timeout,
    connectTimeoutMs: Math.min(options.timeout, 10_000),
    onStoreError: () => {},
    ...extra,
  });
}

/**
 * The edge flags: how a wall answering for robots.txt is read, Web Bot Auth signing, and (for
 * commands whose caller is the one who pays: not the service) the price offered for pages.
 */
export function edgeFlags(command: Command, price: boolean): Command {
  command
    .addOption(
      new Option(
        '--challenge <reading>',
        'a bot wall or 402 answering for robots.txt: unreachable (nothing fetched for now) or literal (as Google reads its status)',
      )
        .choices(['unreachable', 'literal'])
        .default('unreachable'),
    )
    .option(
      '--web-bot-auth-key <file>',
      'sign every request (Web Bot Auth) with this Ed25519 private key, a JWK file',
    )
    .option('--signature-agent <url>', 'the Signature-Agent URL sent with signed requests');
  return price
    ? command.option(
        '--crawler-max-price <price>',
        "the most a page may cost, as 'USD 0.01', sent as crawler-max-price (default: never pay)",
      )
    : command;
}

/**
 * The options of every command that may fetch: the User-Agent header and the time limit, and
 * the edge flags; the price offered for pages only where `pages` says the command requests
 * pages (usage, meta, mcp), not only robots.txt files.
 */
export function fetchOptions(command: Command, pages = false): Command {
  command
    .option('--user-agent <header>', 'User-Agent header sent when fetching', DEFAULT_USER_AGENT)
    .option('--timeout <ms>', 'time limit for each fetch', parseMilliseconds, 15_000);
  return edgeFlags(command, pages);
}
