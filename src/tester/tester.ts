/**
 * The web tester, in the browser: verdicts and lint for the text in the editor come from the
 * same core as everything else, run in a worker (tester-worker.js) so that typing never waits
 * for them; "Fetch" and "Check its page" ask the service.
 */
import { crawlerNames, type Diagnostic, type Edge, type ProfileName } from '../core/index.ts';
import { describeEdge, NOT_ROBOTS_TXT_WORDS } from '../core/internal.ts';
import { KNOWN_AGENTS } from '../core/agents-entry.ts';
import { livePanel } from './live-usage.ts';
import type { TesterAnswer, TesterRequest, VerdictRow } from './protocol.ts';
import { $, element } from './dom.ts';
import { apiFetch, setUpToken } from './api.ts';
import { wireFileAndLink } from './share.ts';

const robotsInput = $<HTMLTextAreaElement>('robots');
const agentInput = $<HTMLInputElement>('agent');
const profileInput = $<HTMLSelectElement>('profile');
const urlsInput = $<HTMLTextAreaElement>('urls');
const view = $<HTMLDivElement>('view');
const viewLines = view.querySelector<HTMLDivElement>('.lines')!;
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

/** The URLs the page opens with: a fetch replaces them while they are untouched. */
const SAMPLE_URLS = urlsInput.value;

/** Pixel height of an editor line (the CSS says the same). */
const LINE_HEIGHT = 20;
/** Lines drawn beyond those in sight, so that scrolling rarely shows an undrawn one. */
const OVERSCAN = 30;

let selected: string | undefined;
/**
 * The last fetch, while the text is still what it brought: a robots.txt that could not be
 * reached makes every URL disallowed, whatever the (empty) text says.
 */
let fetched: { text: string; unreachable: boolean; origin: string } | undefined;

const worker = new Worker(new URL('/tester-worker.js', location.href), { type: 'module' });
let asked = 0;
let sentText: string | undefined;
/** What the page shows: the latest answer, and the crawler name it was for. */
let shown: { rows: VerdictRow[]; agent: string; note?: string | undefined } = {
  rows: [],
  agent: '*',
};
let diagnostics: readonly Diagnostic[] = [];
/** What the names typed were read as, for the answer on its way. */
let pendingNote: string | undefined;

/** Sends what changed to the worker; its answer repaints (the latest only). */
function render(): void {
  const text = robotsInput.value;
  // A version or a whole User-Agent header is read as robots.txt names crawlers, and said
  // so; comma-separated names are ordered fallbacks, as everywhere.
  const names = crawlerNames(agentInput.value.trim() || '*');
  const notes = names.flatMap((n) => (n.note ? [n.note] : []));
  if (fetched && fetched.text !== text) {
    // Edited: the text is the user's own now, not what the site served.
    fetched = undefined;
    fetchStatus.textContent = '';
  }
  const urls = urlsInput.value
    .split('\n')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  if (selected === undefined || !urls.includes(selected)) selected = urls[0];
  liveUsage.follow(selected);
  const request: TesterRequest = {
    id: ++asked,
    profile: profileInput.value as ProfileName,
    agents: names.map((n) => n.token),
    urls,
    ...(text !== sentText ? { text } : {}),
  };
  sentText = text;
  pendingNote = notes.length > 0 ? notes.join('; ') : undefined;
  worker.postMessage(request);
  paintLines(); // the line count may have changed; marks follow with the answer
}

worker.onmessage = (event: MessageEvent<TesterAnswer>) => {
  const answer = event.data;
  if (answer.diagnostics) {
    diagnostics = answer.diagnostics;
    markedFor = undefined; // problem marks are drawn with the lines
  }
  // Also after a fetch that left the text as it was: what Problems says follows the fetch.
  renderDiagnostics();
  if (answer.id !== asked) return; // a newer request is on its way
  const rows: VerdictRow[] = fetched?.unreachable
    ? answer.rows.map((row) => ({ kind: 'unreachable', url: row.url, allowed: false, line: 0 }))
    : answer.rows;
  shown = { rows, agent: answer.agent, note: pendingNote };
  const stated = rows.some((row) => row.kind === 'rules' && row.usage.stated);
  document.body.classList.toggle('with-usage', stated);
  renderResults(rows, stated);
  paintLines();
  const judged = rows.filter((row) => row.kind !== 'invalid');
  const blocked = judged.filter((row) => !row.allowed).length;
  const invalid = rows.length - judged.length;
  const note = shown.note ? ` (${shown.note})` : '';
  // A text that is no robots.txt at all leads: it is why nothing is restricted.
  const notRobots = answer.notRobotsTxt
    ? `Not a robots.txt (${NOT_ROBOTS_TXT_WORDS[answer.notRobotsTxt]}): no rule in it applies, so every URL is allowed. `
    : '';
  const skipped = invalid ? ` · ${invalid} line(s) not a URL` : '';
  summary.textContent = rows.length
    ? `${notRobots}${shown.agent}: ${judged.length - blocked} allowed, ${blocked} disallowed${describeGroup(judged[0])}${skipped}${note}`
    : 'Add URLs to see verdicts.';
};

/** A URL's Content-Usage preferences in a few words (`train-ai: no (line 4) · search: yes`). */
function describeUsage(row: VerdictRow): string {
  if (row.kind !== 'rules') return '';
  const { usage } = row;
  if (!usage.crawlable) return 'none (not crawlable)';
  if (!usage.stated) return 'none stated';
  const word = { allowed: 'yes', disallowed: 'no', unknown: 'unstated' } as const;
  return Object.entries(usage.labels)
    .map(
      ([label, { preference, said }]) =>
        `${label}: ${word[preference]}${said.length > 0 ? ` (${said.join('; ')})` : ''}`,
    )
    .join(' · ');
}

function describeGroup(row: VerdictRow | undefined): string {
  if (!row) return '';
  if (row.kind === 'invalid') return '';
  if (row.kind === 'unreachable')
    return ' · the robots.txt is unreachable, so Google crawls nothing for now';
  if (row.reason === 'ignores-global-group')
    return ' · a Google special-case crawler: it obeys only groups that name it, never the * group';
  if (!row.group)
    return row.reason === 'no-matching-group' ? ' · no group applies: nothing is restricted' : '';
  return row.group.scope === 'specific'
    ? ` · rules of its own group (line ${row.group.lines.join(', ')})`
    : ` · no group names it, so the * group (line ${row.group.lines.join(', ')})`;
}

function describeRow(row: VerdictRow): string {
  if (row.kind === 'unreachable') return 'robots.txt unreachable: nothing is crawled for now';
  if (row.kind === 'invalid') return 'not an http(s) URL or a path starting with /: not judged';
  if (row.rule && row.reason !== 'no-matching-rule') {
    const cut = row.lineCut ? ' (line cut by the 500 KiB limit: read only this far)' : '';
    return `line ${row.line}: ${row.rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${row.rule.value}${row.tieBreak ? ' (tie: allow wins)' : ''}${cut}`;
  }
  return row.reason === 'ignores-global-group'
    ? 'only the * group names it, and it ignores that group'
    : row.reason === 'no-matching-group'
      ? 'no group for this crawler'
      : row.reason === 'robots-txt-always-allowed'
        ? '/robots.txt is always allowed'
        : 'no rule matches';
}

function renderResults(rows: readonly VerdictRow[], withUsage: boolean): void {
  results.replaceChildren(
    ...rows.map((row) => {
      const tr = element('tr', row.url === selected ? 'selected' : undefined);
      tr.dataset.url = row.url;
      tr.dataset.line = String(row.line);
      const verdictText =
        row.kind === 'invalid' ? 'not a URL' : row.allowed ? 'allowed' : 'disallowed';
      const cell = element('td');
      cell.append(
        element(
          'span',
          `badge verdict ${row.kind === 'invalid' ? 'invalid' : verdictText}`,
          verdictText,
        ),
      );
      tr.append(element('td', 'url', row.url), cell, element('td', 'why', describeRow(row)));
      if (withUsage) tr.append(element('td', 'usage', describeUsage(row)));
      // Reachable and selectable from the keyboard, as from the mouse.
      tr.tabIndex = 0;
      tr.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          tr.click();
        }
      });
      tr.addEventListener('click', () => {
        selected = row.url;
        liveUsage.follow(selected);
        for (const other of results.querySelectorAll('tr.selected'))
          other.classList.remove('selected');
        tr.classList.add('selected');
        if (row.line > 0) revealLine(row.line, false);
        paintLines();
      });
      return tr;
    }),
  );
}

/**
 * The layer over the editor: line numbers, the deciding and selected lines tinted, problems
 * marked. Only the lines in sight (and some around them) exist; they are kept while the
 * window and the marks stay the same, and only their classes change when the verdicts do.
 */
let drawn = new Map<number, HTMLElement>();
let markedFor: readonly Diagnostic[] | undefined;
/** A line chosen from the problem list, shown as selected until the URLs select another. */
let pinned: number | undefined;

/** Lines in the editor, counted when its text changes (the text box's value ends lines with LF). */
let lines = 1;
function countLines(): void {
  const text = robotsInput.value;
  let count = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  lines = count;
}

function paintLines(): void {
  const top = robotsInput.scrollTop;
  viewLines.style.transform = `translateY(${-top}px)`;
  const first = Math.max(1, Math.floor(top / LINE_HEIGHT) + 1 - OVERSCAN);
  const last = Math.min(
    lines,
    Math.ceil((top + robotsInput.clientHeight) / LINE_HEIGHT) + OVERSCAN,
  );
  // Lint marks by line, redrawn when the problems change.
  if (markedFor !== diagnostics) {
    for (const row of drawn.values()) row.remove();
    drawn = new Map();
    markedFor = diagnostics;
  }
  const byLine = new Map<number, Diagnostic[]>();
  for (const d of diagnostics) {
    if (d.line >= first && d.line <= last) byLine.set(d.line, [...(byLine.get(d.line) ?? []), d]);
  }
  for (const [number, row] of drawn) {
    if (number < first || number > last) {
      row.remove();
      drawn.delete(number);
    }
  }
  for (let number = first; number <= last; number++) {
    if (drawn.has(number)) continue;
    const row = element('div', 'line');
    row.dataset.line = String(number);
    row.style.top = `${(number - 1) * LINE_HEIGHT}px`;
    row.append(element('span', 'no', String(number)));
    const marks = byLine.get(number);
    if (marks) {
      const box = element('span', 'marks');
      for (const d of marks) {
        const marker = element('span', `lint-marker lint-${d.severity}`, d.code);
        marker.title = d.message;
        box.append(marker);
      }
      row.append(box);
    }
    viewLines.append(row);
    drawn.set(number, row);
  }
  const deciding = new Map<number, string>();
  for (const row of shown.rows) {
    if (row.kind === 'rules' && row.line > 0 && row.reason !== 'no-matching-rule') {
      deciding.set(row.line, row.allowed ? 'decides-allow' : 'decides-deny');
    }
  }
  const selectedLine = pinned ?? shown.rows.find((row) => row.url === selected)?.line ?? 0;
  for (const [number, row] of drawn) {
    const kind = deciding.get(number);
    row.classList.toggle('decides-allow', kind === 'decides-allow');
    row.classList.toggle('decides-deny', kind === 'decides-deny');
    row.classList.toggle('selected', number === selectedLine);
  }
}

/** Scrolls the editor to line `number` (centred), optionally selecting its text. */
function revealLine(number: number, selectText: boolean): void {
  const target = (number - 1) * LINE_HEIGHT - robotsInput.clientHeight / 2 + LINE_HEIGHT;
  const top = robotsInput.scrollTop;
  if (
    selectText ||
    (number - 1) * LINE_HEIGHT < top ||
    number * LINE_HEIGHT > top + robotsInput.clientHeight
  ) {
    robotsInput.scrollTop = Math.max(0, target);
  }
  if (!selectText) return;
  // One pass to the line's start (CR, LF and CRLF each end a line), then select it.
  const text = robotsInput.value;
  let start = 0;
  for (let line = 1; line < number && start < text.length; start++) {
    const c = text.charCodeAt(start);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(start + 1) !== 0x0a)) line++;
  }
  let end = start;
  while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
  robotsInput.focus({ preventScroll: true });
  robotsInput.setSelectionRange(start, end);
  robotsInput.scrollTop = Math.max(0, target);
}

/** Problems listed at most: a hostile file can have one per line. */
const MAX_LISTED = 500;

function renderDiagnostics(): void {
  if (fetched?.unreachable) {
    // The empty text stands for no file at all: its lint ("empty file: everything may be
    // fetched") would say the opposite of the verdicts.
    diagnosticsList.replaceChildren(
      element(
        'li',
        'none',
        'Nothing to lint: the robots.txt could not be read, so a crawler fetches nothing of the site for now.',
      ),
    );
    return;
  }
  const more = diagnostics.length - MAX_LISTED;
  diagnosticsList.replaceChildren(
    ...(diagnostics.length
      ? diagnostics.slice(0, MAX_LISTED).map((d) => {
          const item = element('li');
          item.dataset.code = d.code;
          item.dataset.line = String(d.line);
          item.title = `Go to line ${d.line}`;
          item.addEventListener('click', () => {
            pinned = d.line;
            revealLine(d.line, true);
            paintLines();
          });
          item.append(
            element('span', 'at', `line ${d.line}`),
            element('span', `lint-marker lint-${d.severity}`, d.severity),
            element('span', undefined, d.message),
          );
          return item;
        })
      : [element('li', 'none', 'No problems found.')]),
    ...(more > 0 ? [element('li', 'none', `… and ${more} more (repkit lint lists them all)`)] : []),
  );
}

let pending: number | undefined;
function schedule(): void {
  window.clearTimeout(pending);
  pending = window.setTimeout(render, 30);
}

robotsInput.addEventListener('scroll', () => paintLines(), { passive: true });
robotsInput.addEventListener('input', () => {
  pinned = undefined;
  countLines();
  paintLines();
  schedule();
});
for (const input of [agentInput, urlsInput]) {
  input.addEventListener('input', () => {
    pinned = undefined;
    schedule();
  });
}
profileInput.addEventListener('change', render);
new ResizeObserver(() => paintLines()).observe(robotsInput);

// Enter in the box fetches, as the button does (the row is a form).
$<HTMLFormElement>('fetch-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const given = fetchUrl.value.trim();
  if (!given) return;
  // A bare domain (`example.com`) is read as its https site, and said so.
  const bare = !/^[a-z][a-z0-9+.-]*:\/\//i.test(given);
  const url = bare ? `https://${given}` : given;
  const readAs = bare ? ` (read as ${url})` : '';
  fetchStatus.textContent = `Fetching the robots.txt of ${url}…`;
  try {
    const response = await apiFetch(`/v1/robots?url=${encodeURIComponent(url)}`);
    const data = (await response.json()) as {
      robotsUrl?: string;
      status?: number;
      outcome?: string;
      body?: string;
      bodyOmitted?: string;
      message?: string;
      edge?: Edge;
      reading?: 'unreachable' | 'literal';
    };
    if (!response.ok) {
      fetchStatus.textContent = `${data.message ?? `The service answered ${response.status}.`}${readAs}`;
      return;
    }
    if (data.bodyOmitted) {
      fetchStatus.textContent = `Not shown: ${data.bodyOmitted}.`;
      return;
    }
    robotsInput.value = data.body ?? '';
    countLines(); // set by script: no input event
    const origin = new URL(data.robotsUrl ?? url).origin;
    // URLs of the site fetched before do not linger: the new site's home replaces them.
    const previous = fetched?.origin;
    const listed = urlsInput.value
      .split('\n')
      .map((u) => u.trim())
      .filter((u) => u !== '');
    // So do the sample URLs the page opens with, as long as they are untouched.
    if (
      listed.length === 0 ||
      urlsInput.value === SAMPLE_URLS ||
      (previous && listed.every((u) => u.startsWith(previous)))
    ) {
      urlsInput.value = `${origin}/`;
    }
    // Unreachable with no earlier copy: Google crawls nothing (with one, it uses that copy).
    // So does a wall counted as unreachable, whatever page it served.
    const unreachable =
      (data.outcome === 'error' && !data.body) || (!!data.edge && data.reading === 'unreachable');
    fetched = { text: robotsInput.value, unreachable, origin };
    // A wall (or a 402) in the file's place: what it is, its evidence, and how it was read.
    const wall =
      data.edge && data.reading
        ? `${data.robotsUrl}: ${describeEdge(data.edge)}. ${
            data.reading === 'unreachable'
              ? 'Counted as unreachable: a crawler fetches nothing of the site for now.'
              : 'Read literally, as Google reads its status.'
          }`
        : undefined;
    fetchStatus.textContent =
      (bare ? `${given} read as ${url}. ` : '') +
      (wall ??
        (data.outcome === 'ok'
          ? `${data.robotsUrl}: HTTP ${data.status}`
          : data.outcome === 'not-found'
            ? `${data.robotsUrl}: no robots.txt (HTTP ${data.status}), so nothing is restricted`
            : `${data.robotsUrl}: unreachable, so Google would crawl nothing for now`));
    render();
  } catch (error) {
    fetchStatus.textContent = `Could not fetch: ${(error as Error).message}`;
  }
});

/** The live panel: the combined answer for the selected URL, from the service. */
const liveUsage = livePanel({
  selected: () => selected,
  agent: () => agentInput.value.trim() || '*',
});

// Open, drop, and a link to the page as it is (read first: a link's state is the start).
wireFileAndLink({
  robots: robotsInput,
  agent: agentInput,
  profile: profileInput,
  urls: urlsInput,
  status: fetchStatus,
  changed: () => {
    countLines();
    render();
  },
});

setUpToken();
countLines();
render();
