/**
 * repkit/guards: robots.txt kept by the HTTP clients crawlers are built on, one line each,
 * sharing one `RobotsClient` (its cache, store and politeness): a `fetch` wrapper, an undici
 * interceptor, and a Playwright page guard. Each refuses a request robots.txt disallows with a `DisallowedError`
 * naming the deciding line, and defers (`DeferredError`, never a request) while a robots.txt
 * cannot be read or the host's turn has not come.
 *
 * @module repkit/guards
 */
export { robotsFetch, type RobotsFetchOptions } from './fetch.ts';
export { robotsInterceptor } from './interceptor.ts';
export {
  guardPage,
  type GuardablePage,
  type PageGuard,
  type PageGuardOptions,
  type RouteLike,
  type RequestLike,
} from './page.ts';
export type { GuardOptions } from './decide.ts';
export {
  DeferredError,
  DisallowedError,
  isDeferredError,
  isDisallowedError,
  refusalOf,
} from './errors.ts';
