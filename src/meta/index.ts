/**
 * repkit/meta: the page-level rules (robots meta tags and X-Robots-Tag), per crawler, and the
 * combined answer with robots.txt: may I fetch it, index it, follow its links.
 */
export {
  pagePolicy,
  MAX_DIRECTIVES,
  type PagePolicyResult,
  type AppliedDirective,
  type DirectiveSource,
  type PagePolicyProblem,
  type HeadersInput,
} from './policy.ts';
export type { PagePolicy, PolicyField } from './directives.ts';
export {
  MAX_HEAD_CHARS,
  MAX_META_TAGS,
  type HeadRead,
  type HtmlInput,
  type MetaTag,
} from './html.ts';
export {
  crawlDecision,
  linkRel,
  type CrawlDecision,
  type LinkRel,
  type RobotsVerdict,
} from './crawl.ts';
