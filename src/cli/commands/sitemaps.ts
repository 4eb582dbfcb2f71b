import type { Command } from 'commander';
import {
  isSitemapError,
  readSitemaps,
  type SitemapEntry,
  type SitemapProblem,
} from '../../sitemaps/index.ts';
import { isPublicAddress } from '../../fetch/index.ts';
import { fetchClient, fetchOptions, type EdgeOptions } from '../fetching.ts';
import type { Output } from '../output.ts';
import { collectAgents, siteUrlOf } from '../robots-source.ts';
import { CliError } from '../errors.ts';
import { agentFromUserAgent } from './check.ts';

interface SitemapsOptions extends EdgeOptions {
  agent: string[];
  json?: boolean;
  count?: boolean;
  onlyAllowed?: boolean;
  since?: string;
  maxDepth?: string;
  allowPrivateAddresses?: boolean;
  userAgent: string;
  timeout: number;
}

export function registerSitemaps(program: Command, output: Output): void {
  fetchOptions(program.command('sitemaps'))
    .description(
      "read a site's sitemaps (its robots.txt Sitemap lines, else /sitemap.xml) or one sitemap, safely: one URL per line",
    )
    .argument('<site|url>', 'a site (https://example.com/) or a sitemap URL')
    .option(
      '-a, --agent <name>',
      "crawler name for each URL's robots.txt verdict; repeat or comma-separate (default: the --user-agent header's product token)",
      collectAgents,
    )
    .hook('preAction', agentFromUserAgent)
    .option('--only-allowed', 'leave out the URLs robots.txt does not let the crawler fetch')
    .option(
      '--allow-private-addresses',
      'read from private, loopback and link-local addresses too (a site of your own in development)',
    )
    .option('--since <date>', 'only URLs changed at or after this date (lastmod)')
    .option('--max-depth <n>', 'how deep sitemap indexes may nest (default: 3)')
    .option('--count', 'print how many URLs there are, not the URLs')
    .option('--json', 'one JSON object per URL, per line')
    .addHelpText(
      'after',
      `
Reads sitemap XML (gzip'd or not), sitemap indexes, plain-text sitemaps, RSS 2.0 and Atom
1.0, through the same fetch client as every command: each sitemap is fetched only where its
own robots.txt allows it, and never from a private, loopback or link-local address (the site
named, a Sitemap line, an index entry or a redirect hop) without --allow-private-addresses.
What is skipped (URLs outside a sitemap's host and directory, sitemaps of other hosts, an
index nested too deep) is said on stderr. A URL robots.txt disallows for the crawler is
followed by a tab and why.
Bounds: 50,000 URLs and 50 MiB (decompressed) per file, 1,000 sitemaps and
10,000,000 URLs per read; no DTD or entity declaration is read.

Examples:
  $ repkit sitemaps https://example.com/
  $ repkit sitemaps https://example.com/sitemap.xml --agent Googlebot --only-allowed
  $ repkit sitemaps https://example.com/ --since 2026-11-01 --count

Exit status: 0 every sitemap was read, 1 a sitemap could not be read (the URLs read before
it were printed; the error is the last line on stderr), 2 usage or input error.`,
    )
    .action((given, options) => runSitemaps(given, options, output));
}

/** `repkit sitemaps`: the command's work, given its arguments and options as parsed. */
export async function runSitemaps(
  given: string,
  options: SitemapsOptions,
  output: Output,
): Promise<void> {
  const url = siteUrlOf(given, output);
  const maxDepth = options.maxDepth === undefined ? undefined : Number(options.maxDepth);
  if (maxDepth !== undefined && !(Number.isInteger(maxDepth) && maxDepth >= 0)) {
    throw new CliError(`--max-depth must be a whole number, got "${options.maxDepth}"`);
  }
  if (options.since !== undefined && Number.isNaN(new Date(options.since).getTime())) {
    throw new CliError(`--since must be a date (2026-11-01), got "${options.since}"`);
  }
  // A sitemap's content steers fetches (Sitemap lines, index entries, redirects): none may
  // reach the machine's own network unless asked for.
  const client = fetchClient(
    { ...options, profile: 'google' },
    { allowAddress: options.allowPrivateAddresses ? () => true : isPublicAddress },
  );
  const problem = (p: SitemapProblem) =>
    output.err(output.color.yellow(`${p.sitemap}${p.line ? ` line ${p.line}` : ''}: ${p.message}`));
  let count = 0;
  try {
    for await (const entry of readSitemaps(url, {
      client,
      agent: options.agent,
      ...(options.onlyAllowed ? { onlyAllowed: true } : {}),
      ...(options.since !== undefined ? { since: options.since } : {}),
      ...(maxDepth !== undefined ? { maxDepth } : {}),
      timeoutMs: Math.max(options.timeout, 60_000),
      onProblem: problem,
    })) {
      count++;
      if (!options.count) output.out(options.json ? JSON.stringify(entry) : line(entry, output));
    }
  } catch (error) {
    if (!isSitemapError(error)) throw error;
    if (options.count) output.out(String(count));
    // The refusal is the client's (see above): say how to lift it.
    const hint =
      !options.allowPrivateAddresses && error.errorCode === 'EREFUSEDADDRESS'
        ? ' (--allow-private-addresses reads it)'
        : '';
    output.err(output.color.red(`${error.message}${hint}`));
    process.exitCode = 1;
    return;
  } finally {
    await client.close();
  }
  if (options.count) output.out(String(count));
}

/** A URL; one robots.txt does not let the crawler fetch says why after a tab (`cut -f1` keeps URLs). */
function line(entry: SitemapEntry, output: Output): string {
  return entry.allowed === false
    ? `${entry.url}\t${output.color.red(`disallowed: ${entry.reason}`)}`
    : entry.url;
}
