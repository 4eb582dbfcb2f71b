/**
 * `repkit/tokenizer`: the token stream every robots.txt reader of repkit consumes (Google's
 * `ParseRobotsTxt(body, handler)` seam), for tools that want the lines as Google reads them.
 */
export { tokenizeBody } from './tokens/body.ts';
export {
  MAX_LINE_BYTES,
  type Directive,
  type DirectiveKind,
  type LineInfo,
  type TokenHandler,
} from './tokens/tokenizer.ts';
