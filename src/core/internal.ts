/**
 * What repkit's other areas use of the core and users do not: not a package entry, and not
 * part of the public surface (see ARCHITECTURE.md, "doors"). The structure test holds it to
 * names another area imports, at most 16; a type is named where it is used
 * (`ReturnType<typeof decideUsage>`), not here.
 */
export { describeSource } from './answers/usage-source.ts';
export { ignoresGlobalGroup } from './answers/special-crawlers.ts';
export { robotsTxtStatements, decideUsage } from './answers/robots-txt-usage.ts';
export { statementPreferences as usagePreferences } from './match/content-usage.ts';
export { isGlobalAgent } from './agents/names.ts';
export { serialisedOrigin } from './match/url.ts';
export { NOT_ROBOTS_TXT_WORDS } from './text/file-kind.ts';
export { describeEdge, EDGE_HEAD_BYTES } from './edge/classify.ts';
export { parsePriceHeader } from './edge/price.ts';
export { parseList as parseStructuredList } from './match/structured-fields.ts';
export { loadWithPeer } from './errors.ts';
export { BoundedMap } from './bounded-map.ts';
export { DEFAULT_MAX_BYTES } from './tokens/body.ts';
export { CRAWL_DELAY_KEYS } from './model/extras.ts';
