/**
 * The web tester, in the browser: verdicts and lint for the pasted text come from the same
 * core as everything else (bundled into tester.js), recomputed on every change; only
 * "Fetch" asks the service, for a site's robots.txt.
 */
import {
  crawlerName,
  KNOWN_AGENTS,
  lint,
  parse,
  type ContentUsage,
  type Diagnostic,
  type Explanation,
  type ProfileName,
} from '../../core/index.ts';
import type { UsageAnswer } from '../../fetch/usage.ts';
import { describeSource } from '../../fetch/usage-source.ts';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const robotsInput = $<HTMLTextAreaElement>('robots');
const agentInput = $<HTMLInputElement>('agent');
const profileInput = $<HTMLSelectElement>('profile');
const urlsInput = $<HTMLTextAreaElement>('urls');
const view = $<HTMLDivElement>('view');
const results = $<HTMLTableSectionElement>('results');
const summary = $<HTMLDivElement>('summary');
const diagnosticsList = $<HTMLUListElement>('diagnostics');
const fetchUrl = $<HTMLInputElement>('fetch-url');
const fetchStatus = $<HTMLDivElement>('fetch-status');

for (const agent of KNOWN_AGENTS) {
  const option = document.createElement('option');
  option.value = agent.name;
  option.label = `${agent.owner} · ${agent.purpose}`;
  $<HTMLDataListElement>('agents').append(option);
}

let selected: string | undefined;
/**
 * The last fetch, while the text is still what it brought: a robots.txt that could not be
 * reached makes every URL disallowed, whatever the (empty) text says.
 */
let fetched: { text: string; unreachable: boolean; origin: string } | undefined;

/** Parse and lint results for the text and profile last seen: typing URLs reuses them. */
let parsedFor:
  | {
      text: string;
      profile: string;
      robots: ReturnType<typeof parse>;
      diagnostics: readonly Diagnostic[];
    }
  | undefined;
function parsed(text: string, profile: ProfileName) {
  if (parsedFor?.text !== text || parsedFor.profile !== profile) {
    parsedFor = {
      text,
      profile,
      robots: parse(text, { profile }),
      diagnostics: lint(text).diagnostics,
    };
  }
  return parsedFor;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Splits the text into lines as Google counts them (CR, LF and CRLF each end one). */
function lines(text: string): string[] {
  return text.replace(/^\ufeff/, '').split(/\r\n|\r|\n/);
}

function render(): void {
  const text = robotsInput.value;
  // A version or a whole User-Agent header is read as robots.txt names crawlers, and said so.
  const name = crawlerName(agentInput.value.trim() || '*');
  const agent = name.token;
  const { robots, diagnostics } = parsed(text, profileInput.value as ProfileName);
  if (fetched && fetched.text !== text) {
    // Edited: the text is the user's own now, not what the site served.
    fetched = undefined;
    fetchStatus.textContent = '';
  }
  const unreachable = fetched?.unreachable ?? false;
  const urls = urlsInput.value
    .split('\n')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  const verdicts = urls.map(
    (url) => [url, unreachable ? UNREACHABLE : robots.explain(url, agent)] as const,
  );
  if (selected === undefined || !urls.includes(selected)) selected = urls[0];

  // What the file says each URL may be used for (Content-Usage), shown when it says anything.
  const usages = unreachable ? [] : urls.map((url) => robots.contentUsage(url, agent));
  const stated = usages.some((u) => u.reason === 'stated');
  document.body.classList.toggle('with-usage', stated);
  renderResults(verdicts, stated ? usages : []);
  renderView(text, verdicts, diagnostics);
  const blocked = verdicts.filter(([, v]) => !v.allowed).length;
  const note = name.note ? ` (${name.note})` : '';
  summary.textContent = urls.length
    ? `${agent}: ${urls.length - blocked} allowed, ${blocked} disallowed${describeGroup(verdicts[0]?.[1])}${note}`
    : 'Add URLs to see verdicts.';
}

/** A URL's Content-Usage preferences in a few words (`train-ai: no · search: yes`). */
function describeUsage(usage: ContentUsage): string {
  if (usage.reason === 'disallowed-by-robots-txt') return 'none (not crawlable)';
  if (usage.reason === 'no-content-usage-rule') return 'none stated';
  const word = { allowed: 'yes', disallowed: 'no', unknown: 'unstated' } as const;
  return Object.entries(usage.preferences)
    .map(([label, preference]) => {
      const line = usage.decidedBy[label as keyof typeof usage.decidedBy]?.line;
      return `${label}: ${word[preference]}${line ? ` (line ${line})` : ''}`;
    })
    .join(' · ');
}

/** The verdict for every URL while the site's robots.txt cannot be reached (5xx, timeout). */
const UNREACHABLE = {
  allowed: false,
  line: 0,
  reason: 'no-matching-rule',
  tieBreak: false,
  matches: [],
  path: '',
  profile: 'google',
  unreachable: true,
} as unknown as Explanation;

function describeGroup(verdict: Explanation | undefined): string {
  if (!verdict) return '';
  if ((verdict as { unreachable?: boolean }).unreachable)
    return ' · the robots.txt is unreachable, so Google crawls nothing for now';
  if (!verdict.group)
    return verdict.reason === 'no-matching-group'
      ? ' · no group applies: nothing is restricted'
      : '';
  return verdict.group.scope === 'specific'
    ? ` · rules of its own group (line ${verdict.group.lines.join(', ')})`
    : ` · no group names it, so the * group (line ${verdict.group.lines.join(', ')})`;
}

function renderResults(
  verdicts: readonly (readonly [string, Explanation])[],
  usages: readonly ContentUsage[],
): void {
  results.replaceChildren(
    ...verdicts.map(([url, verdict], i) => {
      const row = element('tr', url === selected ? 'selected' : undefined);
      row.dataset.url = url;
      row.dataset.line = String(verdict.line);
      const verdictText = verdict.allowed ? 'allowed' : 'disallowed';
      const cell = element('td');
      cell.append(element('span', `badge verdict ${verdictText}`, verdictText));
      const why = element('td', 'why');
      why.textContent = (verdict as { unreachable?: boolean }).unreachable
        ? 'robots.txt unreachable: nothing is crawled for now'
        : verdict.rule && verdict.reason !== 'no-matching-rule'
          ? `line ${verdict.line}: ${verdict.rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${verdict.rule.value}${verdict.tieBreak ? ' (tie: allow wins)' : ''}`
          : verdict.reason === 'no-matching-group'
            ? 'no group for this crawler'
            : verdict.reason === 'robots-txt-always-allowed'
              ? '/robots.txt is always allowed'
              : 'no rule matches';
      row.append(element('td', 'url', url), cell, why);
      const usage = usages[i];
      if (usage) row.append(element('td', 'usage', describeUsage(usage)));
      row.addEventListener('click', () => {
        selected = url;
        render();
      });
      return row;
    }),
  );
}

/**
 * The file as it reads: its lines (built when the text changes, since a large file has
 * thousands) with lint markers, then the deciding and selected lines marked (redone on
 * every change of URLs or crawler, touching only the lines marked before and now).
 */
let viewFor:
  | {
      text: string;
      diagnostics: readonly Diagnostic[];
      rows: HTMLElement[];
      marked: HTMLElement[];
      scrolledTo?: HTMLElement | undefined;
    }
  | undefined;

function renderView(
  text: string,
  verdicts: readonly (readonly [string, Explanation])[],
  diagnostics: readonly Diagnostic[],
): void {
  if (viewFor?.text !== text || viewFor.diagnostics !== diagnostics) {
    viewFor = { text, diagnostics, rows: buildLines(text, diagnostics), marked: [] };
    view.replaceChildren(...viewFor.rows);
    renderDiagnostics(diagnostics);
  }
  const { rows } = viewFor;
  for (const row of viewFor.marked)
    row.classList.remove('decides-allow', 'decides-deny', 'selected');
  const marked: HTMLElement[] = [];
  for (const [, verdict] of verdicts) {
    const row = rows[verdict.line - 1];
    if (!row || verdict.reason === 'no-matching-rule') continue;
    row.classList.add(verdict.allowed ? 'decides-allow' : 'decides-deny');
    marked.push(row);
  }
  const selectedLine = verdicts.find(([url]) => url === selected)?.[1].line ?? 0;
  const selectedRow = rows[selectedLine - 1];
  if (selectedRow) {
    selectedRow.classList.add('selected');
    marked.push(selectedRow);
    // Scrolling lays out the whole view: only when the selected line changes.
    if (selectedRow !== viewFor.scrolledTo) selectedRow.scrollIntoView({ block: 'nearest' });
  }
  viewFor.scrolledTo = selectedRow;
  viewFor.marked = marked;
}

function buildLines(text: string, diagnostics: readonly Diagnostic[]): HTMLElement[] {
  const byLine = new Map<number, Diagnostic[]>();
  for (const d of diagnostics) byLine.set(d.line, [...(byLine.get(d.line) ?? []), d]);
  return lines(text).map((content, i) => {
    const number = i + 1;
    const row = element('div', 'line');
    row.dataset.line = String(number);
    const markers = element('span');
    for (const d of byLine.get(number) ?? []) {
      const marker = element('span', `lint-marker lint-${d.severity}`, d.code);
      marker.title = d.message;
      markers.append(marker);
    }
    row.append(element('span', 'no', String(number)), element('span', 'text', content), markers);
    return row;
  });
}

function renderDiagnostics(diagnostics: readonly Diagnostic[]): void {
  diagnosticsList.replaceChildren(
    ...(diagnostics.length
      ? diagnostics.map((d) => {
          const item = element('li');
          item.dataset.code = d.code;
          item.dataset.line = String(d.line);
          item.title = `Go to line ${d.line}`;
          item.addEventListener('click', () => goToLine(d.line));
          item.append(
            element('span', 'at', `line ${d.line}`),
            element('span', `lint-marker lint-${d.severity}`, d.severity),
            element('span', undefined, d.message),
          );
          return item;
        })
      : [element('li', 'none', 'No problems found.')]),
  );
}

/** Shows line `number` of the file: selected in the view and in the text box. */
function goToLine(number: number): void {
  for (const row of view.querySelectorAll('.line.selected')) row.classList.remove('selected');
  const row = viewFor?.rows[number - 1];
  if (row) {
    row.classList.add('selected');
    viewFor!.marked.push(row);
    row.scrollIntoView({ block: 'center' });
  }
  // One pass to the line's start (CR, LF and CRLF each end a line), then select it.
  const text = robotsInput.value;
  let start = 0;
  for (let line = 1; line < number && start < text.length; start++) {
    const c = text.charCodeAt(start);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(start + 1) !== 0x0a)) line++;
  }
  let end = start;
  while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
  robotsInput.focus();
  robotsInput.setSelectionRange(start, end);
}

let pending: number | undefined;
function schedule(): void {
  window.clearTimeout(pending);
  pending = window.setTimeout(render, 60);
}

for (const input of [robotsInput, agentInput, urlsInput]) input.addEventListener('input', schedule);
profileInput.addEventListener('change', render);

$<HTMLButtonElement>('fetch').addEventListener('click', async () => {
  const url = fetchUrl.value.trim();
  if (!url) return;
  fetchStatus.textContent = `Fetching the robots.txt of ${url}…`;
  try {
    const response = await fetch(`/v1/robots?url=${encodeURIComponent(url)}`);
    const data = (await response.json()) as {
      robotsUrl?: string;
      status?: number;
      outcome?: string;
      body?: string;
      message?: string;
    };
    if (!response.ok) {
      fetchStatus.textContent = data.message ?? `The service answered ${response.status}.`;
      return;
    }
    robotsInput.value = data.body ?? '';
    const origin = new URL(data.robotsUrl ?? url).origin;
    // URLs of the site fetched before do not linger: the new site's home replaces them.
    const previous = fetched?.origin;
    const listed = urlsInput.value
      .split('\n')
      .map((u) => u.trim())
      .filter((u) => u !== '');
    if (listed.length === 0 || (previous && listed.every((u) => u.startsWith(previous)))) {
      urlsInput.value = `${origin}/`;
    }
    // Unreachable with no earlier copy: Google crawls nothing (with one, it uses that copy).
    const unreachable = data.outcome === 'error' && !data.body;
    fetched = { text: robotsInput.value, unreachable, origin };
    fetchStatus.textContent =
      data.outcome === 'ok'
        ? `${data.robotsUrl}: HTTP ${data.status}`
        : data.outcome === 'not-found'
          ? `${data.robotsUrl}: no robots.txt (HTTP ${data.status}), so nothing is restricted`
          : `${data.robotsUrl}: unreachable, so Google would crawl nothing for now`;
    render();
  } catch (error) {
    fetchStatus.textContent = `Could not fetch: ${(error as Error).message}`;
  }
});

const usageList = $<HTMLDListElement>('usage');
const usageStatus = $<HTMLDivElement>('usage-status');

/** The combined answer for the selected URL, from the service (`GET /v1/usage`). */
$<HTMLButtonElement>('usage-check').addEventListener('click', async () => {
  const url = selected;
  if (!url) {
    usageStatus.textContent = 'Add a URL first.';
    return;
  }
  const agent = agentInput.value.trim() || '*';
  usageStatus.textContent = `Checking ${url}…`;
  usageList.replaceChildren();
  try {
    const query = `url=${encodeURIComponent(url)}&agent=${encodeURIComponent(agent)}`;
    const response = await fetch(`/v1/usage?${query}`);
    const data = (await response.json()) as UsageAnswer & { message?: string };
    if (!response.ok) {
      usageStatus.textContent = data.message ?? `The service answered ${response.status}.`;
      return;
    }
    usageStatus.textContent = `${data.url} for ${data.agent.join(', ')}${data.page ? ` (page: HTTP ${data.page.status || data.page.error})` : ''}`;
    const item = (name: string, ok: boolean | undefined, answer: string, why: string) => {
      const value = element('dd', ok === undefined ? 'unknown' : ok ? 'allow' : 'deny', answer);
      value.append(element('span', 'why', why));
      usageList.append(element('dt', undefined, name), value);
    };
    const yes = (may: boolean) => (may ? 'yes' : 'no');
    item('Fetch', data.fetch.may, yes(data.fetch.may), data.fetch.why);
    item('Index', data.index.may, yes(data.index.may), data.index.why);
    for (const [label, name] of [
      ['train-ai', 'Train AI'],
      ['search', 'Search'],
    ] as const) {
      const { preference, statements } = data[label];
      item(
        name,
        preference === 'unknown' ? undefined : preference === 'allowed',
        preference === 'unknown' ? 'not stated' : preference,
        statements.map((s) => `${describeSource(s.source)} (${s.preference})`).join('; '),
      );
    }
    const { tdm } = data;
    item(
      'TDM',
      tdm.reservation === 'unset' ? undefined : tdm.reservation === 'not-reserved',
      tdm.reservation === 'unset' ? 'no reservation stated' : tdm.reservation,
      (tdm.decidedBy ? describeSource(tdm.decidedBy) : '') +
        (tdm.policy ? `; policy ${tdm.policy}` : ''),
    );
  } catch (error) {
    usageStatus.textContent = `Could not check: ${(error as Error).message}`;
  }
});

render();
