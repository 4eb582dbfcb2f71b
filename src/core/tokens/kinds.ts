/** The directives Google's parser tells apart; every other key is `unknown`. */
export type KnownKind = 'user-agent' | 'allow' | 'disallow' | 'sitemap';
/** What a line's key was read as (typos Google accepts included). */
export type DirectiveKind = KnownKind | 'unknown';
