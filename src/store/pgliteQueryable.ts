/**
 * The embedded engine: PGlite (Postgres compiled to WebAssembly) with pgvector, on a data folder.
 * Only the store owner (ownerProcess.ts) opens PGlite on a folder — two instances on one folder
 * corrupt it — so everything else reaches it through the owner's socket (pgQueryable.ts).
 */
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { StoreError, messageOf } from './errors';
import type { Queryable, Row, TxQueryable } from './queryable';

type Runner = Pick<PGlite, 'query' | 'exec'>;

// Without parameters use the simple protocol (exec), which like `pg` accepts several statements
// in one string (migrations); with parameters, one prepared statement.
async function run<T extends object>(on: Runner, sql: string, params: readonly unknown[]): Promise<T[]> {
	if (params.length) return (await on.query<T>(sql, params as unknown[])).rows;
	const results = await on.exec(sql);
	return (results.at(-1)?.rows ?? []) as T[];
}

/** Wraps an open PGlite instance as a Queryable. */
export function pgliteQueryable(db: PGlite): Queryable {
	return {
		engine: 'pglite',
		query: <T extends object = Row>(sql: string, params: readonly unknown[] = []) => run<T>(db, sql, params),
		async transaction<T>(fn: (tx: TxQueryable) => Promise<T>): Promise<T> {
			return db.transaction(async (tx) =>
				fn({
					query: <R extends object = Row>(sql: string, params: readonly unknown[] = []) => run<R>(tx, sql, params),
				}),
			);
		},
		close: () => db.close(),
	};
}

/**
 * PGlite runs Postgres single-user: no background checkpointer, so WAL is only recycled when a
 * checkpoint happens — by default after 1 GB of it (max_wal_size), and a checkpoint then keeps
 * up to that much as recycled segments. A bulk load left ~1 GB in pg_wal. Smaller limits make the
 * backend checkpoint on its own every 64 MB of WAL and keep at most that much (docs/storage.md).
 */
const WAL_LIMITS = ['-c', 'max_wal_size=64MB', '-c', 'min_wal_size=32MB'];

/**
 * Opens (or creates) a PGlite database in `dataDir` with the vector extension loaded. A folder
 * PGlite cannot read becomes StoreError 'corrupt'; the folder is left exactly as it was.
 */
export async function openPglite(dataDir: string | undefined): Promise<PGlite> {
	try {
		const db = new PGlite({
			...(dataDir ? { dataDir } : {}),
			extensions: { vector },
			startParams: [...PGlite.defaultStartParams, ...WAL_LIMITS],
		});
		await db.waitReady;
		return db;
	} catch (e) {
		throw new StoreError(
			'corrupt',
			`cannot open the embedded database in ${dataDir ?? '(memory)'}: ${messageOf(e)}. ` +
				'The folder was left untouched; move it aside to start a fresh store.',
			{ cause: e },
		);
	}
}
