-- The status table by crawl: how the robots.txt fetches of each month were answered, as a
-- crawler reads them (file, no-file, unreachable, redirect, challenge, payment-required, html).
WITH counted AS (
  SELECT coalesce(substr(captured_at, 1, 7), 'undated') AS crawl, status_class, count(*) AS n
  FROM captures
  GROUP BY 1, 2
)
SELECT
  crawl,
  status_class,
  n::INTEGER AS captures,
  round(100.0 * n / sum(n) OVER (PARTITION BY crawl), 2)::DOUBLE AS percent
FROM counted
ORDER BY crawl, captures DESC, status_class;
