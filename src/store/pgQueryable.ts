/**
 * The `pg` engine: a connection pool to a PostgreSQL server (`postgres://` URL) or to the store
 * owner's Unix socket (`{host: DIR, port: 5432}`, which PGlite serves with pglite-socket).
 */
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import pgvector from 'pgvector';
import { StoreError, messageOf } from './errors';
import { ownerEndpoint, pipeStream } from './ownerEndpoint';
import type { EngineKind, Queryable, Row, TxQueryable } from './queryable';

/**
 * Where a pool connects: a server URL, or the owner of a store folder (its Unix socket in the
 * folder, or on Windows its named pipe — ownerEndpoint.ts).
 */
export type PgTarget = ({ url: string } | { socketDir: string }) & {
	/** Session settings for every pooled connection, sent in the startup packet (`-c name=value`). */
	settings?: Record<string, string>;
};

/** Creates a pool; vector columns come back as number[] once `registerVectorType` has run. */
export function pgQueryable(target: PgTarget): Queryable & { registerVectorType(): Promise<void> } {
	const parsers = new Map<number, (v: string) => unknown>();
	const types = {
		getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
			parsers.get(oid) ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
	};
	const socket = 'socketDir' in target;
	const endpoint = socket ? ownerEndpoint(target.socketDir) : null;
	// pg finds a Unix socket from its folder; a named pipe needs a stream that connects to it.
	const reach =
		endpoint?.kind === 'pipe'
			? { host: 'localhost', stream: pipeStream(endpoint.path) }
			: { host: socket ? target.socketDir : undefined };
	const pool = new pg.Pool(
		socket
			? // PGlite runs one query at a time, so one connection per client process is all it can use.
				{
					...reach,
					port: 5432,
					user: 'postgres',
					database: 'postgres',
					max: 1,
					types,
					idleTimeoutMillis: 0,
					allowExitOnIdle: true,
				}
			: {
					connectionString: target.url,
					max: 4,
					types,
					connectionTimeoutMillis: 10_000,
					options: startupOptions(target.settings),
				},
	);
	// An idle client's socket error must not crash the process; the next query reports it.
	pool.on('error', (e) => void e);
	const engine: EngineKind = socket ? 'pglite-socket' : 'postgres';
	// Parameterised statements are prepared once per connection: the search CTEs take longer to
	// plan than to run (BM25 over PGlite's socket: 17 → 3 ms of owner CPU per query, bench:chat).
	// Over the socket every client shares the owner's one session, so there a statement's name
	// carries its connection's random tag: two processes, or a client that reconnected to the same
	// owner, never reuse each other's names (a closed connection's few statements stay prepared in
	// that session until the owner exits).
	const tags = new WeakMap<object, string>();
	if (socket) pool.on('connect', (client) => tags.set(client, randomBytes(6).toString('hex')));
	const named = (sql: string, params: readonly unknown[], tag = '') =>
		params.length && (!socket || tag)
			? {
					name: `gm_${tag}${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`,
					text: sql,
					values: params as unknown[],
				}
			: { text: sql, values: params as unknown[] };
	const tagOf = (client: object) => {
		const tag = tags.get(client);
		return tag ? `${tag}_` : '';
	};
	return {
		engine,
		async query<T extends object = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
			if (!socket || !params.length) return (await pool.query<T>(named(sql, params))).rows;
			// The name depends on the connection, so take it first (pool.query would pick it later).
			const client = await pool.connect();
			// As in transaction(): a socket reset while checked out is this query's error, not a crash.
			let broken = false;
			const onError = () => void (broken = true);
			client.on('error', onError);
			try {
				return (await client.query<T>(named(sql, params, tagOf(client)))).rows;
			} catch (e) {
				// An error the database reported leaves the connection usable (and its statements
				// prepared); anything else (a reset socket) discards it.
				if (!(e instanceof pg.DatabaseError)) broken = true;
				throw e;
			} finally {
				client.off('error', onError);
				client.release(broken || undefined);
			}
		},
		async transaction<T>(fn: (tx: TxQueryable) => Promise<T>): Promise<T> {
			const client = await pool.connect();
			// A checked-out client has no pool listener: a socket reset now (owner killed, server
			// restarted) would be an unhandled 'error' event that kills the process. The failing
			// query reports it instead, and the broken client is discarded on release.
			let broken = false;
			const onError = () => void (broken = true);
			client.on('error', onError);
			try {
				await client.query('BEGIN');
				const out = await fn({
					async query<R extends object = Row>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
						return (await client.query<R>(named(sql, params, tagOf(client)))).rows;
					},
				});
				await client.query('COMMIT');
				return out;
			} catch (e) {
				await client.query('ROLLBACK').catch((rollbackError: unknown) => {
					broken = true;
					throw new AggregateError([e, rollbackError], `rollback failed after: ${messageOf(e)}`);
				});
				throw e;
			} finally {
				client.off('error', onError);
				client.release(broken || undefined);
			}
		},
		async registerVectorType(): Promise<void> {
			const rows = (await pool.query<{ oid: number }>("SELECT oid::int AS oid FROM pg_type WHERE typname = 'vector'"))
				.rows;
			for (const r of rows) parsers.set(r.oid, (v) => pgvector.fromSql(v));
		},
		close: () => pool.end(),
	};
}

/** Opens a pool and checks it answers; a refused connection becomes StoreError 'unreachable'. */
export async function connectPg(target: PgTarget): Promise<ReturnType<typeof pgQueryable>> {
	const q = pgQueryable(target);
	try {
		await q.query('SELECT 1');
		return q;
	} catch (e) {
		await q.close().catch((closeError: unknown) => void closeError); // the connect error is the one to report
		const where = 'url' in target ? redactUrl(target.url) : `the store owner's socket in ${target.socketDir}`;
		throw new StoreError('unreachable', `cannot connect to ${where}: ${messageOf(e)}`, { cause: e });
	}
}

/** The URL without its password, for messages and `gmem inspect`. */
export function redactUrl(url: string): string {
	try {
		const u = new URL(url);
		if (u.password) u.password = '***';
		return u.toString();
	} catch {
		return 'postgres://(unparseable URL)';
	}
}

function startupOptions(settings: Record<string, string> | undefined): string | undefined {
	if (!settings) return undefined;
	return Object.entries(settings)
		.map(([k, v]) => `-c ${k}=${v}`)
		.join(' ');
}
