/**
 * Environments for the child processes tests start, built rather than inherited: what a
 * process needs to run (PATH, HOME, the locale, a temp dir) and what the test gives, and
 * nothing of the runner's that would change what is tested (REDIS_URL, REPKIT_*, HOST,
 * PORT, proxy variables, colour settings, GITHUB_ACTIONS).
 */
const KEPT = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'TMP', 'TEMP', 'SYSTEMROOT', 'TZ'];

export function childEnv(given: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of KEPT) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}
