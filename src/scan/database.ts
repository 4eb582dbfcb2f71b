/**
 * Where a scan's rows go: an embedded DuckDB database (`scan.duckdb` in the output directory,
 * tables `captures`, `agents`, `crawlers`, `inputs`), exported as Parquet files
 * (`captures.parquet`, `agents.parquet`) when the scan ends. `inputs` records each input
 * finished, so a scan started again skips them. DuckDB is an optional peer.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { loadWithPeer } from '../core/internal.ts';
import type { AgentRow, CaptureRow } from './analyze.ts';

type DuckDB = typeof import('@duckdb/node-api');
type Connection = Awaited<
  ReturnType<Awaited<ReturnType<DuckDB['DuckDBInstance']['create']>>['connect']>
>;
type Appender = Awaited<ReturnType<Connection['createAppender']>>;

/** A column: its name and SQL type (the Parquet column is the same). */
type Column<Row> = readonly [name: keyof Row & string, type: 'VARCHAR' | 'INTEGER' | 'BOOLEAN'];

/** The `captures` columns, in order: the Parquet schema, documented in docs/cli/scan.md. */
export const CAPTURE_COLUMNS: readonly Column<CaptureRow>[] = [
  ['host', 'VARCHAR'],
  ['captured_at', 'VARCHAR'],
  ['input', 'VARCHAR'],
  ['status', 'INTEGER'],
  ['status_class', 'VARCHAR'],
  ['redirect_hops', 'INTEGER'],
  ['redirect_url', 'VARCHAR'],
  ['bytes', 'INTEGER'],
  ['cut', 'BOOLEAN'],
  ['kind', 'VARCHAR'],
  ['groups', 'INTEGER'],
  ['user_agent_lines', 'INTEGER'],
  ['allow_rules', 'INTEGER'],
  ['disallow_rules', 'INTEGER'],
  ['sitemaps', 'INTEGER'],
  ['crawl_delay_lines', 'INTEGER'],
  ['content_usage_lines', 'INTEGER'],
  ['content_signal_group_lines', 'INTEGER'],
  ['content_signal_file_lines', 'INTEGER'],
  ['license_lines', 'INTEGER'],
];

/** The `agents` columns, in order. */
export const AGENT_COLUMNS: readonly Column<AgentRow>[] = [
  ['host', 'VARCHAR'],
  ['input', 'VARCHAR'],
  ['agent', 'VARCHAR'],
  ['named', 'BOOLEAN'],
  ['verdict_class', 'VARCHAR'],
  ['root_allowed', 'BOOLEAN'],
  ['root_line', 'INTEGER'],
];

/** A crawler the scan asked about: its name, owner and purpose (for the reports' joins). */
export interface CrawlerRow {
  name: string;
  owner: string;
  purpose: string;
}

/** A scan's database; see the module comment. */
export class ScanDatabase {
  readonly #connection: Connection;
  readonly #close: () => void;
  readonly dir: string;
  #captures: Appender | undefined;
  #agents: Appender | undefined;

  private constructor(dir: string, connection: Connection, close: () => void) {
    this.dir = dir;
    this.#connection = connection;
    this.#close = close;
  }

  /** Opens (or creates) the database in `dir`. @throws `MissingPeerError` without DuckDB. */
  static async open(dir: string): Promise<ScanDatabase> {
    const duckdb = await loadWithPeer(
      '@duckdb/node-api',
      'repkit scan (its database)',
      () => import('@duckdb/node-api'),
    );
    await mkdir(dir, { recursive: true });
    const instance = await duckdb.DuckDBInstance.create(join(dir, 'scan.duckdb'));
    const connection = await instance.connect();
    const database = new ScanDatabase(dir, connection, () => {
      connection.closeSync();
      instance.closeSync();
    });
    await database.#schema();
    return database;
  }

  async #schema(): Promise<void> {
    const table = (name: string, columns: readonly (readonly [string, string])[]) =>
      `CREATE TABLE IF NOT EXISTS ${name} (${columns.map(([c, t]) => `${c} ${t}`).join(', ')})`;
    await this.#connection.run(table('captures', CAPTURE_COLUMNS));
    await this.#connection.run(table('agents', AGENT_COLUMNS));
    await this.#connection.run(
      'CREATE TABLE IF NOT EXISTS crawlers (name VARCHAR PRIMARY KEY, owner VARCHAR, purpose VARCHAR)',
    );
    await this.#connection.run(
      'CREATE TABLE IF NOT EXISTS inputs (path VARCHAR PRIMARY KEY, captures INTEGER, finished_at VARCHAR, error VARCHAR)',
    );
  }

  /** Records the crawlers asked about (kept once each). */
  async crawlers(rows: readonly CrawlerRow[]): Promise<void> {
    for (const row of rows) {
      await this.#connection.run('INSERT OR IGNORE INTO crawlers VALUES ($1, $2, $3)', [
        row.name,
        row.owner,
        row.purpose,
      ]);
    }
  }

  /** The inputs an earlier run finished. */
  async finishedInputs(): Promise<Set<string>> {
    const result = await this.#connection.runAndReadAll('SELECT path FROM inputs');
    return new Set(result.getRowObjects().map((row) => String(row['path'])));
  }

  /** Adds one capture's rows. */
  async add(capture: CaptureRow, agents: readonly AgentRow[]): Promise<void> {
    this.#captures ??= await this.#connection.createAppender('captures');
    this.#agents ??= await this.#connection.createAppender('agents');
    appendRow(this.#captures, CAPTURE_COLUMNS, capture);
    for (const agent of agents) appendRow(this.#agents, AGENT_COLUMNS, agent);
  }

  /**
   * Starts an input: its rows and its mark are one transaction, so a scan stopped inside
   * it keeps none of them, and a scan started again reads it whole, never twice.
   */
  async beginInput(): Promise<void> {
    await this.#connection.run('BEGIN TRANSACTION');
  }

  /**
   * Marks `path` finished with its rows (and the error that ended it early, if one did:
   * the captures read before it are kept) and commits them.
   */
  async finishInput(path: string, captures: number, error?: string): Promise<void> {
    this.#flush();
    await this.#connection.run('INSERT OR REPLACE INTO inputs VALUES ($1, $2, $3, $4)', [
      path,
      captures,
      new Date().toISOString(),
      error ?? null,
    ]);
    await this.#connection.run('COMMIT');
  }

  /** Writes `captures.parquet` and `agents.parquet` beside the database. */
  async exportParquet(): Promise<string[]> {
    this.#flush();
    const files: string[] = [];
    for (const table of ['captures', 'agents']) {
      const file = join(this.dir, `${table}.parquet`);
      await this.#connection.run(
        `COPY ${table} TO '${file.replaceAll("'", "''")}' (FORMAT parquet)`,
      );
      files.push(file);
    }
    return files;
  }

  /** The rows of a query, as objects (a report). */
  async query(sql: string): Promise<Record<string, unknown>[]> {
    this.#flush();
    return (await this.#connection.runAndReadAll(sql)).getRowObjectsJson() as Record<
      string,
      unknown
    >[];
  }

  #flush(): void {
    this.#captures?.flushSync();
    this.#agents?.flushSync();
  }

  /** Writes what is pending and closes the database. */
  close(): void {
    this.#flush();
    this.#captures?.closeSync();
    this.#agents?.closeSync();
    this.#captures = this.#agents = undefined;
    this.#close();
  }
}

function appendRow<Row>(appender: Appender, columns: readonly Column<Row>[], row: Row): void {
  for (const [name, type] of columns) {
    const value = row[name] as unknown;
    if (value === null || value === undefined) appender.appendNull();
    else if (type === 'VARCHAR') appender.appendVarchar(String(value));
    else if (type === 'BOOLEAN') appender.appendBoolean(Boolean(value));
    else appender.appendInteger(Number(value));
  }
  appender.endRow();
}
