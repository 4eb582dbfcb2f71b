/**
 * The tester's work, off the page's thread: parsing, linting and the verdicts for the URLs.
 * The page posts what changed (the text only when it changed) and paints what comes back, so
 * typing stays smooth whatever the size of the file.
 */
import { lint, parse, type ProfileName } from '../core/index.ts';
import {
  decideUsage,
  describeSource,
  ignoresGlobalGroup,
  robotsTxtStatements,
} from '../core/internal.ts';
import type { TesterRequest, TesterAnswer, VerdictRow } from './protocol.ts';

type RulesRow = Extract<VerdictRow, { kind: 'rules' }>;

let text = '';
let profile: ProfileName = 'google';
let robots = parse('', { profile });
let linted = { text: '', diagnostics: lint('').diagnostics };

self.onmessage = (event: MessageEvent<TesterRequest>) => {
  const request = event.data;
  const textChanged = request.text !== undefined && request.text !== text;
  if (request.text !== undefined) text = request.text;
  if (textChanged || request.profile !== profile) {
    profile = request.profile;
    robots = parse(text, { profile });
  }
  let diagnostics: TesterAnswer['diagnostics'];
  if (linted.text !== text) {
    linted = { text, diagnostics: lint(text).diagnostics };
    diagnostics = linted.diagnostics;
  }
  // Several names are ordered fallbacks, as the CLI, the fetch client and the service read
  // them: the first with a group of its own decides, else all of them (the * group).
  const own = request.agents.find((name) => robots.groupsFor(name).scope === 'specific');
  const agent = own ?? request.agents;
  // A Google special-case crawler only the * group names takes no rule from it.
  const ignoresStar = ignoresGlobalGroup(robots, agent);
  const rows: VerdictRow[] = request.urls.map((url) => {
    // Not a URL a crawler could request, nor a path: said so, not judged "allowed".
    if (!isCheckable(url)) return { kind: 'invalid', url, allowed: false, line: 0 };
    const explained = robots.explain(url, agent);
    const verdict = ignoresStar
      ? { ...explained, allowed: true, line: 0, reason: 'ignores-global-group', rule: undefined }
      : explained;
    return {
      kind: 'rules',
      url,
      allowed: verdict.allowed,
      line: verdict.line,
      reason: verdict.reason,
      ...(verdict.rule ? { rule: { kind: verdict.rule.kind, value: verdict.rule.value } } : {}),
      tieBreak: verdict.tieBreak,
      lineCut: verdict.line > 0 && verdict.line === robots.cutLine,
      ...(verdict.group
        ? { group: { scope: verdict.group.scope, lines: [...verdict.group.lines] } }
        : {}),
      usage: usageOf(url, agent, verdict.allowed),
    };
  });
  const answer: TesterAnswer = {
    id: request.id,
    agent: own ?? request.agents.join(', '),
    ...(robots.notRobotsTxt ? { notRobotsTxt: robots.notRobotsTxt } : {}),
    rows,
    ...(diagnostics ? { diagnostics } : {}),
  };
  self.postMessage(answer);
};

/**
 * The file's AI-use answer for a URL: the statements the fetch client's usage answer reads
 * from a robots.txt, combined the same way (one answer everywhere).
 */
function usageOf(url: string, agent: string | string[], crawlable: boolean): RulesRow['usage'] {
  const said = robotsTxtStatements(robots, url, agent);
  const labels = {} as RulesRow['usage']['labels'];
  let stated = false;
  for (const label of ['train-ai', 'search'] as const) {
    const decision = decideUsage(said[label], crawlable);
    if (said[label].length > 0) stated = true;
    labels[label] = {
      preference: decision.preference,
      // In the file itself: a Content-Usage rule by its line; a Content-Signal line, which
      // sets several categories, with the setting read (and whether it speaks for the file).
      said: decision.statements.map(({ source }) =>
        source.kind !== 'robots-txt'
          ? describeSource(source)
          : !source.line
            ? source.text
            : source.text.startsWith('Content-Signal')
              ? `line ${source.line}: ${source.text}${source.fileLevel ? ', for the whole file' : ''}`
              : `line ${source.line}`,
      ),
    };
  }
  return { stated, crawlable, labels };
}

/** An absolute http(s) URL with a host, or a path starting with `/`. */
function isCheckable(line: string): boolean {
  if (line.startsWith('/')) return true;
  try {
    const url = new URL(line);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
