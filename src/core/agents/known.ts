import { AI_ROBOTS_TXT, type AiRobotsTxtEntry } from './ai-robots-txt.ts';

/**
 * Well-known crawlers `repkit agents` and the tester report on: search engines and AI
 * crawlers, by the name their operators document for robots.txt. repkit's own list (sorted
 * by owner) comes first; the ai.robots.txt project's list adds the rest.
 */
export interface KnownAgent {
  /** The robots.txt name, as its operator writes it (not always a product token: `AI2Bot`). */
  name: string;
  /** Who runs it (`Google`, `OpenAI`...). */
  owner: string;
  /** What it does, in ai.robots.txt's words, when the entry comes from there. */
  function?: string;
  /** Whether it obeys robots.txt, where documented; undefined when not known. */
  respectsRobotsTxt?: boolean;
  /** Google's special-case crawlers: only a group naming them applies, never the `*` group. */
  ignoresGlobalGroup?: boolean;
  /** Fetches a user asked for, which ignore robots.txt (Google's user-triggered fetchers). */
  userTriggered?: boolean;
  /** Where the entry comes from: repkit's own list, or the ai.robots.txt project's. */
  source: 'repkit' | 'ai.robots.txt';
  /** What its fetches are for. */
  purpose:
    | 'search'
    | 'ai-training'
    | 'ai-search'
    | 'ai-assistant'
    | 'ads'
    | 'archive'
    | 'social'
    | 'other';
}

/** ai.robots.txt's entries by lower-cased name (names compare without case, as robots.txt does); the first of a name kept. */
const LISTED = new Map<string, AiRobotsTxtEntry>();
for (const entry of AI_ROBOTS_TXT) {
  if (!LISTED.has(entry.name.toLowerCase())) LISTED.set(entry.name.toLowerCase(), entry);
}

/** repkit's own entries, by owner. */
const REPKIT_AGENTS: readonly KnownAgent[] = (
  [
    { name: 'Amazonbot', owner: 'Amazon', purpose: 'ai-search' },
    { name: 'anthropic-ai', owner: 'Anthropic', purpose: 'ai-training' },
    { name: 'ClaudeBot', owner: 'Anthropic', purpose: 'ai-training' },
    { name: 'Claude-User', owner: 'Anthropic', purpose: 'ai-assistant' },
    { name: 'Claude-SearchBot', owner: 'Anthropic', purpose: 'ai-search' },
    { name: 'Applebot', owner: 'Apple', purpose: 'search' },
    { name: 'Applebot-Extended', owner: 'Apple', purpose: 'ai-training' },
    { name: 'Baiduspider', owner: 'Baidu', purpose: 'search' },
    { name: 'Bytespider', owner: 'ByteDance', purpose: 'ai-training' },
    { name: 'CCBot', owner: 'Common Crawl', purpose: 'ai-training' },
    { name: 'cohere-ai', owner: 'Cohere', purpose: 'ai-assistant' },
    { name: 'DuckDuckBot', owner: 'DuckDuckGo', purpose: 'search' },
    { name: 'DuckAssistBot', owner: 'DuckDuckGo', purpose: 'ai-assistant' },
    { name: 'Googlebot', owner: 'Google', purpose: 'search' },
    { name: 'Googlebot-Image', owner: 'Google', purpose: 'search' },
    { name: 'Googlebot-News', owner: 'Google', purpose: 'search' },
    { name: 'Google-Extended', owner: 'Google', purpose: 'ai-training' },
    { name: 'GoogleOther', owner: 'Google', purpose: 'other' },
    { name: 'AdsBot-Google', owner: 'Google', purpose: 'ads', ignoresGlobalGroup: true },
    { name: 'Storebot-Google', owner: 'Google', purpose: 'search' },
    { name: 'ia_archiver', owner: 'Internet Archive', purpose: 'archive' },
    { name: 'meta-externalagent', owner: 'Meta', purpose: 'ai-training' },
    { name: 'FacebookBot', owner: 'Meta', purpose: 'ai-training' },
    { name: 'facebookexternalhit', owner: 'Meta', purpose: 'social' },
    { name: 'Bingbot', owner: 'Microsoft', purpose: 'search' },
    { name: 'GPTBot', owner: 'OpenAI', purpose: 'ai-training' },
    { name: 'OAI-SearchBot', owner: 'OpenAI', purpose: 'ai-search' },
    { name: 'ChatGPT-User', owner: 'OpenAI', purpose: 'ai-assistant' },
    { name: 'PerplexityBot', owner: 'Perplexity', purpose: 'ai-search' },
    { name: 'Perplexity-User', owner: 'Perplexity', purpose: 'ai-assistant' },
    { name: 'Twitterbot', owner: 'X', purpose: 'social' },
    { name: 'Slurp', owner: 'Yahoo', purpose: 'search' },
    { name: 'YandexBot', owner: 'Yandex', purpose: 'search' },

    // Google's special-case crawlers ignore the * group; its user-triggered fetchers ignore
    // robots.txt altogether (developers.google.com/search/docs/crawling-indexing).
    { name: 'AdsBot-Google-Mobile', owner: 'Google', purpose: 'ads', ignoresGlobalGroup: true },
    { name: 'Mediapartners-Google', owner: 'Google', purpose: 'ads', ignoresGlobalGroup: true },
    { name: 'FeedFetcher-Google', owner: 'Google', purpose: 'other', userTriggered: true },
    { name: 'Google-Site-Verification', owner: 'Google', purpose: 'other', userTriggered: true },
    { name: 'Google-Read-Aloud', owner: 'Google', purpose: 'other', userTriggered: true },
  ] as Omit<KnownAgent, 'source'>[]
).map((agent) => ({
  ...agent,
  // What ai.robots.txt knows of a crawler repkit also lists (what it does, whether it obeys).
  ...listedFacts(LISTED.get(agent.name.toLowerCase())),
  source: 'repkit' as const,
}));

/** The facts an ai.robots.txt entry adds to a crawler: what it does, whether it obeys. */
function listedFacts(entry: AiRobotsTxtEntry | undefined): Partial<KnownAgent> {
  return {
    ...(entry?.function ? { function: entry.function } : {}),
    ...(entry?.respectsRobotsTxt !== undefined
      ? { respectsRobotsTxt: entry.respectsRobotsTxt }
      : {}),
  };
}

/** The purpose an ai.robots.txt entry's function reads as. */
function purposeOf(entry: AiRobotsTxtEntry): KnownAgent['purpose'] {
  const text = (entry.function ?? '').toLowerCase();
  if (/train|dataset|scrap/.test(text)) return 'ai-training';
  if (/search/.test(text)) return 'ai-search';
  if (/assistant|agent|user|prompt/.test(text)) return 'ai-assistant';
  return 'other';
}

const OWN = new Set(REPKIT_AGENTS.map((agent) => agent.name.toLowerCase()));

/**
 * The crawlers repkit knows: Google's (with their documented behaviour) and the other
 * operators' (ai.robots.txt's list), one entry per robots.txt name, by owner.
 *
 * @example
 * ```ts
 * import { KNOWN_AGENTS } from 'repkit/agents';
 *
 * const training = KNOWN_AGENTS.filter((a) => a.purpose === 'ai-training').map((a) => a.name);
 * ```
 */
export const KNOWN_AGENTS: readonly KnownAgent[] = [
  ...REPKIT_AGENTS,
  ...[...LISTED]
    .filter(([name]) => !OWN.has(name))
    .map(([, entry]): KnownAgent => ({
      name: entry.name,
      owner: entry.operator ?? 'unknown',
      purpose: purposeOf(entry),
      ...listedFacts(entry),
      source: 'ai.robots.txt',
    })),
];
