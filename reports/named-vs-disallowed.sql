-- Named is not disallowed: for each crawler, the sites whose robots.txt names it, those that
-- keep it out entirely, those that name it yet let it in, and those that keep it out without
-- naming it (through the * group). A site counts once per input it was read from (see
-- ai-blocking.sql).
WITH sites AS (
  SELECT DISTINCT ON (agent, host, input) agent, named, verdict_class
  FROM agents
  ORDER BY agent, host, input, verdict_class, named DESC
)
SELECT
  agent,
  count(*) FILTER (WHERE named)::INTEGER AS named,
  count(*) FILTER (WHERE verdict_class = 'all')::INTEGER AS fully_disallowed,
  count(*) FILTER (WHERE named AND verdict_class = 'none')::INTEGER AS named_but_allowed,
  count(*) FILTER (WHERE NOT named AND verdict_class = 'all')::INTEGER AS disallowed_unnamed
FROM sites
GROUP BY agent
ORDER BY named DESC, agent;
