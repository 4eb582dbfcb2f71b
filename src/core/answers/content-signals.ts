/**
 * Which Content-Signal lines speak for a crawler. Lines in its groups speak for those groups;
 * lines before any `User-agent` speak for the whole file (sites put them there on purpose),
 * and repkit reads them for every group without a Content-Signal of its own, and for a
 * crawler no group names. Cloudflare's reading scopes Content-Signal to groups only.
 */
import { parseContentSignal, type ContentSignals, type Extra } from '../model/extras.ts';

/** A Content-Signal line that applies, and whether it stands before any group. */
export interface SignalLine {
  /** The line. */
  readonly extra: Extra;
  /** It stands before any `User-agent`: read for every group without its own. */
  readonly fileLevel: boolean;
}

/**
 * The Content-Signal lines for a crawler whose groups are `groups` (their extras
 * `groupExtras`), given the file's extras before any group: the groups' own first.
 */
export function signalLines(
  groups: readonly number[],
  groupExtras: readonly Extra[],
  fileExtras: readonly Extra[],
): SignalLine[] {
  const own = groupExtras.filter((e) => e.key === 'content-signal');
  const lines: SignalLine[] = own.map((extra) => ({ extra, fileLevel: false }));
  const speaking = new Set(own.map((e) => e.group));
  if (groups.length === 0 || groups.some((g) => !speaking.has(g))) {
    for (const extra of fileExtras) {
      if (extra.key === 'content-signal') lines.push({ extra, fileLevel: true });
    }
  }
  return lines;
}

/** The settings of `lines`, merged: the first line to set a name wins. */
export function mergedSignals(lines: readonly SignalLine[]): ContentSignals | undefined {
  let signals: ContentSignals | undefined;
  for (const { extra } of lines) signals = { ...parseContentSignal(extra.value), ...signals };
  return signals;
}
