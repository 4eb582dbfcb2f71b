/**
 * A robots.txt test spec (`repkit test`): the file under test and what must hold of it, read
 * from YAML (a JSON file is YAML too) with the line of every expectation, so that a failure
 * and a mistake in the spec both name the spec's line.
 *
 * ```yaml
 * robots: public/robots.txt      # a file (relative to the spec), or a site URL
 * site: https://example.com      # base for paths (default: the robots URL's origin)
 * expect:
 *   - agent: Googlebot           # or [Googlebot-Image, Googlebot]: ordered fallbacks
 *     allow: [/, /products/shoes]
 *     disallow: [/cart]
 *     usage: { train-ai: disallowed }
 * ```
 */
import { isValidProductToken } from '../core/index.ts';
import type { ContentUsage } from '../core/index.ts';

type UsageLabel = keyof ContentUsage['preferences'];
import { CliError } from './errors.ts';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type YamlNode } from './toolkit.ts';

export type Expected = 'allowed' | 'disallowed' | 'unknown';

/** One URL (or path) that must be allowed or disallowed, and the spec line that says so. */
export interface UrlExpectation {
  agents: string[];
  url: string;
  expect: 'allowed' | 'disallowed';
  line: number;
}

/** A usage preference that must hold, for the expectation's URLs (or `/`). */
export interface UsageExpectation {
  agents: string[];
  label: UsageLabel;
  expect: Expected;
  urls: string[];
  line: number;
}

export interface Spec {
  /** The spec's path, as given. */
  file: string;
  robots?: { value: string; line: number };
  site?: string;
  urls: UrlExpectation[];
  usage: UsageExpectation[];
}

const TOP_KEYS = new Set(['robots', 'site', 'expect']);
const EXPECT_KEYS = new Set(['agent', 'allow', 'disallow', 'usage']);
const USAGE_LABELS = new Set<string>(['train-ai', 'search']);
const PREFERENCES = new Set<string>(['allowed', 'disallowed', 'unknown']);

/** Reads a spec's text; every mistake is a `CliError` naming `file:line`. */
export function parseSpec(file: string, text: string): Spec {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const lineOf = (node: YamlNode | null | undefined): number =>
    node?.range ? lines.linePos(node.range[0]).line : 1;
  const fail = (node: YamlNode | null | undefined, why: string): never => {
    throw new CliError(`${file}:${lineOf(node)}: ${why}`);
  };
  const [error] = doc.errors;
  if (error) {
    throw new CliError(
      `${file}:${lines.linePos(error.pos[0]).line}: not valid YAML: ${error.message.split('\n')[0]}`,
    );
  }
  const root = doc.contents;
  if (!isMap(root)) return fail(root, 'a spec is a mapping with robots, site and expect');
  const spec: Spec = { file, urls: [], usage: [] };
  let expectNode: YamlNode | undefined;
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const value = pair.value as YamlNode | null;
    if (!TOP_KEYS.has(key))
      fail(pair.key as YamlNode, `unknown key "${key}" (use robots, site, expect)`);
    if (key === 'robots')
      spec.robots = { value: text0(value, 'robots', fail), line: lineOf(value) };
    if (key === 'site') {
      const site = text0(value, 'site', fail);
      if (!/^https?:\/\/[^/]+/i.test(site))
        fail(value, `site must be an http(s) URL, got "${site}"`);
      spec.site = site.replace(/\/+$/, '');
    }
    if (key === 'expect') expectNode = value ?? undefined;
  }
  if (!expectNode || !isSeq(expectNode))
    return fail(expectNode ?? root, 'expect is a list of { agent, allow, disallow, usage }');
  for (const item of expectNode.items as YamlNode[]) readExpectation(spec, item, lineOf, fail);
  return spec;
}

type Fail = (node: YamlNode | null | undefined, why: string) => never;
type YamlPairs = { items: { key: YamlNode; value: YamlNode | null }[] };

/** One item of `expect`: its agent, its allow and disallow URLs, its usage expectations. */
function readExpectation(
  spec: Spec,
  item: YamlNode,
  lineOf: (node: YamlNode | null | undefined) => number,
  fail: Fail,
): void {
  if (!isMap(item)) fail(item, 'each expectation is a mapping: agent, allow, disallow, usage');
  const map = item as unknown as YamlPairs;
  const agentPair = map.items.find((p) => isScalar(p.key) && p.key.value === 'agent');
  if (!agentPair) fail(item, 'an expectation needs an agent');
  const agents = agentsOf(agentPair!.value, fail);
  for (const { key, value } of map.items) {
    const name = isScalar(key) ? String(key.value) : '';
    if (!EXPECT_KEYS.has(name))
      fail(key, `unknown key "${name}" (use agent, allow, disallow, usage)`);
    if (name === 'allow' || name === 'disallow') {
      for (const entry of listOf(value, name, fail)) {
        const url = text0(entry, name, fail);
        if (!url.startsWith('/') && !/^https?:\/\/[^/]+/i.test(url)) {
          fail(entry, `"${url}" is neither a path starting with / nor an http(s) URL`);
        }
        const expect = name === 'allow' ? 'allowed' : 'disallowed';
        spec.urls.push({ agents, url, expect, line: lineOf(entry) });
      }
    }
    if (name === 'usage') {
      if (!isMap(value))
        fail(
          value,
          'usage is a mapping: { train-ai: allowed | disallowed | unknown, search: ... }',
        );
      for (const pair of (value as unknown as YamlPairs).items) {
        const label = isScalar(pair.key) ? String(pair.key.value) : '';
        if (!USAGE_LABELS.has(label))
          fail(pair.key, `unknown usage category "${label}" (use train-ai, search)`);
        const expect = text0(pair.value, label, fail);
        if (!PREFERENCES.has(expect))
          fail(pair.value, `${label} is allowed, disallowed or unknown, got "${expect}"`);
        spec.usage.push({
          agents,
          label: label as UsageLabel,
          expect: expect as Expected,
          urls: [],
          line: lineOf(pair.value),
        });
      }
    }
  }
  // Usage holds for the expectation's own URLs, or for `/`.
  const own = spec.urls.filter((u) => u.agents === agents).map((u) => u.url);
  for (const usage of spec.usage)
    if (usage.agents === agents) usage.urls = own.length > 0 ? own : ['/'];
}

/** A scalar's text. */
function text0(node: YamlNode | null | undefined, key: string, fail: Fail): string {
  if (!isScalar(node) || node.value === null || typeof node.value === 'object') {
    return fail(node, `${key} must be text`);
  }
  return String(node.value);
}

/** A list's items, or a single scalar as a list of one. */
function listOf(node: YamlNode | null | undefined, key: string, fail: Fail): YamlNode[] {
  if (isSeq(node)) return node.items as YamlNode[];
  if (isScalar(node)) return [node];
  return fail(node, `${key} is a list of paths or URLs`);
}

/** An expectation's crawler names: one, or a list of ordered fallbacks. */
function agentsOf(node: YamlNode | null, fail: Fail): string[] {
  const names = listOf(node, 'agent', fail).map((n) => text0(n, 'agent', fail));
  names.forEach((name, i) => {
    if (name !== '*' && !isValidProductToken(name)) {
      const at = isSeq(node) ? (node.items[i] as YamlNode) : node;
      fail(
        at,
        `agent "${name}" is not a crawler's product token (letters, "-" and "_", as robots.txt names crawlers)`,
      );
    }
  });
  return names;
}
