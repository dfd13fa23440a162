/**
 * Code anchors of research memories (migration 4): what a memory cites (file, symbol, lines, the
 * chunk's content hash when written), the workspace tier's current chunks to check them against,
 * re-anchoring and review marks, and recall times. Scope and workspace filtered in every statement.
 */
import { scopeOf, type Queryable } from './queryable';

/** An anchor with the memory it belongs to. */
export interface AnchorRow {
	id: string;
	memory_id: string;
	doc_id: string;
	workspace_id: string;
	path: string;
	symbol: string | null;
	start_line: number | null;
	end_line: number | null;
	content_hash: string | null;
	review: 'current' | 'stale' | 'kept';
}

/** A workspace-tier chunk as it is now. */
export interface CurrentChunkRow {
	workspace_id: string;
	path: string;
	symbol: string | null;
	start_line: number | null;
	end_line: number | null;
	content_hash: string;
}

export interface NewAnchor {
	path: string;
	symbol: string | null;
	startLine: number | null;
	endLine: number | null;
	contentHash: string | null;
}

/** Stores the anchors of one memory. */
export async function insertAnchors(
	db: Queryable,
	workspaceId: string,
	memory: { id: string; docId: string },
	anchors: readonly NewAnchor[],
): Promise<void> {
	for (const a of anchors) {
		await db.query(
			`INSERT INTO memory_anchors (scope, workspace_id, memory_id, doc_id, path, symbol, start_line, end_line, content_hash, checked_at)
			 VALUES ($1, $2, $3::bigint, $4, $5, $6, $7, $8, $9, now())`,
			[scopeOf(db), workspaceId, memory.id, memory.docId, a.path, a.symbol, a.startLine, a.endLine, a.contentHash],
		);
	}
}

/**
 * The anchors of the memories behind these chunk document ids: one lookup on (scope, workspace,
 * doc_id). Recall never returns a superseded memory (it loses its chunks), so no join is needed —
 * and none is wanted: these tables are never ANALYZEd in PGlite (no autovacuum), and with an
 * empty table's estimates a join scanned every anchor of the workspace per memory (measured:
 * 70 ms for 300 anchors).
 */
export async function anchorsForDocIds(
	db: Queryable,
	workspaceIds: readonly string[],
	docIds: readonly string[],
): Promise<AnchorRow[]> {
	if (!docIds.length || !workspaceIds.length) return [];
	return db.query<AnchorRow>(
		`SELECT id::text AS id, memory_id::text AS memory_id, doc_id, workspace_id, path, symbol, start_line, end_line, content_hash, review
		 FROM memory_anchors WHERE scope = $1 AND workspace_id = ANY($2::text[]) AND doc_id = ANY($3::text[]) ORDER BY id`,
		[scopeOf(db), workspaceIds, docIds],
	);
}

/** The workspace tier's chunks now in these files (the chunks_path index). */
export async function currentChunksIn(
	db: Queryable,
	workspaceIds: readonly string[],
	paths: readonly string[],
): Promise<CurrentChunkRow[]> {
	if (!workspaceIds.length || !paths.length) return [];
	return db.query<CurrentChunkRow>(
		`SELECT workspace_id, path, symbol, start_line, end_line, content_hash FROM chunks
		 WHERE scope = $1 AND workspace_id = ANY($2::text[]) AND path = ANY($3::text[]) AND tier = 'workspace'`,
		[scopeOf(db), workspaceIds, paths],
	);
}

/**
 * Chunks elsewhere holding this content (a file renamed or the code moved to another file). No
 * index serves it, so it runs only for anchors whose file has no chunks at all and that were
 * not already found gone.
 */
export async function chunksWithHashes(
	db: Queryable,
	workspaceIds: readonly string[],
	hashes: readonly string[],
): Promise<CurrentChunkRow[]> {
	if (!workspaceIds.length || !hashes.length) return [];
	return db.query<CurrentChunkRow>(
		`SELECT workspace_id, path, symbol, start_line, end_line, content_hash FROM chunks
		 WHERE scope = $1 AND workspace_id = ANY($2::text[]) AND tier = 'workspace' AND content_hash = ANY($3::text[])`,
		[scopeOf(db), workspaceIds, hashes],
	);
}

/** The workspace chunks overlapping lines of a file (what a selection or a citation anchors to). */
export async function chunksCovering(
	db: Queryable,
	workspaceId: string,
	path: string,
	startLine: number,
	endLine: number,
): Promise<CurrentChunkRow[]> {
	return db.query<CurrentChunkRow>(
		`SELECT workspace_id, path, symbol, start_line, end_line, content_hash FROM chunks
		 WHERE scope = $1 AND workspace_id = $2 AND tier = 'workspace' AND path = $3 AND start_line <= $5 AND end_line >= $4
		 ORDER BY start_line`,
		[scopeOf(db), workspaceId, path, startLine, endLine],
	);
}

/** The workspace chunk with this id (a trace hit's chunk_id), if still there. */
export async function chunkById(
	db: Queryable,
	workspaceIds: readonly string[],
	chunkId: string,
): Promise<CurrentChunkRow | null> {
	const cols = `workspace_id, path, symbol, start_line, end_line, content_hash`;
	// The trace's chunk ids are `<doc id>#<chunk no>` (hybridSearch); a bare row id is accepted too.
	const m = /^(.+)#(\d{1,9})$/.exec(chunkId);
	if (m) {
		const rows = await db.query<CurrentChunkRow>(
			`SELECT ${cols} FROM chunks WHERE scope = $1 AND workspace_id = ANY($2::text[]) AND tier = 'workspace' AND doc_id = $3 AND chunk_no = $4::int`,
			[scopeOf(db), workspaceIds, m[1], m[2]],
		);
		return rows[0] ?? null;
	}
	if (!/^\d{1,18}$/.test(chunkId)) return null;
	const rows = await db.query<CurrentChunkRow>(
		`SELECT ${cols} FROM chunks WHERE scope = $1 AND workspace_id = ANY($2::text[]) AND tier = 'workspace' AND id = $3::bigint`,
		[scopeOf(db), workspaceIds, chunkId],
	);
	return rows[0] ?? null;
}

/** Moves an anchor to where its code is now (moved, or kept by the user). */
export async function reanchor(
	db: Queryable,
	anchorId: string,
	now: { path: string; symbol: string | null; startLine: number | null; endLine: number | null; contentHash: string },
	review: 'current' | 'kept',
): Promise<void> {
	await db.query(
		`UPDATE memory_anchors SET path = $3, symbol = $4, start_line = $5, end_line = $6, content_hash = $7, review = $8, checked_at = now() WHERE scope = $1 AND id = $2::bigint`,
		[scopeOf(db), anchorId, now.path, now.symbol, now.startLine, now.endLine, now.contentHash, review],
	);
}

/** Sets the review mark of anchors (stale after a failed check; kept when the user keeps a gone one). */
export async function markAnchors(
	db: Queryable,
	anchorIds: readonly string[],
	review: 'current' | 'stale' | 'kept',
): Promise<void> {
	if (!anchorIds.length) return;
	await db.query(
		`UPDATE memory_anchors SET review = $3, checked_at = now() WHERE scope = $1 AND id = ANY($2::bigint[])`,
		[scopeOf(db), anchorIds, review],
	);
}

/** Records that recall used these memories (decay reads it). */
export async function touchRecalled(
	db: Queryable,
	workspaceIds: readonly string[],
	docIds: readonly string[],
): Promise<void> {
	if (!docIds.length || !workspaceIds.length) return;
	await db.query(
		`UPDATE research_memory SET last_recalled_at = now() WHERE scope = $1 AND workspace_id = ANY($2::text[]) AND doc_id = ANY($3::text[])`,
		[scopeOf(db), workspaceIds, docIds],
	);
}

/** Provenance of recalled memories, for "why recalled": age and the turn that wrote them. */
export interface MemoryProvenance {
	doc_id: string;
	id: string;
	source_turn: string | null;
	created_at: string;
	age_days: number;
	/** Days since it was last recalled (or written, if never recalled): decay reads it. */
	idle_days: number;
}

export async function memoryProvenance(
	db: Queryable,
	workspaceIds: readonly string[],
	docIds: readonly string[],
): Promise<MemoryProvenance[]> {
	if (!docIds.length || !workspaceIds.length) return [];
	return db.query<MemoryProvenance>(
		`SELECT doc_id, id::text AS id, source_turn, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS created_at,
			floor(extract(epoch FROM (now() - created_at)) / 86400)::int AS age_days,
			floor(extract(epoch FROM (now() - coalesce(last_recalled_at, updated_at))) / 86400)::int AS idle_days
		 FROM research_memory WHERE scope = $1 AND workspace_id = ANY($2::text[]) AND doc_id = ANY($3::text[])`,
		[scopeOf(db), workspaceIds, docIds],
	);
}

/** Memories with a stale anchor (Inspect Memory State's review list), newest first. */
export interface StaleMemoryRow {
	workspace_id: string;
	doc_id: string;
	content: string;
	path: string;
	symbol: string | null;
	start_line: number | null;
	end_line: number | null;
	checked_at: string | null;
}

export async function staleMemories(
	db: Queryable,
	workspaceIds: readonly string[],
	limit = 20,
): Promise<StaleMemoryRow[]> {
	if (!workspaceIds.length) return [];
	return db.query<StaleMemoryRow>(
		`SELECT m.workspace_id, m.doc_id, m.content, a.path, a.symbol, a.start_line, a.end_line, to_char(a.checked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS checked_at
		 FROM memory_anchors a JOIN research_memory m ON m.id = a.memory_id
		 WHERE a.scope = $1 AND a.workspace_id = ANY($2::text[]) AND a.review = 'stale' AND m.superseded_by IS NULL
		 ORDER BY a.checked_at DESC NULLS LAST, a.id DESC LIMIT $3`,
		[scopeOf(db), workspaceIds, limit],
	);
}

/** Doc ids of the memories that cite code (Inspect Memory State checks them all when it opens). */
export async function anchoredDocIds(db: Queryable, workspaceIds: readonly string[], limit = 200): Promise<string[]> {
	if (!workspaceIds.length) return [];
	const rows = await db.query<{ doc_id: string }>(
		`SELECT DISTINCT doc_id FROM memory_anchors WHERE scope = $1 AND workspace_id = ANY($2::text[]) ORDER BY doc_id LIMIT $3`,
		[scopeOf(db), workspaceIds, limit],
	);
	return rows.map((r) => r.doc_id);
}

/** Memories demoted by decay: current, not recalled (or written) for at least `days` days. */
export interface DemotedMemoryRow {
	workspace_id: string;
	doc_id: string;
	content: string;
	idle_days: number;
}

export async function demotedMemories(
	db: Queryable,
	workspaceIds: readonly string[],
	days: number,
	limit = 20,
): Promise<DemotedMemoryRow[]> {
	if (!workspaceIds.length || days <= 0) return [];
	return db.query<DemotedMemoryRow>(
		`SELECT workspace_id, doc_id, content, floor(extract(epoch FROM (now() - coalesce(last_recalled_at, updated_at))) / 86400)::int AS idle_days
		 FROM research_memory WHERE scope = $1 AND workspace_id = ANY($2::text[]) AND superseded_by IS NULL
			AND coalesce(last_recalled_at, updated_at) <= now() - make_interval(days => $3)
		 ORDER BY coalesce(last_recalled_at, updated_at) LIMIT $4`,
		[scopeOf(db), workspaceIds, days, limit],
	);
}
