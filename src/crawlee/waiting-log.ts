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
 * Crawlee's logger. A crawl held by a robots.txt that answers 503 then says so, instead of
 * sitting silent. Waits for the host's turns are ordinary crawling, at debug level: a host
 * is said to have asked to slow down only after it answered 429 or 503 (`pausedBy`).
 */
export class WaitingLog {
  /** Hosts (origins) announced as waiting, with why. */
  readonly #waiting = new BoundedMap<string, string>({ maxEntries: MAX_HOSTS });
  /** Hosts that answered 429 or 503 to this crawler: until when they are paused. */
  readonly #paused = new BoundedMap<string, number>({ maxEntries: MAX_HOSTS });

  constructor(
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** `origin` answered 429 or 503: it is paused for `ms`. */
  pausedBy(origin: string, ms: number): void {
    this.#paused.set(origin, this.now() + ms);
  }

  /** Notes the admission of `url`, deferred for `ms` when it is a deferral. */
  note(url: string, admission: Admission, ms = 0): void {
    const origin = originOf(url);
    if (admission.kind !== 'defer') {
      if (origin !== undefined && this.#waiting.delete(origin)) {
        this.log.info(`repkit: ${origin} resumes`);
      }
      return;
    }
    const now = this.now();
    const until = new Date(now + ms).toISOString();
    const paused = origin !== undefined && (this.#paused.peek(origin) ?? 0) > now;
    if (admission.why === 'politeness' && !paused) {
      const delay = admission.spacingMs
        ? `Crawl-delay ${admission.spacingMs / 1000} s`
        : 'no Crawl-delay';
      this.log.debug(
        `repkit: ${url} waits ${ms} ms for its host's turn (${delay}; or a pause another process sharing the store was asked for)`,
      );
      return;
    }
    if (origin === undefined) return;
    const why =
      admission.why === 'robots-txt-unreachable'
        ? admission.result?.reason === 'robots-txt-challenge'
          ? `its robots.txt cannot be read: ${admission.result.error ?? 'a bot wall answered'} (the client tries again then)`
          : 'its robots.txt cannot be read (the client tries again then)'
        : admission.why === 'store-error'
          ? `the store failed (${admission.error ?? 'error'}); nothing is requested without a verdict and a turn`
          : admission.why === 'crawl-delay-over-limit'
            ? `its robots.txt asks for a Crawl-delay of ${(admission.spacingMs ?? 0) / 1000} s, over politeness.maxCrawlDelayMs (not crawled faster than asked; the file is read again then)`
            : 'the host asked to slow down (429/503 Retry-After)';
    if (this.#waiting.peek(origin) === admission.why) return;
    this.#waiting.set(origin, admission.why);
    const line = `repkit: ${origin} deferred until ${until}: ${why}`;
    if (admission.why === 'store-error') this.log.warning(line);
    else this.log.info(line);
  }
}
