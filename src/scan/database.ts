/**
 * Where a scan's rows go: an embedded DuckDB database (`scan.duckdb` in the output directory,
 * tables `captures`, `agents`, `crawlers`, `inputs`), exported as Parquet files (one per
 * table) when the scan ends. `inputs` records each input finished, so a scan started again
 * skips them, and parts written on several machines merge without counting one twice.
 * DuckDB is an optional peer.
 */
import { join } from 'node:path';
import { loadWithPeer } from '../core/internal.ts';
import { InvalidOptionError } from '../fetch/index.ts';
import type { AgentRow, CaptureRow } from './analyze.ts';
import { makeDirectories } from './directories.ts';

type DuckDB = typeof import('@duckdb/node-api');
type Instance = Awaited<ReturnType<DuckDB['DuckDBInstance']['create']>>;
type Connection = Awaited<ReturnType<Instance['connect']>>;
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
  readonly #instance: Instance;
  readonly #connection: Connection;
  readonly #sessions = new Set<InputSession>();
  readonly dir: string;

  private constructor(dir: string, instance: Instance, connection: Connection) {
    this.dir = dir;
    this.#instance = instance;
    this.#connection = connection;
  }

  /** Opens (or creates) the database in `dir`. @throws `MissingPeerError` without DuckDB. */
  static async open(dir: string): Promise<ScanDatabase> {
    const duckdb = await loadWithPeer(
      '@duckdb/node-api',
      'repkit scan (its database)',
      () => import('@duckdb/node-api'),
    );
    await makeDirectory(dir);
    const instance = await duckdb.DuckDBInstance.create(join(dir, DATABASE_FILE));
    const database = new ScanDatabase(dir, instance, await instance.connect());
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

  /**
   * Starts an input on a connection of its own: its rows and its mark are one transaction,
   * so a scan stopped inside it keeps none of them, and inputs read side by side (worker
   * threads) never mix.
   */
  async beginInput(): Promise<InputSession> {
    const connection = await this.#instance.connect();
    await connection.run('BEGIN TRANSACTION');
    const session = new InputSession(connection, () => this.#sessions.delete(session));
    this.#sessions.add(session);
    return session;
  }

  /**
   * Writes `captures`, `agents`, `crawlers` and `inputs` as Parquet files beside the database:
   * a part `repkit scan --merge` combines.
   */
  async exportParquet(): Promise<string[]> {
    const files: string[] = [];
    for (const table of PARQUET_TABLES) {
      const file = join(this.dir, `${table}.parquet`);
      await this.#connection.run(`COPY ${table} TO ${sqlString(file)} (FORMAT parquet)`);
      files.push(file);
    }
    return files;
  }

  /**
   * Adds the inputs of the Parquet part in `dir` that this database does not hold yet, each
   * with its rows, in one transaction: an input finished by two workers is kept once.
   * @returns the inputs added, and those already held (left out).
   */
  async merge(dir: string): Promise<{ added: number; held: number }> {
    const part = (table: string) => `read_parquet(${sqlString(join(dir, `${table}.parquet`))})`;
    const c = this.#connection;
    await c.run('BEGIN TRANSACTION');
    try {
      await c.run(
        `CREATE OR REPLACE TEMP TABLE fresh AS SELECT DISTINCT path FROM ${part('inputs')} WHERE path NOT IN (SELECT path FROM inputs)`,
      );
      const [counts] = (
        await c.runAndReadAll(
          `SELECT (SELECT count(*) FROM fresh) AS added, (SELECT count(DISTINCT path) FROM ${part('inputs')}) AS given`,
        )
      ).getRowObjectsJson() as { added: string | number; given: string | number }[];
      for (const table of ['captures', 'agents'])
        await c.run(
          `INSERT INTO ${table} SELECT * FROM ${part(table)} WHERE input IN (SELECT path FROM fresh)`,
        );
      await c.run(
        `INSERT INTO inputs SELECT * FROM ${part('inputs')} WHERE path IN (SELECT path FROM fresh)`,
      );
      await c.run(`INSERT OR IGNORE INTO crawlers SELECT * FROM ${part('crawlers')}`);
      await c.run('DROP TABLE fresh');
      await c.run('COMMIT');
      const added = Number(counts!.added);
      return { added, held: Number(counts!.given) - added };
    } catch (error) {
      await c.run('ROLLBACK');
      throw error;
    }
  }

  /** The rows of a query, as objects (a report). */
  async query(sql: string): Promise<Record<string, unknown>[]> {
    return (await this.#connection.runAndReadAll(sql)).getRowObjectsJson() as Record<
      string,
      unknown
    >[];
  }

  /** Closes the database; an input still open is rolled back (it was not finished). */
  close(): void {
    for (const session of this.#sessions) session.abandon();
    this.#connection.closeSync();
    this.#instance.closeSync();
  }
}

/** The database's file in the output directory. */
export const DATABASE_FILE = 'scan.duckdb';

/** The tables a part's Parquet files hold. */
export const PARQUET_TABLES = ['captures', 'agents', 'crawlers', 'inputs'] as const;

function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** One input being written: see `ScanDatabase.beginInput`. */
export class InputSession {
  readonly #connection: Connection;
  readonly #ended: () => void;
  #captures: Appender | undefined;
  #agents: Appender | undefined;
  #open = true;

  constructor(connection: Connection, ended: () => void) {
    this.#connection = connection;
    this.#ended = ended;
  }

  /** Adds one capture's rows. */
  async add(capture: CaptureRow, agents: readonly AgentRow[]): Promise<void> {
    this.#captures ??= await this.#connection.createAppender('captures');
    this.#agents ??= await this.#connection.createAppender('agents');
    appendRow(this.#captures, CAPTURE_COLUMNS, capture);
    for (const agent of agents) appendRow(this.#agents, AGENT_COLUMNS, agent);
  }

  /**
   * Marks `path` finished with its rows (and the error that ended it early, if one did:
   * the captures read before it are kept) and commits them.
   */
  async finish(path: string, captures: number, error?: string): Promise<void> {
    this.#closeAppenders();
    await this.#connection.run('INSERT OR REPLACE INTO inputs VALUES ($1, $2, $3, $4)', [
      path,
      captures,
      new Date().toISOString(),
      error ?? null,
    ]);
    await this.#connection.run('COMMIT');
    this.#end();
  }

  /** Drops what was written (the input was not finished: another run reads it whole). */
  abandon(): void {
    if (!this.#open) return;
    this.#closeAppenders();
    // Closing a connection inside its transaction rolls the transaction back.
    this.#end();
  }

  #closeAppenders(): void {
    this.#captures?.closeSync();
    this.#agents?.closeSync();
    this.#captures = this.#agents = undefined;
  }

  #end(): void {
    this.#open = false;
    this.#connection.closeSync();
    this.#ended();
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

/** Makes the output directory, or says why it cannot (`out` names a file, is not writable). */
async function makeDirectory(dir: string): Promise<void> {
  try {
    await makeDirectories(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InvalidOptionError(
      'out',
      code === 'EEXIST' || code === 'ENOTDIR'
        ? `${dir} is a file, not a directory for the scan's database`
        : `cannot make ${dir}: ${(error as Error).message}`,
    );
  }
}
