import { DuckDBInstance } from '@duckdb/node-api';

/** The rows of `sql` run on a DuckDB of its own (in memory), as JSON-ready objects. */
export async function duckRows(sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
