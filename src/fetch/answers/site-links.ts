/**
 * What a robots.txt points at besides its rules: RSL 1.0 `License:` lines (the site's licence
 * terms) and its llms.txt (`LLMs:`, else the origin's `/llms.txt`), fetched on request through
 * the same client and bounds as any page. Reported as found; never read as a permission.
 */
import type { RefusedHop } from '../../cache/index.ts';
import type { RootLink } from '../../core/index.ts';
import type { RobotsState } from '../files/state.ts';
import type { FetchOutcome } from '../net/robots-http.ts';
import { httpUrl } from '../net/location.ts';
import type { CheckResult, StateVerdictOptions } from './verdict.ts';

/** What of the client fetching the llms.txt asks (the usage answer's client and seam). */
interface LinksClient {
  robotsFor(url: string): Promise<RobotsState>;
  fetchPage(
    url: string,
    options: { agent: readonly string[]; maxBytes: number },
  ): Promise<FetchOutcome>;
}
interface LinksSeam {
  verdict(url: string, state: RobotsState, options?: StateVerdictOptions): CheckResult;
}

/** A `License:` or `LLMs:` line, its address resolved against the robots.txt's. */
export interface DeclaredLink {
  /** The absolute URL (http or https). */
  url: string;
  /** The robots.txt line that names it. */
  line: number;
}

/** What asking for the site's llms.txt came to (`usage(url, { llms: true })`). */
export type LlmsTxtFetch =
  | {
      /** It was requested. */
      kind: 'fetched';
      /** Its URL: the `LLMs:` line's, else the origin's `/llms.txt`. */
      url: string;
      /** The robots.txt line that named it, when one did. */
      line?: number;
      /** HTTP status of the last answer; 0 when none arrived. */
      status: number;
      /** Bytes read (at most `LLMS_TXT_MAX_BYTES`), for a 2xx answer. */
      bytes?: number;
      /** It was longer than `LLMS_TXT_MAX_BYTES`: the rest was not read. */
      truncated?: boolean;
      /** Its first `# ` heading (llms.txt's title), when it has one. */
      title?: string;
      /** What went wrong, if anything did. */
      error?: string;
      /** The redirect hop not followed, when one was refused. */
      refusedHop?: RefusedHop;
    }
  | {
      /** Not requested: its robots.txt disallows it for the crawler, or cannot be read now. */
      kind: 'not-fetched';
      /** The URL that was not requested. */
      url: string;
      /** The robots.txt line that named it, when one did. */
      line?: number;
      /** Why, in words. */
      why: string;
    };

/** Bytes of an llms.txt read: enough for its title and size, bounded like a page. */
export const LLMS_TXT_MAX_BYTES = 512 * 1024;

/** `links` as absolute http(s) URLs against `base`; others are left out. */
export function declaredLinks(links: readonly RootLink[], base: string): DeclaredLink[] {
  return links.flatMap((link) => {
    const url = httpUrl(link.value, base);
    return url ? [{ url: url.href, line: link.line }] : [];
  });
}

/** The site's llms.txt, judged against its own robots.txt before it is requested. */
export async function llmsTxtOf(
  client: LinksClient,
  seam: LinksSeam,
  state: RobotsState,
  agents: readonly string[],
): Promise<LlmsTxtFetch> {
  const named = declaredLinks(state.robots?.llmsTxt ?? [], state.location.robotsUrl)[0];
  const url = named?.url ?? `${state.location.origin}/llms.txt`;
  const where = named ? { line: named.line } : {};
  const own = new URL(url).origin === state.location.origin ? state : await client.robotsFor(url);
  const verdict = seam.verdict(url, own, { agents });
  if (!verdict.allowed) {
    const why = verdict.line
      ? `its robots.txt disallows it (line ${verdict.line})`
      : `its robots.txt: ${verdict.reason}`;
    return { kind: 'not-fetched', url, ...where, why };
  }
  const response = await client.fetchPage(url, { agent: agents, maxBytes: LLMS_TXT_MAX_BYTES });
  const body = response.body;
  const title = body ? titleOf(new TextDecoder().decode(body.subarray(0, 4096))) : undefined;
  return {
    kind: 'fetched',
    url,
    ...where,
    status: response.status,
    ...(body ? { bytes: body.length } : {}),
    ...(response.truncated ? { truncated: true } : {}),
    ...(title ? { title } : {}),
    ...(response.error ? { error: response.error } : {}),
    ...(response.refusedHop ? { refusedHop: response.refusedHop } : {}),
  };
}

/** The first `# ` heading of a Markdown text, trimmed, at most 200 characters. */
function titleOf(text: string): string | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('# ')) return line.slice(2).trim().slice(0, 200) || undefined;
  }
  return undefined;
}
