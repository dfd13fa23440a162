/**
 * Versioned schema migrations, run at open inside one transaction and recorded in
 * `schema_version`. A database written by a newer version is refused, never "repaired".
 */
import { StoreError, messageOf } from './errors';
import type { Queryable, TxQueryable } from './queryable';
import { SCHEMA_001 } from './schema001';
import { SCHEMA_002 } from './schema002';
import { SCHEMA_003 } from './schema003';
import { SCHEMA_004 } from './schema004';
import { SCHEMA_005 } from './schema005';

/** One numbered, append-only schema step. Never edit a released step; add the next number. */
export interface Migration {
	version: number;
	name: string;
	sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
	{ version: 1, name: 'four tiers, hybrid search', sql: SCHEMA_001 },
	{ version: 2, name: 'user/team scope on every row', sql: SCHEMA_002 },
	{ version: 3, name: 'symbol table', sql: SCHEMA_003 },
	{ version: 4, name: 'memory proposals, code anchors, recall times', sql: SCHEMA_004 },
	{ version: 5, name: 'BM25 postings index covers tf and doc_len', sql: SCHEMA_005 },
];

/** The schema version this build writes and understands. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

// Serialises concurrent openers of one server database (any fixed 64-bit key will do).
const MIGRATION_LOCK_KEY = 727_465_001;

/**
 * Brings the database to SCHEMA_VERSION. Creates the vector extension first so a server without
 * pgvector fails with a clear message before anything is written.
 */
export async function migrate(db: Queryable): Promise<number> {
	await ensureVectorExtension(db);
	try {
		return await db.transaction(async (tx) => {
			await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
			await tx.query(
				'CREATE TABLE IF NOT EXISTS schema_version (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
			);
			const current = await currentVersion(tx);
			if (current > SCHEMA_VERSION) {
				throw new StoreError(
					'newer-schema',
					`this database has schema version ${current}, newer than this Gated Memory understands (${SCHEMA_VERSION}). ` +
						'Update Gated Memory; the database was not changed.',
				);
			}
			for (const m of MIGRATIONS) {
				if (m.version <= current) continue;
				await tx.query(m.sql);
				await tx.query('INSERT INTO schema_version (version, name) VALUES ($1, $2)', [m.version, m.name]);
			}
			return SCHEMA_VERSION;
		});
	} catch (e) {
		if (e instanceof StoreError) throw e;
		throw new StoreError('migration-failed', `schema migration failed (nothing was changed): ${messageOf(e)}`, {
			cause: e,
		});
	}
}

/** The highest applied migration, 0 for an empty database. */
export async function currentVersion(q: TxQueryable): Promise<number> {
	const rows = await q.query<{ v: number | null }>('SELECT max(version)::int AS v FROM schema_version');
	return rows[0]?.v ?? 0;
}

async function ensureVectorExtension(db: Queryable): Promise<void> {
	const installed = await db.query("SELECT 1 FROM pg_extension WHERE extname = 'vector'");
	if (installed.length) return;
	const available = await db.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
	if (!available.length) {
		throw new StoreError(
			'no-vector',
			'the database server has no pgvector extension. Install pgvector on the server (https://github.com/pgvector/pgvector), then retry.',
		);
	}
	try {
		await db.query('CREATE EXTENSION IF NOT EXISTS vector');
	} catch (e) {
		throw new StoreError(
			'no-vector',
			`the pgvector extension is installed on the server but could not be enabled in this database: ${messageOf(e)}. ` +
				'Ask an administrator to run CREATE EXTENSION vector in it.',
			{ cause: e },
		);
	}
}
