/** What the tester page and its worker say to each other. */
import type { Diagnostic, NotRobotsTxt, ProfileName } from '../core/index.ts';
import type { ContentUsage } from '../core/index.ts';

type UsageLabel = keyof ContentUsage['preferences'];
type UsagePreference = ContentUsage['preferences'][UsageLabel];

export interface TesterRequest {
  /** Answers come back with it; the page paints only the latest. */
  id: number;
  /** The file, when it changed since the last request. */
  text?: string;
  profile: ProfileName;
  /** Ordered fallbacks (`Googlebot-Image,Googlebot`): the first with a group of its own decides. */
  agents: string[];
  urls: string[];
}

/** One URL's row: what the rules say, or that the robots.txt could not be reached. */
export type VerdictRow =
  | {
      kind: 'rules';
      url: string;
      allowed: boolean;
      /** The deciding line, 0 for none. */
      line: number;
      reason: string;
      rule?: { kind: 'allow' | 'disallow'; value: string };
      tieBreak: boolean;
      /** The deciding line is the one the 500 KiB limit cuts: read (and matched) in part. */
      lineCut: boolean;
      group?: { scope: 'specific' | 'global'; lines: number[] };
      /**
       * What the file says of AI use for the URL (Content-Usage and Content-Signal,
       * combined as the fetch client's usage answer combines them): per category, the
       * preference and its statements in short (`line 4`, `Content-Signal: ai-train=no`).
       * Nothing counts for a URL that may not be crawled.
       */
      usage: {
        stated: boolean;
        crawlable: boolean;
        labels: Record<UsageLabel, { preference: UsagePreference; said: string[] }>;
      };
    }
  | { kind: 'unreachable'; url: string; allowed: false; line: 0 }
  /** A line of the URL list that is neither an http(s) URL nor a path: not judged. */
  | { kind: 'invalid'; url: string; allowed: false; line: 0 };

export interface TesterAnswer {
  id: number;
  /** The name the verdicts are for: the first of the names with a group of its own. */
  agent: string;
  /** The text is no robots.txt at all (`RobotsTxt.notRobotsTxt`): why no rule applies. */
  notRobotsTxt?: NotRobotsTxt;
  rows: VerdictRow[];
  /** Lint problems, when the text changed. */
  diagnostics?: readonly Diagnostic[];
}
