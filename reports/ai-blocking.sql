-- The share of sites blocking each crawler fully (all: / and every rule's path disallowed) or
-- partly (some), by Google's reading of each capture, search and AI crawlers alike.
SELECT
  a.agent,
  any_value(c.purpose) AS purpose,
  count(*)::INTEGER AS sites,
  round(100.0 * count(*) FILTER (WHERE a.verdict_class = 'all') / count(*), 2)::DOUBLE AS fully_percent,
  round(100.0 * count(*) FILTER (WHERE a.verdict_class = 'some') / count(*), 2)::DOUBLE AS partly_percent
FROM agents a
LEFT JOIN crawlers c ON c.name = a.agent
WHERE a.verdict_class <> 'unknown'
GROUP BY a.agent
ORDER BY fully_percent DESC, a.agent;
