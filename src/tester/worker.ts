/**
 * The tester's work, off the page's thread: parsing, linting and the verdicts for the URLs.
 * The page posts what changed (the text only when it changed) and paints what comes back, so
 * typing stays smooth whatever the size of the file.
 */
import { lint, parse, type ProfileName } from '../core/index.ts';
import type { TesterRequest, TesterAnswer, VerdictRow } from './protocol.ts';

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
  const rows: VerdictRow[] = request.urls.map((url) => {
    const verdict = robots.explain(url, request.agent);
    const usage = robots.contentUsage(url, request.agent);
    return {
      kind: 'rules',
      url,
      allowed: verdict.allowed,
      line: verdict.line,
      reason: verdict.reason,
      ...(verdict.rule ? { rule: { kind: verdict.rule.kind, value: verdict.rule.value } } : {}),
      tieBreak: verdict.tieBreak,
      ...(verdict.group
        ? { group: { scope: verdict.group.scope, lines: [...verdict.group.lines] } }
        : {}),
      usage: {
        reason: usage.reason,
        preferences: usage.preferences,
        lines: Object.fromEntries(
          Object.entries(usage.decidedBy).map(([label, rule]) => [label, rule?.line ?? 0]),
        ),
      },
    };
  });
  const answer: TesterAnswer = { id: request.id, rows, ...(diagnostics ? { diagnostics } : {}) };
  self.postMessage(answer);
};
