/**
 * Documents and chunks of the workspace and research tiers, and the BM25 term statistics kept
 * with them. Statistics change in the same transaction as the rows they describe, so a forget or
 * a re-ingest can never leave document frequencies that count text no longer stored.
 */
import type { Queryable, TxQueryable } from './queryable';
import { toVectorLiteral } from './queryable';

/** The tiers whose content is chunked and searched. */
export type ChunkTier = 'workspace' | 'research';

/** One chunk to store; `searchText` is what the full-text arm indexes. */
export interface ChunkInput {
	path: string | null;
	startLine: number | null;
	endLine: number | null;
	symbol: string | null;
	kind: string | null;
	language: string | null;
	content: string;
	contentHash: string;
	searchText: string;
	embedding: Float32Array | null;
}

/** One document with its chunks; re-writing a doc id replaces it. */
export interface DocumentInput {
	workspaceId: string;
	tier: ChunkTier;
	docId: string;
	path: string | null;
	contentHash: string;
	mtimeMs: number | null;
	metadata: Record<string, unknown>;
	chunks: ChunkInput[];
	embedder: string | null;
}

/** Which rows a delete touches. Every field narrows; an empty scope means everything. */
export interface DeleteScope {
	workspaceId?: string;
	tier?: ChunkTier;
	docId?: string;
	path?: string;
}

// Adds (sign 1) or removes (sign -1) the statistics of the selected chunks.
const STATS_SQL = (sign: 1 | -1, where: string) => `
WITH sel AS (SELECT workspace_id, tier, tsv, doc_len FROM chunks WHERE ${where}),
terms AS (
	INSERT INTO term_df AS t (workspace_id, tier, term, df)
	SELECT workspace_id, tier, term, ${sign} * count(*) FROM sel, unnest(tsvector_to_array(tsv)) AS term
	GROUP BY workspace_id, tier, term
	ON CONFLICT (workspace_id, tier, term) DO UPDATE SET df = t.df + EXCLUDED.df
	RETURNING 1
)
INSERT INTO corpus_stats AS c (workspace_id, tier, n_chunks, total_len)
SELECT workspace_id, tier, ${sign} * count(*), ${sign} * coalesce(sum(doc_len), 0) FROM sel GROUP BY workspace_id, tier
ON CONFLICT (workspace_id, tier) DO UPDATE SET n_chunks = c.n_chunks + EXCLUDED.n_chunks, total_len = c.total_len + EXCLUDED.total_len`;

/** Writes documents (replacing any with the same id) in one transaction; returns chunks written. */
export async function upsertDocuments(db: Queryable, docs: readonly DocumentInput[]): Promise<number> {
	if (!docs.length) return 0;
	return db.transaction(async (tx) => {
		let n = 0;
		for (const doc of docs) {
			await deleteWhere(tx, 'workspace_id = $1 AND tier = $2 AND doc_id = $3', [doc.workspaceId, doc.tier, doc.docId]);
			await tx.query(
				`INSERT INTO documents (workspace_id, tier, doc_id, path, content_hash, mtime_ms, metadata) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
				[doc.workspaceId, doc.tier, doc.docId, doc.path, doc.contentHash, doc.mtimeMs, JSON.stringify(doc.metadata)],
			);
			n += await insertChunks(tx, doc);
		}
		await tx.query(`DELETE FROM term_df WHERE df <= 0`);
		return n;
	});
}

async function insertChunks(tx: TxQueryable, doc: DocumentInput): Promise<number> {
	if (!doc.chunks.length) return 0;
	// One multi-row INSERT per document; the doc_len and statistics follow in two statements.
	const cols = 14;
	const values: unknown[] = [];
	const tuples = doc.chunks.map((c, i) => {
		values.push(doc.workspaceId, doc.tier, doc.docId, i, c.path, c.startLine, c.endLine, c.symbol, c.kind, c.language);
		values.push(c.content, c.contentHash, c.searchText, c.embedding ? toVectorLiteral(c.embedding) : null);
		const b = i * cols;
		const ps = Array.from({ length: cols }, (_, j) => `$${b + j + 1}`);
		ps[cols - 1] += '::vector';
		return `(${ps.join(', ')}, ${doc.embedder === null ? 'NULL' : `$${doc.chunks.length * cols + 1}`})`;
	});
	if (doc.embedder !== null) values.push(doc.embedder);
	await tx.query(
		`INSERT INTO chunks (workspace_id, tier, doc_id, chunk_no, path, start_line, end_line, symbol, kind, language, content, content_hash, search_text, embedding, embedder) VALUES ${tuples.join(', ')}`,
		values,
	);
	const scope = 'workspace_id = $1 AND tier = $2 AND doc_id = $3';
	const params = [doc.workspaceId, doc.tier, doc.docId];
	await tx.query(
		`UPDATE chunks SET doc_len = (SELECT coalesce(sum(array_length(positions, 1)), 0) FROM unnest(tsv)) WHERE ${scope}`,
		params,
	);
	await tx.query(STATS_SQL(1, scope), params);
	return doc.chunks.length;
}

// Statistics first (they read the rows), then the documents; chunks go with them by cascade.
async function deleteWhere(tx: TxQueryable, where: string, params: unknown[]): Promise<number> {
	await tx.query(STATS_SQL(-1, where), params);
	const rows = await tx.query<{ n: number }>(`WITH d AS (DELETE FROM chunks WHERE ${where} RETURNING 1) SELECT count(*)::int AS n FROM d`, params);
	await tx.query(`DELETE FROM documents WHERE ${where}`, params);
	return rows[0]?.n ?? 0;
}

/** Deletes documents and chunks in `scope` with their statistics; returns the chunks removed. */
export async function deleteDocuments(db: Queryable, scope: DeleteScope): Promise<number> {
	const conds: string[] = [];
	const params: unknown[] = [];
	const add = (col: string, v: string | undefined) => {
		if (v === undefined) return;
		params.push(v);
		conds.push(`${col} = $${params.length}`);
	};
	add('workspace_id', scope.workspaceId);
	add('tier', scope.tier);
	add('doc_id', scope.docId);
	add('path', scope.path);
	const where = conds.length ? conds.join(' AND ') : 'TRUE';
	return db.transaction(async (tx) => {
		const n = await deleteWhere(tx, where, params);
		await tx.query(`DELETE FROM term_df WHERE df <= 0`);
		await tx.query(`DELETE FROM corpus_stats WHERE n_chunks <= 0`);
		return n;
	});
}
