/**
 * Getting a file in and the page's state out: open a file, drop one on the editor, and a
 * link that reproduces what the page shows (the text, the crawler, the rules' reading and
 * the URLs, in the link's fragment, which is never sent to a server).
 */

interface Inputs {
  robots: HTMLTextAreaElement;
  agent: HTMLInputElement;
  profile: HTMLSelectElement;
  urls: HTMLTextAreaElement;
  /** Where to say what happened. */
  status: HTMLElement;
  /** The text, crawler or URLs were set by script: redraw. */
  changed(): void;
}

/** The longest text a link carries: browsers and chat tools cut longer URLs. */
const LINK_AT_MOST = 32 * 1024;

export function wireFileAndLink(inputs: Inputs): void {
  const { robots, status } = inputs;
  const load = async (file: File) => {
    robots.value = new TextDecoder().decode(await file.arrayBuffer());
    // Redrawn first: a new text clears what was said of the last fetch.
    inputs.changed();
    status.textContent = `Opened ${file.name} (${file.size.toLocaleString('en')} bytes).`;
  };
  const picker = document.getElementById('open-file') as HTMLInputElement;
  document.getElementById('open')!.addEventListener('click', () => picker.click());
  picker.addEventListener('change', () => {
    if (picker.files?.[0]) void load(picker.files[0]);
  });
  const editor = document.getElementById('editor')!;
  editor.addEventListener('dragover', (event) => event.preventDefault());
  editor.addEventListener('drop', (event) => {
    const file = event.dataTransfer?.files[0];
    if (!file) return;
    event.preventDefault();
    void load(file);
  });

  document.getElementById('link')!.addEventListener('click', () => {
    if (robots.value.length > LINK_AT_MOST) {
      status.textContent = `The text is too long for a link (over ${LINK_AT_MOST / 1024} KiB): share the file itself.`;
      return;
    }
    const state = new URLSearchParams({
      robots: robots.value,
      agent: inputs.agent.value,
      profile: inputs.profile.value,
      urls: inputs.urls.value,
    });
    history.replaceState(null, '', `#${state}`);
    const link = document.createElement('a');
    link.href = location.href;
    link.id = 'state-link';
    link.textContent = 'this link';
    status.replaceChildren('The page as it is now: ', link, ' (the address bar has it too).');
  });

  // A link's state, when the page opens with one.
  if (location.hash.length > 1) {
    const state = new URLSearchParams(location.hash.slice(1));
    const robotsText = state.get('robots');
    if (robotsText !== null) robots.value = robotsText;
    inputs.agent.value = state.get('agent') ?? inputs.agent.value;
    const profile = state.get('profile');
    if (profile && [...inputs.profile.options].some((o) => o.value === profile)) {
      inputs.profile.value = profile;
    }
    inputs.urls.value = state.get('urls') ?? inputs.urls.value;
  }
}
