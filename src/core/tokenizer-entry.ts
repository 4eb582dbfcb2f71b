/**
 * `repkit/tokenizer`: the token stream every robots.txt reader of repkit consumes (Google's
 * `ParseRobotsTxt(body, handler)` seam), for tools that want the lines as Google reads them.
 *
 * @module repkit/tokenizer
 */
export { tokenizeBody } from './tokens/body.ts';
export {
  MAX_LINE_BYTES,
  type Directive,
  type DirectiveKind,
  type KnownKind,
  type LineInfo,
  type TokenHandler,
} from './tokens/tokenizer.ts';
