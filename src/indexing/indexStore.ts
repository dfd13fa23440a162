/**
 * The store reads and small writes the indexer needs beyond src/store's public API
 * (`upsertDocuments`, `deleteDocuments`): which files are indexed and with which keys, the stored
 * vectors of a file's chunks (so unchanged chunks are not embedded again), and refreshing a
 * file's modification time. Every statement is parameterised; none is built from values, and each
 * reads or writes only the connection's user/team scope (`scopeOf(db)`), filtered inside the SQL.
 */
import { deleteDocuments } from '../store/chunkRepo';
import { scopeOf, type Queryable } from '../store/queryable';

/** Marks documents written by the indexer, so `gmem ingest` documents in the same workspace are never removed by it. */
export const INDEX_SOURCE = 'index';

/** What the indexer stored about one file (documents.metadata plus columns). */
export interface IndexedFile {
	docId: string;
	contentHash: string;
	mtimeMs: number | null;
	size: number | null;
	embedder: string | null;
}

type FileRow = {
	doc_id: string;
	content_hash: string;
	mtime_ms: string | number | null;
	size: string | number | null;
	embedder: string | null;
};

const FILE_SELECT = `SELECT doc_id, content_hash, mtime_ms, metadata->>'size' AS size, metadata->>'embedder' AS embedder
	FROM documents WHERE scope = $3 AND workspace_id = $1 AND tier = 'workspace' AND metadata->>'source' = $2`;

// bigint and jsonb text come back as strings from pg: normalise to numbers.
function toIndexedFile(r: FileRow): IndexedFile {
	return {
		docId: r.doc_id,
		contentHash: r.content_hash,
		mtimeMs: r.mtime_ms === null ? null : Number(r.mtime_ms),
		size: r.size === null ? null : Number(r.size),
		embedder: r.embedder,
	};
}

/** Every indexed file of a workspace, by doc id (= workspace-relative path). */
export async function listIndexedFiles(db: Queryable, workspaceId: string): Promise<Map<string, IndexedFile>> {
	const rows = await db.query<FileRow>(FILE_SELECT, [workspaceId, INDEX_SOURCE, scopeOf(db)]);
	return new Map(rows.map((r) => [r.doc_id, toIndexedFile(r)]));
}

/** One indexed file's row, or null. */
export async function getIndexedFile(db: Queryable, workspaceId: string, docId: string): Promise<IndexedFile | null> {
	const rows = await db.query<FileRow>(`${FILE_SELECT} AND doc_id = $4`, [
		workspaceId,
		INDEX_SOURCE,
		scopeOf(db),
		docId,
	]);
	return rows.length ? toIndexedFile(rows[0]) : null;
}

/**
 * Stored vectors of the given files' chunks made by `embedder`, keyed by doc id then chunk
 * content hash. Read as pgvector text so both engines return the same thing.
 */
export async function storedChunkVectors(
	db: Queryable,
	workspaceId: string,
	docIds: readonly string[],
	embedder: string,
): Promise<Map<string, Map<string, Float32Array>>> {
	const out = new Map<string, Map<string, Float32Array>>();
	if (!docIds.length) return out;
	const rows = await db.query<{ doc_id: string; content_hash: string; v: string }>(
		`SELECT doc_id, content_hash, embedding::text AS v FROM chunks
		 WHERE scope = $4 AND workspace_id = $1 AND tier = 'workspace' AND doc_id = ANY($2::text[]) AND embedder = $3 AND embedding IS NOT NULL`,
		[workspaceId, docIds, embedder, scopeOf(db)],
	);
	for (const r of rows) {
		let m = out.get(r.doc_id);
		if (!m) out.set(r.doc_id, (m = new Map()));
		m.set(r.content_hash, parseVector(r.v));
	}
	return out;
}

/** pgvector's text form "[0.1,0.2]" → floats. */
export function parseVector(text: string): Float32Array {
	const inner = text.trim().replace(/^\[|\]$/g, '');
	return Float32Array.from(inner ? inner.split(',').map(Number) : []);
}

/** Records a new modification time for a file whose content did not change (a touch, a checkout). */
export async function touchIndexedFile(
	db: Queryable,
	workspaceId: string,
	docId: string,
	mtimeMs: number,
): Promise<void> {
	await db.query(
		`UPDATE documents SET mtime_ms = $3 WHERE scope = $4 AND workspace_id = $1 AND tier = 'workspace' AND doc_id = $2`,
		[workspaceId, docId, mtimeMs, scopeOf(db)],
	);
}

/** Removes indexed files (chunks, statistics, document rows) through the store's own delete. */
export async function removeIndexedFiles(
	db: Queryable,
	workspaceId: string,
	docIds: readonly string[],
): Promise<number> {
	let chunks = 0;
	for (const docId of docIds) chunks += await deleteDocuments(db, { workspaceId, tier: 'workspace', docId });
	return chunks;
}

/** Chunks currently indexed for a workspace (for status displays). */
export async function countIndexedChunks(db: Queryable, workspaceId: string): Promise<number> {
	const rows = await db.query<{ n: number }>(
		`SELECT count(*)::int AS n FROM chunks c JOIN documents d USING (scope, workspace_id, tier, doc_id)
		 WHERE c.scope = $3 AND c.workspace_id = $1 AND c.tier = 'workspace' AND d.metadata->>'source' = $2`,
		[workspaceId, INDEX_SOURCE, scopeOf(db)],
	);
	return rows[0]?.n ?? 0;
}

/** Indexed files and chunks over several workspaces (the status bar's counts). */
export async function indexedTotals(
	db: Queryable,
	workspaceIds: readonly string[],
): Promise<{ files: number; chunks: number }> {
	if (!workspaceIds.length) return { files: 0, chunks: 0 };
	const rows = await db.query<{ files: number; chunks: number }>(
		`SELECT (SELECT count(*)::int FROM documents WHERE scope = $3 AND tier = 'workspace' AND workspace_id = ANY($1::text[]) AND metadata->>'source' = $2) AS files,
		        (SELECT count(*)::int FROM chunks c JOIN documents d USING (scope, workspace_id, tier, doc_id)
		         WHERE c.scope = $3 AND c.tier = 'workspace' AND c.workspace_id = ANY($1::text[]) AND d.metadata->>'source' = $2) AS chunks`,
		[workspaceIds, INDEX_SOURCE, scopeOf(db)],
	);
	return { files: rows[0]?.files ?? 0, chunks: rows[0]?.chunks ?? 0 };
}
