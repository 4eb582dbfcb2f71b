-- AI-use statements adopted, among the captures that are robots.txt files: Content-Usage
-- (IETF AIPREF), Content-Signal in a group or before any (read for the whole file), License.
-- A site counts once per input it was read from, by its latest capture there.
WITH files AS (
  SELECT DISTINCT ON (host, input) *
  FROM captures
  WHERE status_class = 'file' AND kind = 'robots-txt'
  ORDER BY host, input, captured_at DESC
)
SELECT
  count(*)::INTEGER AS files,
  round(100.0 * count(*) FILTER (WHERE content_usage_lines > 0) / count(*), 2)::DOUBLE AS content_usage_percent,
  round(100.0 * count(*) FILTER (WHERE content_signal_group_lines > 0) / count(*), 2)::DOUBLE AS content_signal_in_group_percent,
  round(100.0 * count(*) FILTER (WHERE content_signal_file_lines > 0) / count(*), 2)::DOUBLE AS content_signal_file_level_percent,
  round(100.0 * count(*) FILTER (WHERE license_lines > 0) / count(*), 2)::DOUBLE AS license_percent
FROM files;
