import { BoundedMap } from '../core/internal.ts';
import type { Admission } from './admission.ts';
import { originOf } from './deferral.ts';

/** How many waiting hosts are remembered; past that, the oldest is forgotten (and may log again). */
const MAX_HOSTS = 10_000;

interface Logger {
  info(message: string): void;
  warning(message: string): void;
  debug(message: string): void;
}

/**
 * One log line when a host starts to wait (why, until when) and one when it resumes, through
 * Crawlee's logger; waits for a Crawl-delay turn are at debug level. A crawl held by a
 * robots.txt that answers 503 then says so, instead of sitting silent.
 */
export class WaitingLog {
  /** Hosts (origins) announced as waiting, with why. */
  readonly #waiting = new BoundedMap<string, string>({ maxEntries: MAX_HOSTS });

  constructor(private readonly log: Logger) {}

  /** Notes the admission of `url`, deferred for `ms` when it is a deferral. */
  note(url: string, admission: Admission, ms = 0): void {
    const origin = originOf(url);
    if (admission.kind !== 'defer') {
      if (origin !== undefined && this.#waiting.delete(origin)) {
        this.log.info(`repkit: ${origin} resumes`);
      }
      return;
    }
    const until = new Date(Date.now() + ms).toISOString();
    const turnOnly = admission.why === 'politeness' && ms <= (admission.spacingMs ?? 0);
    if (turnOnly || origin === undefined) {
      this.log.debug(`repkit: ${url} waits ${ms} ms for its host's turn (Crawl-delay)`);
      return;
    }
    const why =
      admission.why === 'robots-txt-unreachable'
        ? admission.result?.reason === 'robots-txt-challenge'
          ? `its robots.txt cannot be read: ${admission.result.error ?? 'a bot wall answered'} (the client tries again then)`
          : 'its robots.txt cannot be read (the client tries again then)'
        : admission.why === 'store-error'
          ? `the store failed (${admission.error ?? 'error'}); nothing is requested without a verdict and a turn`
          : 'the host asked to slow down (429/503 Retry-After)';
    if (this.#waiting.peek(origin) === admission.why) return;
    this.#waiting.set(origin, admission.why);
    const line = `repkit: ${origin} deferred until ${until}: ${why}`;
    if (admission.why === 'store-error') this.log.warning(line);
    else this.log.info(line);
  }
}
