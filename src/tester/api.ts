/**
 * The tester's calls to the service's API. A service run with `--token` answers them 401
 * until the page has its token: the page then shows the token field, keeps what is given
 * in this tab's session storage (never in the URL, gone when the tab closes) and sends it as
 * `Authorization: Bearer`.
 */
import { $ } from './dom.ts';

const KEY = 'repkit-token';

function storedToken(): string | undefined {
  try {
    return sessionStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined; // storage refused (a sandboxed frame): no token kept
  }
}

/** `fetch(path)` with the session's token; a 401 opens the token field. */
export async function apiFetch(path: string): Promise<Response> {
  const token = storedToken();
  const response = await fetch(
    path,
    token ? { headers: { authorization: `Bearer ${token}` } } : {},
  );
  if (response.status === 401) askForToken(token !== undefined);
  return response;
}

function askForToken(hadOne: boolean): void {
  const form = $<HTMLFormElement>('token-form');
  form.hidden = false;
  $('token-status').textContent = hadOne
    ? 'The service refused this token: give the one it runs with, then try again.'
    : 'This service asks for a token (repkit serve --token): give it, then try again.';
  $<HTMLInputElement>('token').focus();
}

/** Wires the token field: what is given is kept for this tab's session. */
export function setUpToken(): void {
  const form = $<HTMLFormElement>('token-form');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const input = $<HTMLInputElement>('token');
    const token = input.value.trim();
    if (!token) return;
    try {
      sessionStorage.setItem(KEY, token);
    } catch {
      // kept nowhere: the next call asks again
    }
    input.value = '';
    $('token-status').textContent = 'Token kept for this tab; it is sent with each call.';
  });
}
