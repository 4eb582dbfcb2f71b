/**
 * Well-known crawlers `repkit agents` reports on: search engines and AI crawlers, by the
 * product token their operators document for robots.txt. Keep sorted by owner.
 */
export interface KnownAgent {
  /** The robots.txt name (product token). */
  name: string;
  owner: string;
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

export const KNOWN_AGENTS: readonly KnownAgent[] = [
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
  { name: 'AdsBot-Google', owner: 'Google', purpose: 'ads' },
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
];
