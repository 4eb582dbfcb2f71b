/**
 * The tester's live panel: "Check its page" asks the service (`GET /v1/usage`) about the
 * selected URL as the site serves it now, and shows each answer with its source.
 */
import type { UsageAnswer } from '../fetch/index.ts';
import { describeEdge, describeSource } from '../core/internal.ts';
import { element } from './dom.ts';
import { apiFetch } from './api.ts';

export function livePanel(page: { selected(): string | undefined; agent(): string }): {
  /** Clears the panel when the selected URL is no longer the one it shows. */
  follow(selected: string | undefined): void;
} {
  const usageList = document.getElementById('usage') as HTMLDListElement;
  const usageStatus = document.getElementById('usage-status') as HTMLDivElement;
  /** The URL the live panel shows, until another is selected. */
  let usageFor: string | undefined;
  function clearUsage(): void {
    usageFor = undefined;
    usageList.replaceChildren();
    usageStatus.textContent = '';
  }

  /** The combined answer for the selected URL, from the service (`GET /v1/usage`). */
  (document.getElementById('usage-check') as HTMLButtonElement).addEventListener(
    'click',
    async () => {
      const url = page.selected();
      if (!url) {
        usageStatus.textContent = 'Add a URL first.';
        return;
      }
      const agent = page.agent();
      usageFor = url;
      usageStatus.textContent = `Checking ${url}…`;
      usageList.replaceChildren();
      try {
        const query = `url=${encodeURIComponent(url)}&agent=${encodeURIComponent(agent)}`;
        const response = await apiFetch(`/v1/usage?${query}`);
        const data = (await response.json()) as UsageAnswer & { message?: string };
        if (!response.ok) {
          usageStatus.textContent = data.message ?? `The service answered ${response.status}.`;
          return;
        }
        const edge = data.page?.edge ? `, ${describeEdge(data.page.edge)}` : '';
        usageStatus.textContent = `${data.url} for ${data.agent.join(', ')}${data.page ? ` (page: HTTP ${data.page.status || data.page.error}${edge})` : ''}`;
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
    },
  );
  return {
    follow(selected) {
      if (usageFor !== undefined && usageFor !== selected) clearUsage();
    },
  };
}
