import type { Add, Diagnostic, DiagnosticCode, LintReport, Severity } from './types.ts';
import { isGlobalAgent, productToken } from '../agents/names.ts';
import { GroupBuilder } from '../model/groups.ts';
import { checkGroups } from './lint-groups.ts';
import { checkHeadsUps, spaceInPath } from './heads-ups.ts';
import { quoted } from './quote.ts';
import { checkUsageLine } from './usage-lines.ts';
import { checkWholeFile, fileRank, withoutLineNoise } from './file-level.ts';
import { PROFILES } from '../profiles/index.ts';
import { byteStringToBytes, displayText } from '../text/bytes.ts';
import {
  DEFAULT_MAX_BYTES,
  cutsInsideLine,
  toLimitedByteString,
  tokenizeBody,
  type RobotsBody,
} from '../tokens/body.ts';
import { Source } from '../text/source.ts';
import { tokenize, type Directive, type LineInfo } from '../tokens/tokenizer.ts';

/**
 * A linter in the style of Google's robots.txt report (reporting_robots.cc): what Google
 * reads, what it accepts with a shrug, what it ignores and why. It is a second consumer of
 * the same tokenizer the matcher uses, so it reports exactly what the matcher sees.
 */

export type { Severity, DiagnosticCode, Diagnostic, LintReport, Add } from './types.ts';

/** Each rule's severity, as reported unless a caller's configuration changes it. */
export const SEVERITY: Readonly<Record<DiagnosticCode, Severity>> = {
  bom: 'info',
  'invalid-utf8': 'warning',
  'html-content': 'error',
  'utf-16': 'error',
  'binary-content': 'error',
  'line-cut-by-limit': 'warning',
  'line-too-long': 'warning',
  'nul-byte': 'warning',
  'unparsable-line': 'warning',
  'missing-colon': 'warning',
  typo: 'warning',
  'key-suffix': 'warning',
  'rule-outside-group': 'error',
  'ignored-by-google': 'info',
  'unsupported-directive': 'warning',
  'unknown-key': 'warning',
  'path-not-absolute': 'warning',
  'dollar-not-at-end': 'info',
  'shadowed-rule': 'warning',
  'duplicate-rule': 'info',
  'empty-user-agent': 'warning',
  'user-agent-token': 'info',
  'user-agent-unmatchable': 'warning',
  'merged-user-agents': 'info',
  'group-without-rules': 'warning',
  'relative-sitemap': 'error',
  'content-past-limit': 'error',
  'content-usage-invalid': 'warning',
  'content-usage-unreachable': 'warning',
  'split-group': 'info',
  'content-signal-invalid': 'warning',
  'content-signal-file-level': 'info',
  'disallow-all': 'warning',
  'blocked-resources': 'warning',
  'space-in-path': 'warning',
  'empty-file': 'info',
};

/** Keys other crawlers read and Google ignores. */
const OTHER_CRAWLERS_KEYS = new Map([
  ['crawl-delay', 'Bing and Yandex read it'],
  ['host', 'Yandex read it'],
  ['clean-param', 'Yandex reads it'],
  ['request-rate', 'some crawlers read it'],
  ['visit-time', 'some crawlers read it'],
  ['content-signal', 'it states preferences for AI use (contentsignals.org)'],
  ['content-usage', 'it states preferences for AI use (IETF AIPREF)'],
  ['license', "it names the site's licence terms (RSL 1.0), as usage() reports"],
  ['llms', "it names the site's llms.txt, as usage() reports"],
  ['llms-txt', "it names the site's llms.txt, as usage() reports"],
]);
/** Page-level directives that belong in meta tags or headers, not in robots.txt. */
const PAGE_LEVEL_KEYS = new Set(['noindex', 'nofollow', 'noarchive']);

const CANONICAL_KEYS = {
  'user-agent': 'user-agent',
  allow: 'allow',
  disallow: 'disallow',
  sitemap: 'sitemap',
};

/** Groups, orphan rules and sitemaps of a parsed file: 0 when it says nothing a crawler reads. */
function groupsOrLines(parsed: ReturnType<GroupBuilder['finish']>): number {
  return parsed.groups.size + parsed.orphanRuleLines.length + (parsed.sitemaps?.list().length ?? 0);
}

/** Lints a robots.txt body. Never throws on content. */
export function lint(body: RobotsBody, options: { maxBytes?: number } = {}): LintReport {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const diagnostics: Diagnostic[] = [];
  const add = (
    code: DiagnosticCode,
    line: number,
    column: number,
    message: string,
    related?: number[],
  ) =>
    diagnostics.push({
      code,
      severity: SEVERITY[code],
      line,
      column,
      message,
      ...(related ? { related } : {}),
    });

  const { text, total, next } = toLimitedByteString(body, maxBytes);
  const read = text.length;
  // The group model is the matcher's own: the linter reads the same tables.
  const source = Source.ofBytes(text);
  const builder = new GroupBuilder(PROFILES.google, source);
  const lines = readLines(source, text, builder, add);
  const { blankLines, valueColumns, ruleKinds, invalidUtf8Lines, lastLine } = lines;
  const parsed = builder.finish();
  for (const line of parsed.orphanRuleLines) {
    add(
      'rule-outside-group',
      line,
      1,
      `${ruleKinds.get(line)} before any user-agent line: Google ignores it`,
    );
  }

  for (const line of invalidUtf8Lines)
    add('invalid-utf8', line, 1, 'bytes that are not valid UTF-8: matched as %-escaped octets');
  checkGroups(parsed, blankLines, valueColumns, add);
  checkHeadsUps(parsed, add);
  if (total > read) {
    checkPastLimit(body, read, total, add);
    // The same test the parse makes for `RobotsTxt.cutLine`.
    if (lastLine && cutsInsideLine(text.charCodeAt(read - 1), next)) {
      add(
        'line-cut-by-limit',
        lastLine.line,
        1,
        `this line is cut by the ${read}-byte limit: Google reads it as ${quoted(text.slice(lastLine.start, read))} and ignores the rest, so it may match more than written`,
      );
    }
  }
  // What the file is comes first; a file that is not a robots.txt at all is one error, not
  // a warning per line.
  const fileLevel = checkWholeFile(toBytes(body, Math.min(read, 4096)), add);
  // (A page or binary data served as robots.txt says nothing either: its error says why.)
  if (!fileLevel && groupsOrLines(parsed) === 0) {
    add(
      'empty-file',
      1,
      1,
      read === 0
        ? 'an empty file: every crawler may fetch every URL (as with no robots.txt)'
        : 'no user-agent, rule or sitemap line: every crawler may fetch every URL (as with no robots.txt)',
    );
  }
  return reportOf(fileLevel ? withoutLineNoise(diagnostics, fileLevel) : diagnostics);
}

/** Where the last line read starts and ends (the one a byte limit may cut). */
interface LastLine {
  line: number;
  start: number;
  end: number;
}

/**
 * One pass of the token stream: each line's and each directive's own checks, the group
 * model fed as the matcher's, and what the file-wide checks need of the lines.
 */
function readLines(source: Source, text: string, builder: GroupBuilder, add: Add) {
  const blankLines: number[] = [];
  const valueColumns = new Map<number, number>();
  const ruleKinds = new Map<number, string>();
  const invalidUtf8Lines: number[] = [];

  let lastLine: LastLine | undefined;
  let inGroups = false;
  tokenize(source, {
    line(info: LineInfo) {
      lastLine = { line: info.line, start: info.start, end: info.end };
      if (info.truncated) {
        add(
          'line-too-long',
          info.line,
          16_664,
          'line longer than 16,663 bytes: Google ignores the rest of it',
        );
      }
      if (info.nul)
        add('nul-byte', info.line, 1, 'a NUL byte: Google ignores the rest of the line');
      if (info.unparsable) add('unparsable-line', info.line, 1, 'not a "key: value" line: ignored');
      if (info.blank) blankLines.push(info.line);
      if (invalidUtf8Lines.length < 20 && !isValidUtf8(text.slice(info.start, info.end))) {
        invalidUtf8Lines.push(info.line);
      }
    },
    directive(d: Directive) {
      checkKey(d, add);
      if (d.kind === 'user-agent') {
        inGroups = true;
        checkUserAgent(d, add);
      } else if (d.kind === 'allow' || d.kind === 'disallow') {
        valueColumns.set(d.line, d.valueColumn);
        ruleKinds.set(d.line, d.kind);
        checkPath(d, add);
      } else if (d.kind === 'sitemap') {
        if (!/^https?:\/\/[^/?#]+/i.test(d.value)) {
          add(
            'relative-sitemap',
            d.line,
            d.valueColumn,
            `sitemap ${quoted(d.value)} is not an absolute http(s) URL: ignored`,
          );
        }
      } else {
        checkOtherKey(d, add, inGroups);
      }
      builder.directive(d);
    },
  });
  return { blankLines, valueColumns, ruleKinds, invalidUtf8Lines, lastLine };
}

/** The report: file-level findings first, then by line and column, with the counts. */
function reportOf(kept: Diagnostic[]): LintReport {
  kept.sort((a, b) => fileRank(a) - fileRank(b) || a.line - b.line || a.column - b.column);
  const count = (s: Severity) => kept.filter((d) => d.severity === s).length;
  return {
    diagnostics: kept,
    errors: count('error'),
    warnings: count('warning'),
    infos: count('info'),
  };
}

function checkKey(d: Directive, add: Add): void {
  const key = displayText(d.key);
  if (d.missingColon)
    add(
      'missing-colon',
      d.line,
      d.keyColumn + key.length,
      `no colon after "${key}": Google accepts it, other crawlers may not`,
    );
  if (d.kind === 'unknown') return;
  const canonical = CANONICAL_KEYS[d.kind];
  if (d.typo) {
    add(
      'typo',
      d.line,
      d.keyColumn,
      `"${key}" is read as "${canonical}" by Google; other crawlers may ignore the line`,
    );
  } else if (key.toLowerCase() !== canonical) {
    add(
      'key-suffix',
      d.line,
      d.keyColumn,
      `"${key}" is read as "${canonical}" (Google matches the start of the key); write "${canonical}"`,
    );
  }
}

function checkUserAgent(d: Directive, add: Add): void {
  const value = displayText(d.value);
  if (value === '')
    return add('empty-user-agent', d.line, d.valueColumn, 'empty user-agent: matches no crawler');
  if (isGlobalAgent(d.value) || value === '*') return;
  const token = productToken(d.value);
  if (token === '') {
    add(
      'empty-user-agent',
      d.line,
      d.valueColumn,
      `${quoted(d.value)} has no product token ([A-Za-z_-]): matches no crawler`,
    );
  } else if (token !== value) {
    const next = value.charCodeAt(token.length);
    // A version (`/2.1`) or words after a space are expected; a digit, dot or other
    // character inside the name cuts it where the crawler does not.
    if (next === 0x2f || next === 0x20 || next === 0x09) {
      add('user-agent-token', d.line, d.valueColumn, `${quoted(d.value)} is matched as "${token}"`);
    } else {
      add(
        'user-agent-unmatchable',
        d.line,
        d.valueColumn,
        `${quoted(d.value)} can never be matched as written: Google reads the name only up to the first character outside [A-Za-z_-], "${token}", so this group applies to crawlers named "${token}"`,
      );
    }
  }
}

function checkPath(d: Directive, add: Add): void {
  const value = d.value;
  if (value !== '' && value[0] !== '/' && value[0] !== '*') {
    add(
      'path-not-absolute',
      d.line,
      d.valueColumn,
      `${quoted(value)} does not start with "/" or "*": it can never match a URL path`,
    );
  }
  const space = spaceInPath(value);
  if (space >= 0) {
    add(
      'space-in-path',
      d.line,
      d.valueColumn + space,
      `a space in ${quoted(value)}: URLs send a space as %20, so this rule matches no URL past it (write %20)`,
    );
  }
  const dollar = value.indexOf('$');
  if (dollar >= 0 && dollar < value.length - 1) {
    add(
      'dollar-not-at-end',
      d.line,
      d.valueColumn + dollar,
      '"$" is only special at the end of a pattern; here it matches a literal "$"',
    );
  }
}

function checkOtherKey(d: Directive, add: Add, inGroups: boolean): void {
  const key = displayText(d.key).toLowerCase();
  const readers = OTHER_CRAWLERS_KEYS.get(key);
  checkUsageLine(key, displayText(d.value), d.line, d.valueColumn, add);
  if (key === 'content-signal' && !inGroups) {
    add(
      'content-signal-file-level',
      d.line,
      d.keyColumn,
      'Content-Signal before any user-agent: repkit reads it for the whole file (every group without a Content-Signal of its own); Cloudflare reads Content-Signal only inside a group, and Google not at all: repeat it in a "User-agent: *" group to reach every reader',
    );
  } else if (readers)
    add('ignored-by-google', d.line, d.keyColumn, `Google ignores "${key}"; ${readers}`);
  else if (PAGE_LEVEL_KEYS.has(key)) {
    add(
      'unsupported-directive',
      d.line,
      d.keyColumn,
      `"${key}" is not supported in robots.txt by Google (since 2019): use a robots meta tag or X-Robots-Tag`,
    );
  } else add('unknown-key', d.line, d.keyColumn, `unknown key ${quoted(d.key)}: ignored`);
}

function checkPastLimit(body: RobotsBody, read: number, total: number, add: Add): void {
  const dropped: number[] = [];
  let limitLine = 0;
  tokenizeBody(
    body,
    {
      line(info) {
        // The first line wholly past the limit (a line the limit cuts is read in part).
        if (limitLine === 0 && info.start >= read) limitLine = info.line;
      },
      directive(d) {
        if (
          limitLine !== 0 &&
          (d.kind === 'allow' || d.kind === 'disallow' || d.kind === 'user-agent')
        ) {
          dropped.push(d.line);
        }
      },
    },
    total,
  );
  const which =
    dropped.length === 0
      ? 'no rules'
      : `${dropped.length} line(s) of rules and user-agents, lines ${dropped[0]}–${dropped.at(-1)}`;
  add(
    'content-past-limit',
    limitLine || 1,
    1,
    `the file is ${total} bytes; Google reads the first ${read} and ignores the rest: ${which}`,
    dropped.slice(0, 50),
  );
}

function toBytes(body: RobotsBody, length: number): Uint8Array {
  if (typeof body === 'string') return new TextEncoder().encode(body.slice(0, length));
  const bytes = body instanceof Uint8Array ? body : new Uint8Array(body);
  return bytes.subarray(0, length);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
function isValidUtf8(line: string): boolean {
  // eslint-disable-next-line no-control-regex -- ASCII lines are valid; only test the rest
  if (/^[\x00-\x7f]*$/.test(line)) return true;
  try {
    strictUtf8.decode(byteStringToBytes(line));
    return true;
  } catch {
    return false;
  }
}
