import { existsSync, fstatSync } from 'node:fs';
import {
  crawlerNames,
  isValidProductToken,
  parse,
  type NotRobotsTxt,
  type ProfileName,
  type RobotsTxt,
} from '../core/index.ts';
import { describeEdge, NOT_ROBOTS_TXT_WORDS } from '../core/internal.ts';
import { InvalidUrlError, type RobotsState } from '../fetch/index.ts';
import { heldVerdict, type HeldRobots } from '../fetch/internal.ts';
import { usedEntry } from '../cache/internal.ts';
import { CliError } from './errors.ts';
import { openToRead, unreadable } from './files.ts';
import { fetchClient, type EdgeOptions } from './fetching.ts';

export const PROFILE_NAMES: readonly ProfileName[] = ['google', 'rfc9309', 'legacy'];

/** A robots.txt given on the command line: a file, or a URL whose robots.txt is fetched. */
export interface LoadedRobots {
  /** How to name it in output: the path, or the robots.txt URL. */
  label: string;
  bytes: Uint8Array;
  robots: RobotsTxt;
  /** When fetched: status, redirects, cache state. */
  fetched?: RobotsState;
}

/** A verdict from a loaded robots.txt, following the fetch layer when it brought no file. */
export type SourceVerdict = ReturnType<typeof heldVerdict>;

/** The verdict for `url` from a loaded robots.txt; `explain` adds the explanation. */
export function verdictFrom(
  loaded: LoadedRobots,
  url: string,
  agents: readonly string[],
  explain = false,
): SourceVerdict {
  return heldVerdict(held(loaded), url, agents, { explain });
}

/** A loaded robots.txt as the fetch layer's answers take it (a side of a diff...). */
export function held(loaded: LoadedRobots): HeldRobots {
  return loaded.fetched
    ? { kind: 'fetched', state: loaded.fetched }
    : { kind: 'file', robots: loaded.robots };
}

export interface SourceOptions extends EdgeOptions {
  agent?: string[];
  profile: ProfileName;
  userAgent?: string;
  timeout?: number;
}

/** What a file that is no robots.txt is, in words, and what follows from it. */
export function notRobotsTxtNote(label: string, kind: NotRobotsTxt): string {
  const what = NOT_ROBOTS_TXT_WORDS[kind];
  return `${label} is not a robots.txt Google can use (${what}: ${kind}): no rule in it applies, so every URL is allowed (run repkit lint)`;
}

export function isUrl(source: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(source);
}

/**
 * Endings that name a file, not a site: `robots.txt` or `rules.yaml` missing is a file not
 * found, never a site to fetch.
 */
const FILE_ENDINGS = new Set([
  'txt',
  'json',
  'yaml',
  'yml',
  'html',
  'htm',
  'xml',
  'csv',
  'md',
  'log',
]);

/**
 * Whether `given` is a host name with a dot and maybe a port (`example.com`,
 * `www.example.co.uk:8443`): a site given without its scheme. Read label by label.
 */
function isBareHost(given: string): boolean {
  const colon = given.indexOf(':');
  const host = colon < 0 ? given : given.slice(0, colon);
  if (colon >= 0 && !/^\d{1,5}$/.test(given.slice(colon + 1))) return false;
  const labels = host.split('.');
  return (
    labels.length >= 2 &&
    labels.every((label) => /^[a-z0-9-]{1,63}$/i.test(label)) &&
    /^[a-z]/i.test(labels.at(-1)!) &&
    !FILE_ENDINGS.has(labels.at(-1)!.toLowerCase())
  );
}

/**
 * A site or page given without its scheme (`example.com`, `example.com:8443/a?b`) as its
 * https URL, as people type it; undefined for anything else.
 */
export function bareSiteUrl(given: string): string | undefined {
  const slash = given.indexOf('/');
  const host = slash < 0 ? given : given.slice(0, slash);
  if (!isBareHost(host)) return undefined;
  return `https://${host.toLowerCase()}${slash < 0 ? '/' : given.slice(slash)}`;
}

/**
 * A URL or path argument of a check: a path (`/a`) or a URL as given, a bare site or page
 * read as https (said on stderr).
 */
export function checkTarget(given: string, output: { err(line: string): void }): string {
  return given.startsWith('/') || isUrl(given) || bareSiteUrl(given) === undefined
    ? given
    : siteUrlOf(given, output);
}

/**
 * A URL argument: a URL as given, or a bare site or page read as https (said on stderr, so
 * that what was checked is never a guess); anything else is a usage error.
 */
export function siteUrlOf(given: string, output: { err(line: string): void }): string {
  if (isUrl(given)) return given;
  const site = bareSiteUrl(given);
  if (site === undefined) throw new CliError(`not a URL: "${given}"`);
  output.err(`repkit: note: read ${given} as ${site}`);
  return site;
}

/**
 * The most of a robots.txt file (or standard input) read: 8 MiB. Google reads 500 KiB; the
 * rest is read only so that lint can say how long the file is, up to this bound, so that
 * `--robots /dev/zero` or a gigabyte on stdin costs 8 MiB, not the machine.
 */
export const MAX_READ_BYTES = 8 * 1024 * 1024;

/**
 * Reads a robots.txt file as bytes (not all are valid UTF-8), at most MAX_READ_BYTES (a note
 * on stderr says when there was more), and names it in errors; `-` is standard input.
 */
export async function readRobotsFile(path: string): Promise<Uint8Array> {
  let read: { bytes: Uint8Array; more: boolean };
  if (path === '-') {
    // Node ends standard input quietly where it is a directory (each read fails): read as an
    // empty robots.txt, it would allow every URL.
    if (stdinIsDirectory()) throw unreadable('standard input', { code: 'EISDIR' });
    read = await readAtMost(process.stdin, MAX_READ_BYTES);
  } else {
    const handle = await openToRead(path);
    try {
      read = await readAtMost(handle.createReadStream({ autoClose: false }), MAX_READ_BYTES);
    } catch (error) {
      throw unreadable(path, error);
    } finally {
      await handle.close();
    }
  }
  if (read.more) {
    process.stderr.write(
      `repkit: ${path === '-' ? 'standard input' : path} is longer than 8 MiB; read its first 8 MiB (Google reads the first 500 KiB of a robots.txt)\n`,
    );
  }
  return read.bytes;
}

/** Whether standard input is a directory (which Node reads as empty, see `readRobotsFile`). */
function stdinIsDirectory(): boolean {
  try {
    return fstatSync(0).isDirectory();
  } catch {
    // No standard input to look at: reading it says so.
    return false;
  }
}

/** The first `limit` bytes of a stream, and whether it had more (then it is not read on). */
async function readAtMost(
  stream: AsyncIterable<unknown> & { destroy?: () => void },
  limit: number,
): Promise<{ bytes: Uint8Array; more: boolean }> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    const buffer = chunk as Buffer;
    if (length + buffer.length > limit) {
      chunks.push(buffer.subarray(0, limit - length));
      length = limit;
      // A pipe's writer then gets EPIPE, as with `head`.
      if (stream !== process.stdin) stream.destroy?.();
      return { bytes: Buffer.concat(chunks, length), more: true };
    }
    chunks.push(buffer);
    length += buffer.length;
  }
  return { bytes: Buffer.concat(chunks, length), more: false };
}

/**
 * A file path, or a URL (any page of the site): then its origin's robots.txt is fetched. A
 * fetch that brings no file (404, server error) still loads, as Google reads it: no rules.
 */
export async function loadRobots(source: string, options: SourceOptions): Promise<LoadedRobots> {
  // A bare site (`example.com`) is fetched, unless a file of that name is at hand.
  const site =
    isUrl(source) || source === '-' || existsSync(source) ? undefined : bareSiteUrl(source);
  if (site !== undefined) source = site;
  if (!isUrl(source)) {
    const bytes = await readRobotsFile(source);
    const label = source === '-' ? '(stdin)' : source;
    return { label, bytes, robots: parse(bytes, { profile: options.profile }) };
  }
  // The edge flags (a wall's reading, signing, a price) go to the client as given.
  const client = fetchClient({
    ...options,
    agent: options.agent ?? ['repkit'],
    timeout: options.timeout ?? 15_000,
  });
  try {
    const state = await client.robotsFor(source);
    const used = usedEntry(state.entry);
    const bytes = new Uint8Array(Buffer.from(used.body ?? '', 'base64'));
    return {
      label: state.location.robotsUrl,
      bytes,
      robots: state.robots ?? parse(bytes, { profile: options.profile }),
      fetched: state,
    };
  } catch (error) {
    if (error instanceof InvalidUrlError) throw new CliError(error.message);
    throw error;
  } finally {
    await client.close();
  }
}

/** What a fetched robots.txt came to, in a few words (for human output). */
export function describeFetch(state: RobotsState): string {
  const { entry } = state;
  const wall = wallWords(state);
  if (wall) return `${wall}, ${state.source}`;
  const what =
    entry.outcome === 'ok'
      ? `HTTP ${entry.status}`
      : entry.outcome === 'not-found'
        ? `no robots.txt (${entry.error ?? `HTTP ${entry.status}`}): everything allowed`
        : `unreachable (${entry.error ?? `HTTP ${entry.status}`}): everything disallowed for now`;
  return `${what}, ${state.source}`;
}

/**
 * A wall or a payment demand that answered for the robots.txt, and how it was read, in
 * words; undefined when none did.
 */
export function wallWords(state: RobotsState): string | undefined {
  const { edge, edgeRead } = state.entry;
  if (!edge || !edgeRead) return undefined;
  return edgeRead === 'unreachable'
    ? `${describeEdge(edge)}; read as unreachable: everything disallowed for now (--challenge literal reads it as Google does)`
    : `${describeEdge(edge)}; read literally, as Google does (--challenge literal)`;
}

export function parseProfile(value: string): ProfileName {
  if (!(PROFILE_NAMES as readonly string[]).includes(value)) {
    throw new CliError(`--profile must be one of ${PROFILE_NAMES.join(', ')}, got "${value}"`);
  }
  return value as ProfileName;
}

/**
 * `--agent a --agent b,c` → ['a', 'b', 'c']: several names, ordered fallbacks (the first with a group of its own decides, else `*`). Each is
 * read as robots.txt names crawlers (`Googlebot/2.1` → `Googlebot`; a whole User-Agent
 * header, which may hold commas, → its crawler's token), and a line on stderr says so.
 */
export function collectAgents(value: string, previous: string[] | undefined): string[] {
  const names = crawlerNames(value).filter((name) => name.given.trim() !== '');
  if (names.length === 0) throw new CliError('--agent needs a crawler name');
  for (const name of names) {
    if (!isValidProductToken(name.token) && name.token !== '*') {
      throw new CliError(`--agent: ${name.note}`);
    }
    if (name.note) process.stderr.write(`repkit: ${name.note}\n`);
  }
  const agents = [...(previous ?? []), ...names.map((name) => name.token)];
  const notes = [...agentNotesOf(previous), ...names.flatMap((n) => (n.note ? [n.note] : []))];
  if (notes.length > 0) notesGiven.set(agents, notes);
  return agents;
}

/** The notes `collectAgents` made on the names it read, by the list it gave. */
const notesGiven = new WeakMap<readonly string[], string[]>();

/**
 * How `--agent`'s names were read where that changed one (`Googlebot/2.1` → `Googlebot`), as
 * the library's `agentNotes` say it: the records of `check --json` carry them.
 */
export function agentNotesOf(agents: readonly string[] | undefined): string[] {
  return (agents && notesGiven.get(agents)) ?? [];
}
