-- The share of sites blocking each crawler fully (all: / and every rule's path disallowed) or
-- partly (some), by Google's reading of each capture, search and AI crawlers alike. A site
-- counts once per input it was read from: listed twice, or captured twice in one WARC file,
-- it is one site (read from two crawls' inputs, it is one site in each).
WITH sites AS (
  SELECT DISTINCT ON (agent, host, input) agent, verdict_class
  FROM agents
  -- A known verdict before 'unknown', where the captures of one site differ.
  ORDER BY agent, host, input, verdict_class
)
SELECT
  s.agent,
  any_value(c.purpose) AS purpose,
  count(*)::INTEGER AS sites,
  round(100.0 * count(*) FILTER (WHERE s.verdict_class = 'all') / count(*), 2)::DOUBLE AS fully_percent,
  round(100.0 * count(*) FILTER (WHERE s.verdict_class = 'some') / count(*), 2)::DOUBLE AS partly_percent
FROM sites s
LEFT JOIN crawlers c ON c.name = s.agent
WHERE s.verdict_class <> 'unknown'
GROUP BY s.agent
ORDER BY fully_percent DESC, s.agent;
