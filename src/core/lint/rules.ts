import type { DiagnosticCode } from './types.ts';

/**
 * What each lint rule finds, in one line: the help a report's reader gets (SARIF's rule
 * descriptions, the table of docs/cli/lint.md).
 */
export const LINT_RULES: Readonly<Record<DiagnosticCode, string>> = {
  bom: 'a UTF-8 byte order mark (skipped)',
  'invalid-utf8': 'bytes that are not UTF-8 (matched as %-escapes)',
  'html-content': 'an HTML page served as robots.txt',
  'utf-16': 'UTF-16 text: Google reads UTF-8, and finds no rule',
  'binary-content': 'binary data served as robots.txt',
  'line-cut-by-limit': 'the line the 500 KiB limit cuts, with what Google reads of it',
  'line-too-long': 'a line past 16,663 bytes (the rest ignored)',
  'nul-byte': 'a NUL byte (the rest of the line ignored)',
  'unparsable-line': 'not a `key: value` line',
  'missing-colon': '`Disallow /x`: Google accepts it',
  typo: '`disalow`, `useragent`, `site-map`...: Google accepts them',
  'key-suffix': '`Disallowed:`: Google reads the start of the key',
  'rule-outside-group': 'a rule before any user-agent (ignored)',
  'ignored-by-google':
    'crawl-delay, host, clean-param, request-rate, visit-time, content-signal, license, llms',
  'unsupported-directive': 'noindex, nofollow, noarchive in robots.txt',
  'unknown-key': 'any other key',
  'path-not-absolute': 'a path that starts with neither `/` nor `*` (never matches)',
  'dollar-not-at-end': '`$` inside a pattern is literal',
  'shadowed-rule':
    'a rule that can never decide: an opposite rule matching everything it matches is longer, or as long and an allow',
  'duplicate-rule': 'the same rule again',
  'empty-user-agent': 'a user-agent that names no crawler',
  'user-agent-token': '`Googlebot/2.1` is matched as `Googlebot`',
  'user-agent-unmatchable':
    '`AI2Bot` is read as `AI` (a digit ends the name): no crawler named AI2Bot is ever matched',
  'merged-user-agents': 'a blank line between user-agents does not end a group',
  'group-without-rules': 'a group with no rules: those crawlers may fetch everything',
  'relative-sitemap': 'a sitemap that is not an absolute URL (ignored)',
  'content-past-limit': 'content past 500 KiB, with the rules it drops',
  'content-usage-invalid':
    'a Content-Usage statement that is no Structured Fields Dictionary, or a category neither `y` nor `n`',
  'content-usage-unreachable':
    'a Content-Usage path under a disallowed path: disallowed URLs carry no preference',
  'split-group':
    'another group for a crawler: Google merges them, first-match parsers read only the first',
  'content-signal-invalid': 'a Content-Signal entry that is not `name=yes`, `name=no` or `use=...`',
  'content-signal-file-level':
    'a Content-Signal before any user-agent: repkit reads it for the whole file, Cloudflare only in groups',
  'disallow-all':
    '`Disallow: /` for `*`: every crawler without a group of its own may fetch nothing',
  'blocked-resources':
    'CSS or JavaScript blocked for `*` or Googlebot: Google renders pages with them',
  'space-in-path':
    "a space inside a rule's path: URLs send `%20`, so the rule matches nothing past it",
  'empty-file':
    'an empty file, or one with no user-agent, rule or sitemap line: everything may be fetched',
};
