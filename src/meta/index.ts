/**
 * repkit/meta: the page-level rules (robots meta tags and X-Robots-Tag), per crawler, and the
 * combined answer with robots.txt: may I fetch it, index it, follow its links. The shapes
 * inside these types are named by where they are: `PagePolicyResult['applied']`.
 */
export { pagePolicy, MAX_DIRECTIVES, type PagePolicyResult, type HeadersInput } from './policy.ts';
export type { PagePolicy } from './directives.ts';
export { MAX_HEAD_CHARS, MAX_META_TAGS, type HtmlInput } from './html.ts';
export { crawlDecision, linkRel, type CrawlDecision } from './crawl.ts';
