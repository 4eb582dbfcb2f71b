import type { Command } from 'commander';
import {
  crawlerName,
  isValidProductToken,
  type NotRobotsTxt,
  type ProfileName,
  type RuleMatch,
} from '../../core/index.ts';
import { InvalidUrlError, robotsUrl, type CheckResult } from '../../fetch/index.ts';
import { readLater } from '../../fetch/internal.ts';
import { describeEdge } from '../../core/internal.ts';
import { CliError } from '../errors.ts';
import { fetchClient, fetchOptions } from '../fetching.ts';
import type { Output } from '../output.ts';
import {
  collectAgents,
  agentNotesOf,
  isUrl,
  loadRobots,
  parseProfile,
  verdictFrom,
  notRobotsTxtNote,
  type SourceVerdict,
  checkTarget,
} from '../robots-source.ts';

export interface CheckOptions {
  agent: string[];
  robots?: string;
  profile: ProfileName;
  json?: boolean;
  userAgent?: string;
  timeout: number;
}

/** One verdict as `--json` prints it (one object per line, in input order); `batch` too. */
export interface CheckRecord {
  url: string;
  /** The URL (or path) as it is requested, when that is not what was given: it was judged. */
  requestUrl?: string;
  allowed: boolean;
  line: number;
  /** The deciding rule, the same object the library and the service give. */
  rule?: RuleMatch;
  reason: SourceVerdict['reason'];
  /** The deciding line is cut by the 500 KiB limit: its rule is read only in part. */
  lineCut?: true;
  /** The file is no robots.txt at all (an HTML page...): why no rule applies. */
  notRobotsTxt?: NotRobotsTxt;
  agent: string[];
  /** When the robots.txt was fetched: where from, its status, and whether it was cached. */
  robotsUrl?: string;
  status?: number;
  source?: CheckResult['source'];
  error?: string;
  /** The fetch's failure code, when no response came (see `CheckResult.errorCode`). */
  errorCode?: string;
  /** What answered in the robots.txt's place, when something did (see `CheckResult.edge`). */
  edge?: CheckResult['edge'];
  /** How `--agent`'s names were read (see `agentNotesOf`), as the library's `agentNotes`. */
  agentNotes?: string[];
  /** When the robots.txt used was fetched, and until when it is fresh, as the library gives them. */
  fetchedAt?: number;
  expiresAt?: number;
}

export function toRecord(
  url: string,
  agent: string[],
  verdict: Pick<
    SourceVerdict,
    'allowed' | 'line' | 'rule' | 'reason' | 'lineCut' | 'notRobotsTxt'
  > & {
    agent?: string[];
    requestUrl?: string;
  },
  fetched?: Pick<CheckResult, 'robotsUrl' | 'status' | 'source' | 'error' | 'errorCode' | 'edge'> &
    Partial<Pick<CheckResult, 'fetchedAt' | 'expiresAt'>>,
): CheckRecord {
  return {
    url,
    ...(verdict.requestUrl ? { requestUrl: verdict.requestUrl } : {}),
    allowed: verdict.allowed,
    line: verdict.line,
    ...(verdict.rule ? { rule: verdict.rule } : {}),
    reason: verdict.reason,
    ...(verdict.lineCut ? { lineCut: true as const } : {}),
    ...(verdict.notRobotsTxt ? { notRobotsTxt: verdict.notRobotsTxt } : {}),
    agent: verdict.agent ?? agent,
    ...(fetched
      ? {
          robotsUrl: fetched.robotsUrl,
          status: fetched.status,
          source: fetched.source,
          ...(fetched.error ? { error: fetched.error } : {}),
          ...(fetched.errorCode ? { errorCode: fetched.errorCode } : {}),
          ...(fetched.edge ? { edge: fetched.edge } : {}),
          // A check the fetch layer made keeps every field the library, the service and MCP give.
          ...(fetched.fetchedAt !== undefined ? { fetchedAt: fetched.fetchedAt } : {}),
          ...(fetched.expiresAt !== undefined ? { expiresAt: fetched.expiresAt } : {}),
        }
      : {}),
  };
}

export function capitalize(word: string): string {
  return word[0]!.toUpperCase() + word.slice(1);
}

/** A URL to check against a given robots.txt: absolute http(s)/ftp, or a path starting with "/". */
export function validateUrl(url: string): string {
  if (url.startsWith('/')) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`not a URL: "${url}" (give an absolute URL or a path starting with /)`);
  }
  if (!['http:', 'https:', 'ftp:'].includes(parsed.protocol)) {
    throw new CliError(`unsupported URL scheme in "${url}": use http, https or ftp`);
  }
  return url;
}

export function formatVerdict(output: Output, record: CheckRecord): string {
  const { color } = output;
  const verdict = record.allowed ? color.green('allowed   ') : color.red('disallowed');
  const cut = record.lineCut
    ? color.yellow(' (line cut by the 500 KiB limit: read only this far)')
    : '';
  const wall = record.edge && record.edge.kind !== 'html' ? record.edge : undefined;
  const why = record.rule
    ? `line ${record.line}: ${capitalize(record.rule.kind)}: ${record.rule.value}${cut}`
    : wall
      ? color.yellow(`${record.reason}: ${describeEdge(wall)}`)
      : record.notRobotsTxt
        ? color.yellow(`${record.reason}: not a robots.txt (${record.notRobotsTxt})`)
        : color.dim(record.reason);
  const fetch =
    record.robotsUrl !== undefined
      ? color.dim(`  (${record.robotsUrl} ${record.status || record.error}, ${record.source})`)
      : '';
  const requested = record.requestUrl ? color.yellow(`  (requested as ${record.requestUrl})`) : '';
  return `${verdict}  ${record.url}${requested}  ${why}${fetch}`;
}

/**
 * The options every command that reads robots.txt shares; `--json` where the command also
 * writes for people (`batch` writes JSON only, and takes no flag that would do nothing).
 */
export function robotsOptions(command: Command, robotsHelp: string, json = true): Command {
  const shared = fetchOptions(command)
    .option(
      '-a, --agent <name>',
      "crawler name; repeat or comma-separate for several (default: the --user-agent header's product token, as the library reads it)",
      collectAgents,
    )
    .option('-r, --robots <file|url>', robotsHelp)
    .option('-p, --profile <name>', 'google | rfc9309 | legacy', parseProfile, 'google')
    .hook('preAction', agentFromUserAgent);
  return json ? shared.option('--json', 'machine-readable output') : shared;
}

/**
 * One reading of names everywhere: without --agent, the crawler is the one the User-Agent
 * header names (`ExampleBot/1.0 (+https://…)` → ExampleBot), as the fetch client and the
 * service read it; without either, there is no crawler to ask about. A `preAction` hook of
 * the commands that ask about a crawler.
 */
export function agentFromUserAgent(_program: Command, action: Command): void {
  if (action.getOptionValue('agent') !== undefined) return;
  if (action.getOptionValueSource('userAgent') !== 'cli') {
    throw new CliError(
      'give the crawler to ask about: --agent <name> (or --user-agent <header>, whose product token names it)',
    );
  }
  const named = crawlerName(String(action.getOptionValue('userAgent')));
  if (!isValidProductToken(named.token)) {
    throw new CliError(`--user-agent names no crawler: ${named.note ?? named.token}`);
  }
  action.setOptionValue('agent', [named.token]);
}

export function registerCheck(program: Command, output: Output): void {
  robotsOptions(
    program
      .command('check')
      .description('say whether a crawler may fetch each URL, and which robots.txt line decides')
      .argument('<url...>', 'URLs to check (paths starting with / too, when --robots is given)'),
    'robots.txt to check against: a file, or a URL of the site (default: each URL’s own, fetched)',
  )
    .addHelpText(
      'after',
      `
Examples:
  $ repkit check --robots robots.txt --agent Googlebot https://example.com/private/x /search?q=a
  $ repkit check --robots robots.txt --agent Googlebot --json /a /b
  $ repkit check --agent ExampleBot https://example.com/a https://example.org/b   (fetches each robots.txt)

Exit status: 0 all allowed, 1 at least one URL disallowed by its robots.txt, 3 none
disallowed but at least one robots.txt could not be read (5xx, 429, a timeout: everything is
disallowed for now; ask again later), 2 usage or input error.`,
    )
    .action((given, options) => runCheck(given, options, output));
}

/** `repkit check`: the command's work, given its arguments and options as parsed. */
export async function runCheck(
  given: string[],
  options: CheckOptions,
  output: Output,
): Promise<void> {
  const urls = given.map((url) => checkTarget(url, output));
  const checked = options.robots
    ? await checkAgainst(urls, options, output)
    : await checkByFetching(urls, options);
  // How the names given were read (said on stderr as they were read), in each record too.
  const notes = agentNotesOf(options.agent);
  const records = notes.length > 0 ? checked.map((r) => ({ ...r, agentNotes: notes })) : checked;
  for (const record of records) {
    output.out(options.json ? JSON.stringify(record) : formatVerdict(output, record));
  }
  process.exitCode = checkStatus(records);
}

/**
 * The exit status of `check`: a URL its robots.txt disallows (1) is not one whose robots.txt
 * could not be read (3): a crawler skips the first and asks again about the second.
 */
export function checkStatus(records: readonly Pick<CheckRecord, 'allowed' | 'reason'>[]): number {
  const refused = records.filter((r) => !r.allowed);
  if (refused.length === 0) return 0;
  return refused.every((r) => readLater(r)) ? 3 : 1;
}

async function checkAgainst(
  urls: string[],
  options: CheckOptions,
  output: Output,
): Promise<CheckRecord[]> {
  const checked = urls.map(validateUrl);
  const loaded = await loadRobots(options.robots!, options);
  const fetched = loaded.fetched;
  // A file that is no robots.txt at all: said first, as lint's verdict on it (JSON: each
  // record's notRobotsTxt).
  const kind = loaded.robots.notRobotsTxt;
  if (kind && !options.json) output.out(output.color.yellow(notRobotsTxtNote(loaded.label, kind)));
  // A site's robots.txt governs its own origin only: say so when a URL is another site's.
  const governed = fetched?.location.origin;
  for (const url of governed ? checked : []) {
    const origin = isUrl(url) ? originOf(url) : governed;
    if (origin !== governed) {
      output.err(
        `repkit: note: ${url} is judged against ${fetched!.location.robotsUrl}, which governs ${governed} only (${origin}'s own robots.txt may say otherwise)`,
      );
    }
  }
  return checked.map((url) =>
    toRecord(
      url,
      options.agent,
      verdictFrom(loaded, url, options.agent),
      fetched
        ? {
            robotsUrl: fetched.location.robotsUrl,
            status: fetched.entry.status,
            source: fetched.source,
            ...(fetched.entry.error ? { error: fetched.entry.error } : {}),
            ...(fetched.entry.errorCode ? { errorCode: fetched.entry.errorCode } : {}),
            ...(fetched.entry.edge ? { edge: fetched.entry.edge } : {}),
          }
        : undefined,
    ),
  );
}

/** Without --robots: each URL's robots.txt is fetched (once per origin) through repkit/fetch. */
async function checkByFetching(urls: string[], options: CheckOptions): Promise<CheckRecord[]> {
  for (const url of urls) {
    if (!isUrl(url))
      throw new CliError(`"${url}" is a path: give --robots <file>, or a full URL to fetch from`);
  }
  const client = fetchClient(options);
  try {
    return await Promise.all(
      urls.map(async (url) => {
        try {
          const result = await client.check(url);
          return toRecord(url, options.agent, result, result);
        } catch (error) {
          if (error instanceof InvalidUrlError)
            throw new CliError(`not a URL with a robots.txt: ${error.message}`);
          throw error;
        }
      }),
    );
  } finally {
    await client.close();
  }
}

/** `url`'s origin as robots.txt locations are keyed (`locate`), or the URL itself when it has none. */
function originOf(url: string): string {
  try {
    return robotsUrl(url).slice(0, -'/robots.txt'.length);
  } catch {
    return url;
  }
}
