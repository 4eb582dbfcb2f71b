/**
 * The page every case's site serves at any other path (headers and head carry page rules),
 * for the usage question: may the page be fetched, indexed, used for AI training or search.
 */
export const PAGE = {
  headers: { 'content-type': 'text/html', 'content-usage': 'train-ai=n' },
  body: '<html><head><meta name="robots" content="noindex"></head><body>x</body></html>',
};

/**
 * The questions every surface answers alike (hono's `common.case.test.ts` pattern): a site's
 * robots.txt as it is served, a URL, the crawler asking, and what the answer must say. The
 * list runs through the library, the CLI's `check --json`, the HTTP service and MCP (see
 * common.case.test.ts); a case added here is asked of all of them.
 */
import type { CheckResult } from '../../src/fetch/index.ts';

export interface SurfaceCase {
  name: string;
  /** How the site answers for /robots.txt (status 0: it closes the connection, unanswered). */
  robots: { status: number; body?: string; type?: string };
  /** The path asked about (the site's origin is put before it). */
  path: string;
  agent: string;
  /** What the answer must hold (every surface's answer equals the library's besides). */
  expect: Partial<CheckResult>;
}

const RULES = 'User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /\n';

export const SURFACE_CASES: readonly SurfaceCase[] = [
  {
    name: 'a rule disallows, and the answer names it',
    robots: { status: 200, body: RULES },
    path: '/private/x',
    agent: 'ExampleBot',
    expect: { allowed: false, line: 2, reason: 'disallowed-by-rule', agent: ['ExampleBot'] },
  },
  {
    name: 'no rule matches',
    robots: { status: 200, body: RULES },
    path: '/open',
    agent: 'ExampleBot',
    expect: { allowed: true, line: 0, reason: 'no-matching-rule' },
  },
  {
    name: 'the URL judged is the one the client sends',
    robots: { status: 200, body: RULES },
    path: '/a/../private/x',
    agent: 'ExampleBot',
    expect: { allowed: false, line: 2 },
  },
  {
    name: 'a name with a version is read as its product token, and said so',
    robots: { status: 200, body: RULES },
    path: '/x',
    agent: 'Googlebot/2.1',
    expect: { allowed: false, line: 5, agent: ['Googlebot'] },
  },
  {
    name: 'no robots.txt (404): no restrictions',
    robots: { status: 404 },
    path: '/x',
    agent: 'ExampleBot',
    expect: { allowed: true, reason: 'no-robots-txt', status: 404 },
  },
  {
    name: 'a server error (503): disallowed for now',
    robots: { status: 503 },
    path: '/x',
    agent: 'ExampleBot',
    expect: { allowed: false, reason: 'robots-txt-unreachable', status: 503 },
  },
  {
    name: 'no answer (the connection closed): disallowed for now, the failure by its code',
    robots: { status: 0 },
    path: '/x',
    agent: 'ExampleBot',
    expect: {
      allowed: false,
      reason: 'robots-txt-unreachable',
      status: 0,
      errorCode: 'UND_ERR_SOCKET',
    },
  },
  {
    name: 'an HTML page served as robots.txt: no rule, and said what it is',
    robots: {
      status: 200,
      body: '<!DOCTYPE html><html><body>Welcome</body></html>',
      type: 'text/html',
    },
    path: '/x',
    agent: 'ExampleBot',
    expect: { allowed: true, notRobotsTxt: 'html-content' },
  },
  {
    name: 'a Google special-case crawler takes no rule from the * group',
    robots: { status: 200, body: 'User-agent: *\nDisallow: /\n' },
    path: '/x',
    agent: 'AdsBot-Google',
    expect: { allowed: true, reason: 'ignores-global-group' },
  },
];
