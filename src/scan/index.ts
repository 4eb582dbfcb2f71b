/**
 * robots.txt measured at scale (`repkit scan`): captures from WARC files and directories,
 * each measured with Google's reading, written to DuckDB and Parquet.
 *
 * @module repkit/scan
 */
export {
  analyzeCapture,
  MAX_CLASS_WORK,
  witnessPath,
  type AgentRow,
  type Capture,
  type CaptureRow,
  type FileKind,
  type StatusClass,
  type VerdictClass,
} from './analyze.ts';
export { AGENT_COLUMNS, CAPTURE_COLUMNS, ScanDatabase, type CrawlerRow } from './database.ts';
export { capturesOf, inputsOf, type ScanInput } from './inputs.ts';
export {
  DEFAULT_SCAN_AGENTS,
  scan,
  type ScanOptions,
  type ScanProgress,
  type ScanSummary,
} from './scan.ts';
