import pg from 'pg';
import {
  DatabaseUnavailableError,
  runLastSteps,
  transactionOf,
  type Db,
  type Queryable,
  type Row,
} from './db.js';

const INT8_OID = 20;

/** bigint ids and counts come back as numbers, as PGlite returns them. */
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID
      ? Number
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * Every statement text gets a name, so each connection parses and plans it once. Our SQL is static
 * text with parameters, so the number of names is bounded by the code.
 */
const statementNames = new Map<string, string>();
const statementName = (sql: string) => {
  let name = statementNames.get(sql);
  if (!name) {
    name = `s${statementNames.size + 1}`;
    statementNames.set(sql, name);
  }
  return name;
};

const queryableOf = (target: pg.Pool | pg.PoolClient): Queryable => ({
  async query<T extends Row>(sql: string, params?: readonly unknown[]) {
    const result = await target.query<T>({
      name: statementName(sql),
      text: sql,
      values: params ? [...params] : [],
    });
    return result.rows;
  },
  async exec(sql) {
    await target.query(sql);
  },
});

/**
 * Connects a pool to a PostgreSQL server and checks that it answers. `readOnly`: every
 * transaction of the pool is read-only (a read replica's pool, where a write is a fault of ours).
 */
export async function openPostgres(
  url: string,
  poolSize = 10,
  { readOnly = false } = {},
): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types,
    // No JIT compilation (decision 0043): a batch statement whose estimates run high (the
    // reservation's generate_series) spent four of its four and a half seconds compiling.
    options: `-c jit=off${readOnly ? ' -c default_transaction_read_only=on' : ''}`,
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end();
    const where = new URL(url);
    throw new DatabaseUnavailableError(
      `cannot connect to PostgreSQL at ${where.hostname}:${where.port || 5432}${where.pathname}: ${(error as Error).message}`,
    );
  }
  return {
    kind: 'postgres',
    ...queryableOf(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx = transactionOf(queryableOf(client));
        const result = await fn(tx);
        await runLastSteps(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
