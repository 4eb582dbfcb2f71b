/**
 * What a robots.txt itself says of AI use for a URL and a crawler: its Content-Usage rules
 * (IETF AIPREF) and its Content-Signal settings (contentsignals.org), as statements per
 * category, combined as the vocabulary says (any "no" wins, then any "yes"). One function,
 * so that the fetch client's usage answer, the service and the web tester (which has only
 * the file) give the same answer for the same file.
 */
import { parseContentSignal } from '../model/extras.ts';
import type { RobotsTxt } from './robots-txt.ts';
import type { UsageSource } from './usage-source.ts';
import type { UsageLabel, UsagePreference } from '../match/content-usage.ts';
import type { UserAgent } from '../match/verdicts.ts';

/** One statement a site made of a usage category, and where it made it. */
export interface UsageStatement {
  /** What it says. */
  preference: UsagePreference;
  /** Where it says it. */
  source: UsageSource;
}

/** A usage category's answer: any `disallowed` wins, then any `allowed` (the vocabulary's rule). */
export interface UsageDecision {
  /** The category's answer. */
  preference: UsagePreference;
  /** Every statement that applied, in the order they were read. */
  statements: UsageStatement[];
}

/** Content-Signal's names for the categories (`ai-train` is AIPREF's `train-ai`). */
const SIGNALS = [
  ['ai-train', 'train-ai'],
  ['search', 'search'],
] as const;

/** The statements the file makes for `url` (as it is requested) and `agents`, per category. */
export function robotsTxtStatements(
  robots: RobotsTxt,
  url: string,
  agents: UserAgent,
): Record<UsageLabel, UsageStatement[]> {
  const said: Record<UsageLabel, UsageStatement[]> = { 'train-ai': [], search: [] };
  const usage = robots.contentUsage(url, agents);
  for (const label of ['train-ai', 'search'] as const) {
    const rule = usage.decidedBy[label];
    if (rule) {
      said[label].push({
        preference: usage.preferences[label],
        source: {
          kind: 'robots-txt',
          line: rule.line,
          text: `Content-Usage: ${rule.path ? `${rule.path} ` : ''}${rule.statement}`,
        },
      });
    }
  }
  // Each category from the first line that sets it (its groups' own, then the file's).
  const lines = robots.contentSignalLines(agents);
  for (const [name, label] of SIGNALS) {
    for (const { extra, fileLevel } of lines) {
      const value = parseContentSignal(extra.value)[name];
      if (typeof value !== 'boolean') continue;
      said[label].push({
        preference: value ? 'allowed' : 'disallowed',
        source: {
          kind: 'robots-txt',
          line: extra.line,
          text: `Content-Signal: ${name}=${value ? 'yes' : 'no'}`,
          ...(fileLevel ? { fileLevel: true as const } : {}),
        },
      });
      break;
    }
  }
  return said;
}

/** Combines a category's statements; none count for a URL that may not be fetched. */
export function decideUsage(statements: UsageStatement[], fetchable: boolean): UsageDecision {
  if (!fetchable) return { preference: 'unknown', statements: [] };
  const preference = statements.some((s) => s.preference === 'disallowed')
    ? 'disallowed'
    : statements.some((s) => s.preference === 'allowed')
      ? 'allowed'
      : 'unknown';
  return { preference, statements };
}
