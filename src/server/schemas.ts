/**
 * JSON schemas of the API: they validate requests (a 400 names the field) and make the
 * OpenAPI document served at /openapi.json.
 */
const agent = {
  description:
    'Crawler name matched against user-agent lines; several names are ordered fallbacks (the first with a group of its own decides, else *)',
  anyOf: [
    { type: 'string', minLength: 1, maxLength: 200 },
    {
      type: 'array',
      minItems: 1,
      maxItems: 20,
      items: { type: 'string', minLength: 1, maxLength: 200 },
    },
  ],
} as const;
const url = {
  type: 'string',
  minLength: 1,
  maxLength: 8192,
  description: 'An absolute http(s) URL',
} as const;
const robotsText = {
  type: 'string',
  maxLength: 512_000 * 2,
  description: 'A robots.txt body',
} as const;
const profile = {
  type: 'string',
  enum: ['google', 'rfc9309', 'legacy'],
  default: 'google',
} as const;
const refusedHop = {
  type: 'object',
  description:
    'A redirect target not requested: its own robots.txt disallows it, or cannot be read now',
  properties: { url: { type: 'string' }, reason: { type: 'string' } },
} as const;

const requestUrl = {
  type: 'string',
  description:
    'The URL as it is requested (WHATWG-serialised: dot segments removed, non-ASCII %-encoded...), when that is not the URL given: the verdict is about this one',
} as const;
/** What answered in a site's place (`classifyEdge`), with its evidence. */
const edge = {
  type: 'object',
  description:
    "What answered in the site's place: a bot wall (challenge), an HTML page served for the file, or a payment demand (402) with its price",
  properties: {
    kind: { type: 'string', enum: ['challenge', 'html', 'payment-required'] },
    evidence: {
      type: 'array',
      items: { type: 'string' },
      description: 'What was seen: the status, a header, a mark in the body',
    },
    vendor: { type: 'string', description: 'Whose wall, when its marks say (challenge)' },
    price: {
      type: 'object',
      description:
        'The price asked (payment-required): pay per crawl (currency, amount), x402 (amount in base units, asset, network, payTo) or the Payment authentication scheme (amount in base units, currency, method, intent, realm, expires)',
      properties: {
        scheme: { type: 'string', enum: ['crawler-price', 'x402', 'payment'] },
        method: { type: 'string' },
        intent: { type: 'string' },
        realm: { type: 'string' },
        expires: { type: 'string' },
        currency: { type: 'string' },
        amount: { type: 'string' },
        asset: { type: 'string' },
        network: { type: 'string' },
        payTo: { type: 'string' },
      },
      required: ['scheme', 'amount'],
    },
  },
  required: ['kind', 'evidence'],
} as const;
const verdict = {
  type: 'object',
  properties: {
    url: { type: 'string' },
    requestUrl,
    agent: {
      type: 'array',
      items: { type: 'string' },
      description: 'The crawler names the groups were matched by (product tokens)',
    },
    agentNotes: {
      type: 'array',
      items: { type: 'string' },
      description: 'How names given were read where they were not product tokens',
    },
    allowed: { type: 'boolean' },
    line: { type: 'integer', description: 'The deciding line, 0 for none' },
    reason: {
      type: 'string',
      description:
        'Why: a rule (allowed-by-rule, disallowed-by-rule...), ignores-global-group (a Google special-case crawler such as AdsBot-Google that only the * group names: no rule applies to it), or the fetch (no-robots-txt, robots-txt-unreachable, robots-txt-challenge: a wall answered and counts as unreachable, robots-txt-challenge-literal: read as Google reads it)',
    },
    rule: { type: 'object', additionalProperties: true },
    lineCut: {
      type: 'boolean',
      description: 'The deciding line is cut by the 500 KiB limit: its rule was read in part',
    },
    notRobotsTxt: {
      type: 'string',
      enum: ['html-content', 'utf-16', 'binary-content'],
      description:
        'The file is no robots.txt at all (an HTML page, UTF-16 text, binary data): it has no rule, which is why the URL is allowed',
    },
    robotsUrl: { type: 'string' },
    source: { type: 'string', enum: ['fetched', 'cache', 'stale'] },
    status: {
      type: 'integer',
      description: 'HTTP status of the robots.txt used; 0 when none arrived',
    },
    fetchedAt: { type: 'number' },
    expiresAt: { type: 'number' },
    error: { type: 'string' },
    errorCode: {
      type: 'string',
      description:
        "The fetch's failure code when no response came: ECONNREFUSED, ENOTFOUND, ETIMEDOUT, EREFUSEDADDRESS (an address the service may not connect to)...",
    },
    edge,
  },
  required: [
    'url',
    'agent',
    'allowed',
    'line',
    'reason',
    'robotsUrl',
    'source',
    'status',
    'fetchedAt',
    'expiresAt',
  ],
} as const;
/** A batch's entry: a verdict, or a URL's own error (`error` its code, `field`, `message`). */
const batchEntry = {
  type: 'object',
  properties: {
    ...verdict.properties,
    field: { type: 'string', description: 'Where the URL that cannot be checked is (body.urls.N)' },
    message: { type: 'string', description: 'Why the URL cannot be checked' },
  },
  required: ['url'],
} as const;

const problem = {
  type: 'object',
  properties: { error: { type: 'string' }, field: { type: 'string' }, message: { type: 'string' } },
} as const;

/** An error answer, described: every one has the shape `{ error, message, field? }`. */
const failure = (description: string) => ({ ...problem, description }) as const;

/** The errors every API route may answer (the service's limits, its token and its hosts). */
const COMMON_ERRORS = {
  400: failure(
    'A field is missing or wrong (`invalid-request`, naming the field), or a URL cannot be checked',
  ),
  401: failure(
    'The service runs with a token and the request has none or another (`unauthorized`)',
  ),
  421: failure('The Host header is not one the service answers for (`misdirected-request`)'),
  429: failure(
    "Too many requests from this client (`rate-limited`), the workers' queue is full (`busy`), or the client's budget of new origins is spent (`origin-budget`); with Retry-After",
  ),
  500: failure('Something failed in the service itself (`internal-error`), without details'),
} as const;

/** And those of a route that takes a body. */
const BODY_ERRORS = {
  ...COMMON_ERRORS,
  413: failure(
    'The body is over the limit (`body-too-large`, saying it) or asks more work than one request may (`too-much-work`)',
  ),
  415: failure('The body is not sent as application/json (`unsupported-media-type`)'),
} as const;

export const checkOne = {
  operationId: 'checkUrl',
  tags: ['checks'],
  summary: 'May the crawler fetch this URL? (robots.txt fetched and cached by the service)',
  querystring: {
    type: 'object',
    properties: { url, agent },
    required: ['url'],
  },
  response: { 200: verdict, ...COMMON_ERRORS },
} as const;

const decision = {
  type: 'object',
  properties: {
    preference: { type: 'string', enum: ['allowed', 'disallowed', 'unknown'] },
    statements: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          preference: { type: 'string' },
          source: { type: 'object', additionalProperties: true },
        },
      },
    },
  },
} as const;
const permission = {
  type: 'object',
  properties: {
    may: { type: 'boolean' },
    why: { type: 'string' },
    source: { type: 'object', additionalProperties: true },
  },
} as const;

export const usage = {
  operationId: 'usageOfUrl',
  tags: ['checks'],
  summary:
    'May the crawler fetch, index, use for AI training, use for search; is TDM reserved? Each with its source',
  description:
    "robots.txt (Allow/Disallow, Content-Usage, Content-Signal), then, where robots.txt allows them, the origin's /.well-known/tdmrep.json and the page itself (headers and head), fetched through the same address guard as robots.txt.",
  querystring: {
    type: 'object',
    properties: {
      url,
      agent,
      llms: {
        type: 'boolean',
        description:
          "Also fetch the site's llms.txt (its robots.txt LLMs: line, else /llms.txt) where robots.txt allows it, and report it in llmsTxt (never a permission)",
      },
    },
    required: ['url'],
  },
  response: {
    200: {
      type: 'object',
      properties: {
        url: { type: 'string' },
        requestUrl,
        agent: { type: 'array', items: { type: 'string' } },
        llmsTxt: {
          type: 'object',
          description:
            "The site's llms.txt, when asked for (llms=true): fetched (status, bytes, truncated, title, error, refusedHop) or not-fetched (why)",
          properties: {
            kind: { type: 'string', enum: ['fetched', 'not-fetched'] },
            url: { type: 'string' },
            line: { type: 'integer' },
            status: { type: 'integer' },
            bytes: { type: 'integer' },
            truncated: { type: 'boolean' },
            title: { type: 'string' },
            error: { type: 'string' },
            refusedHop,
            why: { type: 'string' },
          },
        },
        fetch: permission,
        index: permission,
        'train-ai': decision,
        search: decision,
        tdm: {
          type: 'object',
          properties: {
            reservation: { type: 'string', enum: ['reserved', 'not-reserved', 'unset'] },
            policy: { type: 'string' },
            decidedBy: { type: 'object', additionalProperties: true },
            statements: { type: 'array', items: { type: 'object', additionalProperties: true } },
            file: {
              type: 'object',
              description:
                "The origin's /.well-known/tdmrep.json, when it was asked for: its status, and a redirect hop not followed",
              properties: {
                url: { type: 'string' },
                status: { type: 'integer' },
                refusedHop,
              },
            },
          },
        },
        robotsTxt: {
          type: 'object',
          properties: {
            url: { type: 'string' },
            status: { type: 'integer' },
            source: { type: 'string' },
            reason: { type: 'string' },
            edge,
            licenses: {
              type: 'array',
              description: "Its License: lines (RSL 1.0): where the site's licence terms are",
              items: {
                type: 'object',
                properties: { url: { type: 'string' }, line: { type: 'integer' } },
              },
            },
          },
        },
        page: {
          type: 'object',
          properties: {
            status: { type: 'integer' },
            error: { type: 'string' },
            refusedHop,
            edge,
            charged: {
              type: 'object',
              description: 'What the site charged for the page (crawler-charged)',
              properties: { currency: { type: 'string' }, amount: { type: 'string' } },
            },
          },
        },
      },
    },
    ...COMMON_ERRORS,
  },
} as const;

export const checkMany = (maxBatch: number) =>
  ({
    operationId: 'checkUrls',
    tags: ['checks'],
    summary: 'Verdicts for many URLs, of one origin or many',
    body: {
      type: 'object',
      properties: { urls: { type: 'array', minItems: 1, maxItems: maxBatch, items: url }, agent },
      required: ['urls'],
      additionalProperties: false,
    },
    response: {
      200: {
        type: 'object',
        properties: {
          results: {
            type: 'array',
            description:
              'One entry per URL, in order: a verdict, or for a URL that cannot be checked (not an absolute http(s) URL, a private address) `{ url, error, field, message }`, while the others are answered',
            items: batchEntry,
          },
        },
      },
      ...BODY_ERRORS,
    },
  }) as const;

export const explain = {
  operationId: 'explainUrl',
  tags: ['robots.txt given'],
  summary: 'Explain the verdict for a URL against a robots.txt given in the body (nothing fetched)',
  body: {
    type: 'object',
    properties: { robots: robotsText, url: { type: 'string', maxLength: 8192 }, agent, profile },
    required: ['robots', 'url', 'agent'],
    additionalProperties: false,
  },
  response: { 200: { type: 'object', additionalProperties: true }, ...BODY_ERRORS },
} as const;

export const lint = {
  operationId: 'lintRobotsTxt',
  tags: ['robots.txt given'],
  summary: 'Lint a robots.txt given in the body',
  body: {
    type: 'object',
    properties: { robots: robotsText },
    required: ['robots'],
    additionalProperties: false,
  },
  response: { 200: { type: 'object', additionalProperties: true }, ...BODY_ERRORS },
} as const;

export const diff = (maxBatch: number) =>
  ({
    operationId: 'diffRobotsTxt',
    tags: ['robots.txt given'],
    summary: 'Which URLs change verdict between two robots.txt bodies, per crawler',
    body: {
      type: 'object',
      properties: {
        old: robotsText,
        new: robotsText,
        urls: {
          type: 'array',
          minItems: 1,
          maxItems: maxBatch,
          items: { type: 'string', maxLength: 8192 },
          description:
            "URLs or paths to compare (default, as the CLI's diff: / and, for every rule of either body, its path and one below it; the answer's probed says how many)",
        },
        agents: {
          type: 'array',
          minItems: 1,
          maxItems: 50,
          items: { type: 'string', minLength: 1, maxLength: 200 },
          description:
            'crawlers to compare for; "*" is any crawler without a group of its own (default: every crawler either body names, and "*")',
        },
        profile,
      },
      required: ['old', 'new'],
      additionalProperties: false,
    },
    response: { 200: { type: 'object', additionalProperties: true }, ...BODY_ERRORS },
  }) as const;

export const robots = {
  operationId: 'fetchRobotsTxt',
  tags: ['checks'],
  summary: "Fetch (through the cache) the robots.txt of a URL's site, for the web tester",
  querystring: { type: 'object', properties: { url }, required: ['url'] },
  response: { 200: { type: 'object', additionalProperties: true }, ...COMMON_ERRORS },
} as const;

export const ready = {
  operationId: 'ready',
  tags: ['operator'],
  // Open, token or not.
  security: [],
  summary:
    'Readiness: 503 while the service is stopping, or while the Redis it was started with cannot be reached',
  response: {
    200: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['ready'] },
        redis: { type: 'string', enum: ['up', 'not-configured'] },
      },
    },
    503: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['stopping', 'not-ready'] },
        redis: { type: 'string', enum: ['up', 'down', 'not-configured'] },
      },
    },
    421: COMMON_ERRORS[421],
  },
};

export const health = {
  operationId: 'health',
  tags: ['operator'],
  // Open, token or not.
  security: [],
  summary: 'Liveness, with the reachability of Redis when one is configured',
  response: {
    200: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['ok', 'degraded'] },
        redis: { type: 'string', enum: ['up', 'down', 'not-configured'] },
      },
    },
    421: COMMON_ERRORS[421],
  },
} as const;
