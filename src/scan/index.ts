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
export {
  AGENT_COLUMNS,
  CAPTURE_COLUMNS,
  DATABASE_FILE,
  InputSession,
  PARQUET_TABLES,
  ScanDatabase,
  type CrawlerRow,
} from './database.ts';
export { makeDirectories } from './directories.ts';
export { capturesOf, inputsOf, sitesInputs, type ScanInput } from './inputs.ts';
export { RedisQueue, type RedisQueueOptions } from './redis-queue.ts';
export { resolveRedirects, WINDOW_BYTES, WINDOW_RECORDS } from './redirects.ts';
export {
  DEFAULT_SCAN_AGENTS,
  scan,
  type ScanOptions,
  type ScanProgress,
  type ScanSummary,
} from './scan.ts';
