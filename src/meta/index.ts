/**
 * repkit/meta: the page-level rules (robots meta tags and X-Robots-Tag), per crawler, and the
 * combined answer with robots.txt: may I fetch it, index it, follow its links. Every type a
 * public signature uses is exported by name.
 *
 * @module repkit/meta
 */
export {
  pagePolicy,
  MAX_DIRECTIVES,
  type PagePolicyResult,
  type HeadersInput,
  type AppliedDirective,
  type PagePolicyProblem,
} from './policy.ts';
export type { PagePolicy, PolicyField } from './directives.ts';
export type { DirectiveSource } from './directive-source.ts';
export { MAX_HEAD_CHARS, MAX_META_TAGS, type HtmlInput } from './html.ts';
export {
  crawlDecision,
  linkRel,
  type CrawlDecision,
  type RobotsVerdict,
  type LinkRel,
} from './crawl.ts';
