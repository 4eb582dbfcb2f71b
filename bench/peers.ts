/**
 * The implementations measured side by side: repkit and the npm package robots-parser (the
 * most used JavaScript parser). Each is wrapped to the same two operations.
 */
import robotsParserModule from 'robots-parser';
import { parse } from '../src/core/index.ts';

export interface Peer {
  name: string;
  /** Parses a body; returns something that can check URLs. */
  parse(body: string): { check(url: string, agent: string): boolean };
  /** The same from the bytes as served, as a crawler has them (decoded first if the peer needs text). */
  parseBytes(body: Uint8Array): { check(url: string, agent: string): boolean };
}

const decoder = new TextDecoder();

const ROBOTS_URL = 'https://example.com/robots.txt';

// robots-parser is CommonJS (`module.exports = fn`); its typings describe an ES default export.
const robotsParser = robotsParserModule as unknown as (
  url: string,
  body: string,
) => { isAllowed(url: string, ua?: string): boolean | undefined };

export const PEERS: Peer[] = [
  {
    name: 'repkit',
    parse(body) {
      const robots = parse(body);
      return { check: (url, agent) => robots.isAllowed(url, agent) };
    },
    parseBytes(body) {
      const robots = parse(body);
      return { check: (url, agent) => robots.isAllowed(url, agent) };
    },
  },
  {
    name: 'robots-parser',
    parse(body) {
      const robots = robotsParser(ROBOTS_URL, body);
      return { check: (url, agent) => robots.isAllowed(url, agent) !== false };
    },
    parseBytes(body) {
      const robots = robotsParser(ROBOTS_URL, decoder.decode(body));
      return { check: (url, agent) => robots.isAllowed(url, agent) !== false };
    },
  },
];

export function peer(name: string): Peer {
  const found = PEERS.find((p) => p.name === name);
  if (!found) throw new Error(`unknown peer ${name}`);
  return found;
}
