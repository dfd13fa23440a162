/**
 * The one query path both engines share: a `pg`-style `query(sql, params) → rows`. PGlite (in the
 * store owner) and `pg` (server URL, or the owner's Unix socket) both implement it, so every
 * statement, migration and search runs unchanged on either engine.
 */

/** A row as returned by the driver: column name → value. */
export type Row = Record<string, unknown>;

/** Which engine answers the queries (reported by `gmem inspect`). */
export type EngineKind = 'pglite' | 'pglite-socket' | 'postgres';

/** A parameterised query function plus transactions; every SQL statement goes through it. */
export interface Queryable {
	readonly engine: EngineKind;
	/** The user/team scope this connection reads and writes (absent = DEFAULT_SCOPE). */
	readonly scope?: string;
	/** Runs one parameterised statement ($1, $2 …) and returns its rows. */
	query<T extends object = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
	/**
	 * Runs `fn` inside BEGIN … COMMIT on one connection (ROLLBACK if it throws). Statements issued
	 * through the `tx` argument belong to the transaction.
	 */
	transaction<T>(fn: (tx: TxQueryable) => Promise<T>): Promise<T>;
	close(): Promise<void>;
}

/** The query function visible inside a transaction. */
export interface TxQueryable {
	query<T extends object = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** pgvector's text form ("[0.1,0.2,…]"), accepted by both engines as a `$n::vector` parameter. */
export function toVectorLiteral(v: ArrayLike<number>): string {
	const parts: string[] = new Array<string>(v.length);
	for (let i = 0; i < v.length; i++) parts[i] = Number.isFinite(v[i]) ? String(v[i]) : '0';
	return `[${parts.join(',')}]`;
}

/** The scope of an embedded store, and of a server connection nobody configured a scope for. */
export const DEFAULT_SCOPE = 'local';

/** The scope a statement through `db` reads and writes. */
export function scopeOf(db: Pick<Queryable, 'scope'>): string {
	return db.scope ?? DEFAULT_SCOPE;
}

/** The same connection, reading and writing `scope` (close closes the underlying connection). */
export function withScope(db: Queryable, scope: string): Queryable {
	return {
		get engine() {
			return db.engine;
		},
		scope,
		query: (sql, params) => db.query(sql, params),
		transaction: (fn) => db.transaction(fn),
		close: () => db.close(),
	};
}
