/**
 * What `gmem inspect` reports: rows per tier, database size, engine, schema version and the most
 * recent turn decisions, all of the store's user/team scope (the database size excepted).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from './openStore';
import { scopeOf } from './queryable';

/** Counts and sizes of one store. */
export interface StoreStats {
	engine: string;
	where: string;
	schema_version: number;
	tiers: {
		workspace: { documents: number; chunks: number; embedded: number };
		research: { documents: number; chunks: number; memories: number; superseded: number };
		profile: { current: number; history: number };
		conversation: { turns: number };
	};
	database_bytes: number;
	disk_bytes: number | null;
	workspaces: number;
	recent_decisions: { turn_id: string; created_at: string; route: unknown; trigger: unknown; path: unknown }[];
}

// The owner may remove a file (WAL segment, socket) between readdir and stat: it counts as 0.
function fileSize(p: string): number {
	try {
		return statSync(p).size;
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
		throw e;
	}
}

/** Bytes of all files under `dir` (the on-disk size of a PGlite store). */
export function folderBytes(dir: string): number {
	let total = 0;
	for (const e of readdirSync(dir, { withFileTypes: true })) {
		const p = join(dir, e.name);
		if (e.isDirectory()) total += folderBytes(p);
		else if (e.isFile()) total += fileSize(p);
	}
	return total;
}

/** Collects the stats in a handful of queries. */
export async function storeStats(store: Store, recent = 5): Promise<StoreStats> {
	const q = store.db;
	// Counts are the store's own user/team scope (a shared server holds others' rows too); the
	// database size is the whole database's, as no scope has a size of its own.
	const scope = scopeOf(q);
	const [c] = await q.query<Record<string, number>>(
		`SELECT
		(SELECT count(*)::int FROM documents WHERE scope = $1 AND tier = 'workspace') AS ws_docs,
		(SELECT count(*)::int FROM chunks WHERE scope = $1 AND tier = 'workspace') AS ws_chunks,
		(SELECT count(*)::int FROM chunks WHERE scope = $1 AND tier = 'workspace' AND embedding IS NOT NULL) AS ws_embedded,
		(SELECT count(*)::int FROM documents WHERE scope = $1 AND tier = 'research') AS rs_docs,
		(SELECT count(*)::int FROM chunks WHERE scope = $1 AND tier = 'research') AS rs_chunks,
		(SELECT count(*)::int FROM research_memory WHERE scope = $1) AS memories,
		(SELECT count(*)::int FROM research_memory WHERE scope = $1 AND superseded_by IS NOT NULL) AS superseded,
		(SELECT count(*)::int FROM profile_entries WHERE scope = $1 AND valid_to IS NULL) AS profile_current,
		(SELECT count(*)::int FROM profile_entries WHERE scope = $1 AND valid_to IS NOT NULL) AS profile_history,
		(SELECT count(*)::int FROM conversation_turns WHERE scope = $1) AS turns,
		(SELECT count(DISTINCT workspace_id)::int FROM documents WHERE scope = $1) AS workspaces,
		pg_database_size(current_database())::float8 AS db_bytes`,
		[scope],
	);
	const decisions = await q.query<StoreStats['recent_decisions'][number]>(
		`SELECT turn_id, created_at::text AS created_at, trace->'decision'->'route' AS route, trace->'decision'->'trigger' AS trigger,
			trace->'decision'->'path' AS path
		 FROM conversation_turns WHERE scope = $2 AND trace IS NOT NULL ORDER BY created_at DESC, id DESC LIMIT $1`,
		[recent, scope],
	);
	return {
		engine: store.engine,
		where: store.where,
		schema_version: store.schemaVersion,
		tiers: {
			workspace: { documents: c.ws_docs, chunks: c.ws_chunks, embedded: c.ws_embedded },
			research: { documents: c.rs_docs, chunks: c.rs_chunks, memories: c.memories, superseded: c.superseded },
			profile: { current: c.profile_current, history: c.profile_history },
			conversation: { turns: c.turns },
		},
		database_bytes: c.db_bytes,
		disk_bytes: store.folder ? folderBytes(store.folder) : null,
		workspaces: c.workspaces,
		recent_decisions: decisions,
	};
}
