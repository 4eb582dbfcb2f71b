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
  type Diagnostic,
  type Explanation,
  type ProfileName,
} from '../../core/index.ts';

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
  const robots = parse(text, { profile: profileInput.value as ProfileName });
  const urls = urlsInput.value
    .split('\n')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  const verdicts = urls.map((url) => [url, robots.explain(url, agent)] as const);
  if (selected === undefined || !urls.includes(selected)) selected = urls[0];

  renderResults(verdicts);
  renderView(text, verdicts, lint(text).diagnostics);
  const blocked = verdicts.filter(([, v]) => !v.allowed).length;
  const note = name.note ? ` (${name.note})` : '';
  summary.textContent = urls.length
    ? `${agent}: ${urls.length - blocked} allowed, ${blocked} disallowed${describeGroup(verdicts[0]?.[1])}${note}`
    : 'Add URLs to see verdicts.';
}

function describeGroup(verdict: Explanation | undefined): string {
  if (!verdict) return '';
  if (!verdict.group)
    return verdict.reason === 'no-matching-group'
      ? ' · no group applies: nothing is restricted'
      : '';
  return verdict.group.scope === 'specific'
    ? ` · rules of its own group (line ${verdict.group.lines.join(', ')})`
    : ` · no group names it, so the * group (line ${verdict.group.lines.join(', ')})`;
}

function renderResults(verdicts: readonly (readonly [string, Explanation])[]): void {
  results.replaceChildren(
    ...verdicts.map(([url, verdict]) => {
      const row = element('tr', url === selected ? 'selected' : undefined);
      row.dataset.url = url;
      row.dataset.line = String(verdict.line);
      const verdictText = verdict.allowed ? 'allowed' : 'disallowed';
      const cell = element('td');
      cell.append(element('span', `badge verdict ${verdictText}`, verdictText));
      const why = element('td', 'why');
      why.textContent =
        verdict.rule && verdict.reason !== 'no-matching-rule'
          ? `line ${verdict.line}: ${verdict.rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${verdict.rule.value}${verdict.tieBreak ? ' (tie: allow wins)' : ''}`
          : verdict.reason === 'no-matching-group'
            ? 'no group for this crawler'
            : verdict.reason === 'robots-txt-always-allowed'
              ? '/robots.txt is always allowed'
              : 'no rule matches';
      row.append(element('td', 'url', url), cell, why);
      row.addEventListener('click', () => {
        selected = url;
        render();
      });
      return row;
    }),
  );
}

function renderView(
  text: string,
  verdicts: readonly (readonly [string, Explanation])[],
  diagnostics: readonly Diagnostic[],
): void {
  const deciding = new Map<number, boolean>();
  for (const [, verdict] of verdicts) {
    if (verdict.line > 0 && verdict.reason !== 'no-matching-rule')
      deciding.set(verdict.line, verdict.allowed);
  }
  const selectedLine = verdicts.find(([url]) => url === selected)?.[1].line ?? 0;
  const byLine = new Map<number, Diagnostic[]>();
  for (const d of diagnostics) byLine.set(d.line, [...(byLine.get(d.line) ?? []), d]);

  view.replaceChildren(
    ...lines(text).map((content, i) => {
      const number = i + 1;
      const classes = ['line'];
      if (deciding.has(number))
        classes.push(deciding.get(number) ? 'decides-allow' : 'decides-deny');
      if (number === selectedLine) classes.push('selected');
      const row = element('div', classes.join(' '));
      row.dataset.line = String(number);
      const markers = element('span');
      for (const d of byLine.get(number) ?? []) {
        const marker = element('span', `lint-marker lint-${d.severity}`, d.code);
        marker.title = d.message;
        markers.append(marker);
      }
      row.append(element('span', 'no', String(number)), element('span', 'text', content), markers);
      return row;
    }),
  );
  view.querySelector('.line.selected')?.scrollIntoView({ block: 'nearest' });

  diagnosticsList.replaceChildren(
    ...(diagnostics.length
      ? diagnostics.map((d) => {
          const item = element('li');
          item.dataset.code = d.code;
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
    fetchStatus.textContent =
      data.outcome === 'ok'
        ? `${data.robotsUrl}: HTTP ${data.status}`
        : data.outcome === 'not-found'
          ? `${data.robotsUrl}: no robots.txt (HTTP ${data.status}), so nothing is restricted`
          : `${data.robotsUrl}: unreachable, so Google would crawl nothing for now`;
    const origin = new URL(data.robotsUrl ?? url).origin;
    if (!urlsInput.value.trim()) urlsInput.value = `${origin}/`;
    render();
  } catch (error) {
    fetchStatus.textContent = `Could not fetch: ${(error as Error).message}`;
  }
});

render();
