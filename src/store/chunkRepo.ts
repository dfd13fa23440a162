/**
 * Documents and chunks of the workspace and research tiers, and the BM25 statistics kept with
 * them (postings, corpus totals). Statistics change in the same transaction as the rows they describe, so a forget or
 * a re-ingest can never leave document frequencies that count text no longer stored.
 */
import type { Queryable, TxQueryable } from './queryable';
import { scopeOf, toVectorLiteral } from './queryable';

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
	/** Definitions starting in this chunk, for the symbol table (migration 3). */
	definitions?: readonly SymbolInput[];
}

/** One definition: qualified name (`Class.method`), kind, 1-based inclusive lines. */
export interface SymbolInput {
	name: string;
	kind: string;
	startLine: number;
	endLine: number;
}

/** `send_file`, `sendFile`, `SendFile` → `sendfile`: how the symbol table and its probes compare names. */
export function normalizeSymbol(name: string): string {
	return name.toLowerCase().replace(/[_$]/g, '');
}

/** The last segment of a qualified name (`Class.method` → `method`, `a::b` → `b`). */
export function symbolLeaf(name: string): string {
	const parts = name.split(/\.|::/);
	return parts[parts.length - 1];
}

/** One document with its chunks; re-writing a doc id replaces it. */
export interface DocumentInput {
	workspaceId: string;
	/** User/team scope; default: the connection's. */
	scope?: string;
	tier: ChunkTier;
	docId: string;
	path: string | null;
	contentHash: string;
	mtimeMs: number | null;
	metadata: Record<string, unknown>;
	chunks: ChunkInput[];
	embedder: string | null;
}

/**
 * Which rows a delete touches. Every field narrows; an empty scope means everything of the
 * user/team `scope` (default: the connection's) — never another scope's rows.
 */
export interface DeleteScope {
	scope?: string;
	workspaceId?: string;
	tier?: ChunkTier;
	docId?: string;
	path?: string;
}

// Adds (sign 1) or removes (sign -1) the chunks in CTE `changed` (scope, workspace_id, tier, tsv,
// doc_len) to/from the corpus totals and the document frequencies (terms whose df reaches 0 are
// dropped at the end of the transaction). `changed` is the RETURNING of the statement's own INSERT or
// DELETE, never a separate read: two writers replacing or removing the same file at once (two
// windows during a `git checkout`) would each read the same old chunks under READ COMMITTED and
// subtract them twice, while a DELETE … RETURNING gives each transaction only the rows it removed.
const STATS_CTES = (sign: 1 | -1) => `
terms AS (
	INSERT INTO term_df AS t (tier, term, scope, workspace_id, df)
	SELECT tier, term, scope, workspace_id, ${sign} * count(*) FROM changed, unnest(tsvector_to_array(tsv)) AS term GROUP BY tier, term, scope, workspace_id
	ON CONFLICT (tier, term, scope, workspace_id) DO UPDATE SET df = t.df + EXCLUDED.df
	RETURNING 1),
totals AS (
	INSERT INTO corpus_stats AS s (scope, workspace_id, tier, n_chunks, total_len)
	SELECT scope, workspace_id, tier, ${sign} * count(*), ${sign} * coalesce(sum(doc_len), 0) FROM changed GROUP BY scope, workspace_id, tier
	ON CONFLICT (scope, workspace_id, tier) DO UPDATE SET n_chunks = s.n_chunks + EXCLUDED.n_chunks, total_len = s.total_len + EXCLUDED.total_len
	RETURNING 1)`;

// The BM25 postings of the chunks with these ids (removed with them by ON DELETE CASCADE).
const POSTINGS_SQL = `
INSERT INTO chunk_terms (tier, term, scope, workspace_id, chunk_id, tf, doc_len)
SELECT c.tier, u.lexeme, c.scope, c.workspace_id, c.id, coalesce(array_length(u.positions, 1), 1), c.doc_len
FROM chunks c CROSS JOIN LATERAL unnest(c.tsv) AS u WHERE c.id = ANY($1::bigint[])`;

/**
 * Writes documents (replacing any with the same id; the last of duplicate ids wins) in one
 * transaction; returns chunks written. A handful of set-based statements per (workspace, tier)
 * group rather than several per document: per-statement latency dominates on PGlite's socket.
 */
export async function upsertDocuments(db: Queryable, docs: readonly DocumentInput[]): Promise<number> {
	if (!docs.length) return 0;
	const groups = new Map<string, Map<string, DocumentInput>>();
	const defaultScope = scopeOf(db);
	for (const d of docs) {
		const key = JSON.stringify([d.scope ?? defaultScope, d.workspaceId, d.tier]);
		if (!groups.has(key)) groups.set(key, new Map());
		groups.get(key)!.set(d.docId, d);
	}
	return db.transaction(async (tx) => {
		let n = 0;
		for (const group of groups.values()) n += await writeGroup(tx, [...group.values()], defaultScope);
		await tx.query('DELETE FROM term_df WHERE df <= 0');
		return n;
	});
}

// All docs share one scope, workspace and tier.
async function writeGroup(tx: TxQueryable, docs: DocumentInput[], defaultScope: string): Promise<number> {
	const { workspaceId, tier } = docs[0];
	const userScope = docs[0].scope ?? defaultScope;
	const scope = 'c.workspace_id = $1 AND c.tier = $2 AND c.doc_id = ANY($3::text[]) AND c.scope = $4';
	const scopeParams = [workspaceId, tier, docs.map((d) => d.docId), userScope];
	await deleteWhere(tx, scope, scopeParams);
	await tx.query(
		`INSERT INTO documents (scope, workspace_id, tier, doc_id, path, content_hash, mtime_ms, metadata)
		 SELECT $8, $1, $2, * FROM unnest($3::text[], $4::text[], $5::text[], $6::bigint[], $7::jsonb[])`,
		[
			workspaceId,
			tier,
			docs.map((d) => d.docId),
			docs.map((d) => d.path),
			docs.map((d) => d.contentHash),
			docs.map((d) => d.mtimeMs),
			docs.map((d) => JSON.stringify(d.metadata)),
			userScope,
		],
	);
	const rows = docs.flatMap((d) => d.chunks.map((c, i) => ({ d, c, i })));
	if (!rows.length) return 0;
	const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
	// Statistics from the INSERT's own RETURNING (see STATS_CTES); postings by the ids it returned.
	const written = await tx.query<{ id: unknown }>(
		`WITH changed AS (INSERT INTO chunks (scope, workspace_id, tier, doc_id, chunk_no, path, start_line, end_line, symbol, kind, language, content, content_hash, search_text, doc_len, embedding, embedder)
		 SELECT $16, $1, $2, u.doc_id, u.chunk_no, u.path, u.start_line, u.end_line, u.symbol, u.kind, u.language, u.content, u.content_hash, u.search_text,
			(SELECT coalesce(sum(array_length(positions, 1)), 0) FROM unnest(to_tsvector('english', u.search_text))), u.embedding::vector, u.embedder
		 FROM unnest($3::text[], $4::int[], $5::text[], $6::int[], $7::int[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[])
			AS u(doc_id, chunk_no, path, start_line, end_line, symbol, kind, language, content, content_hash, search_text, embedding, embedder)
		 RETURNING id, scope, workspace_id, tier, tsv, doc_len),${STATS_CTES(1)}
		 SELECT id FROM changed`,
		[
			workspaceId,
			tier,
			col((r) => r.d.docId),
			col((r) => r.i),
			col((r) => r.c.path),
			col((r) => r.c.startLine),
			col((r) => r.c.endLine),
			col((r) => r.c.symbol),
			col((r) => r.c.kind),
			col((r) => r.c.language),
			col((r) => r.c.content),
			col((r) => r.c.contentHash),
			col((r) => r.c.searchText),
			col((r) => (r.c.embedding ? toVectorLiteral(r.c.embedding) : null)),
			col((r) => (r.c.embedding ? r.d.embedder : null)),
			userScope,
		],
	);
	await tx.query(POSTINGS_SQL, [written.map((r) => r.id)]);
	await insertSymbols(tx, rows, workspaceId, tier, userScope);
	return rows.length;
}

// The definitions of the chunks just written, joined to their ids by the chunk's unique key.
async function insertSymbols(
	tx: TxQueryable,
	rows: { d: DocumentInput; c: ChunkInput; i: number }[],
	workspaceId: string,
	tier: ChunkTier,
	userScope: string,
): Promise<void> {
	const defs = rows.flatMap((r) => (r.c.definitions ?? []).map((s) => ({ docId: r.d.docId, chunkNo: r.i, s })));
	if (!defs.length) return;
	const col = <T>(f: (r: (typeof defs)[number]) => T) => defs.map(f);
	await tx.query(
		`INSERT INTO symbols (chunk_id, scope, workspace_id, tier, path, name, norm_leaf, norm_name, kind, start_line, end_line)
		 SELECT c.id, c.scope, c.workspace_id, c.tier, c.path, u.name, u.norm_leaf, u.norm_name, u.kind, u.start_line, u.end_line
		 FROM unnest($4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[], $10::int[], $11::int[])
			AS u(doc_id, chunk_no, name, norm_leaf, norm_name, kind, start_line, end_line)
		 JOIN chunks c ON c.scope = $3 AND c.workspace_id = $1 AND c.tier = $2 AND c.doc_id = u.doc_id AND c.chunk_no = u.chunk_no`,
		[
			workspaceId,
			tier,
			userScope,
			col((r) => r.docId),
			col((r) => r.chunkNo),
			col((r) => r.s.name),
			col((r) => normalizeSymbol(symbolLeaf(r.s.name))),
			col((r) => normalizeSymbol(r.s.name.replace(/::/g, '.'))),
			col((r) => r.s.kind),
			col((r) => r.s.startLine),
			col((r) => r.s.endLine),
		],
	);
}

// `where` is over alias c (chunks, documents). The statistics change by exactly the rows this
// DELETE removed (STATS_CTES); postings go with their chunks by cascade.
async function deleteWhere(tx: TxQueryable, where: string, params: unknown[]): Promise<number> {
	const rows = await tx.query<{ n: number }>(
		`WITH changed AS (DELETE FROM chunks c WHERE ${where} RETURNING c.scope, c.workspace_id, c.tier, c.tsv, c.doc_len),${STATS_CTES(-1)}
		 SELECT count(*)::int AS n FROM changed`,
		params,
	);
	await tx.query(`DELETE FROM documents c WHERE ${where}`, params);
	return rows[0]?.n ?? 0;
}

/** Deletes documents and chunks in `scope` with their statistics; returns the chunks removed. */
export async function deleteDocuments(db: Queryable, scope: DeleteScope): Promise<number> {
	const conds: string[] = [];
	const params: unknown[] = [];
	const add = (col: string, v: string | undefined) => {
		if (v === undefined) return;
		params.push(v);
		conds.push(`c.${col} = $${params.length}`);
	};
	add('scope', scope.scope ?? scopeOf(db));
	add('workspace_id', scope.workspaceId);
	add('tier', scope.tier);
	add('doc_id', scope.docId);
	add('path', scope.path);
	const where = conds.join(' AND ');
	return db.transaction(async (tx) => {
		const n = await deleteWhere(tx, where, params);
		await tx.query(`DELETE FROM corpus_stats WHERE n_chunks <= 0`);
		await tx.query('DELETE FROM term_df WHERE df <= 0');
		return n;
	});
}

/**
 * After a bulk write: refreshes planner statistics and, on PGlite, vacuums the postings and writes a checkpoint. PGlite runs
 * no autovacuum, so without ANALYZE the planner keeps the estimates of an empty table and sorts
 * every vector exactly instead of using the HNSW index (measured: 60 ms instead of 6 ms at 6k
 * chunks). It has no background checkpointer either: the WAL of a bulk load stays in pg_wal until
 * a checkpoint lets it be recycled (docs/storage.md "WAL after a bulk load"). A server
 * checkpoints by itself (and CHECKPOINT needs a privileged role there).
 */
export async function analyzeChunks(db: Queryable): Promise<void> {
	// BM25 reads a term's postings from chunk_terms_impact alone only where the visibility map says
	// the heap pages are all-visible. PGlite has no autovacuum; a server's vacuums an insert-only
	// table once a fifth of it is new (autovacuum_vacuum_insert_scale_factor 0.2), so a new
	// workspace's postings could be read with heap fetches for a long time: on the bench's 20k store
	// restored without a vacuum, the BM25 statement took 5.2–7.2 ms p50 (3,517 heap fetches for one
	// identifier query), 3.3–4.5 after one. A vacuum only visits pages not yet all-visible. It runs
	// before ANALYZE: under synchronous_commit = off a page stays not-all-visible while a commit
	// near its writers' (the ANALYZE's own) is unflushed. Not SKIP_LOCKED: an autovacuum worker
	// that is only analysing the table would make it skip.
	await db.query('VACUUM chunk_terms');
	// documents and symbols too: without their statistics the planner read a pasted trace's file
	// name by scanning every document's path with a regexp (350 ms at 20k documents, bench:chat).
	await db.query('ANALYZE documents, chunks, chunk_terms, term_df, corpus_stats, symbols');
	// New rows of the full-text GIN index wait in its pending list (fastupdate) until a vacuum merges
	// them; every tsv search scans the whole list. PGlite has no autovacuum: at 20k chunks the list
	// held 464 pages and a raising-site phrase query took 7.4 ms there, 1.8 after this (bench:chat).
	if (db.engine !== 'postgres') await db.query("SELECT gin_clean_pending_list('chunks_tsv'::regclass)");
	await checkpoint(db);
}

/**
 * Within one long load, PGlite checkpoints every this many chunks: it does not checkpoint by itself
 * (measured: 928 MB of WAL at the end of a 20k-chunk load despite max_wal_size 64 MB).
 */
export const CHECKPOINT_EVERY_CHUNKS = 2000;

/** A checkpoint on PGlite, so its WAL can be recycled; a server checkpoints by itself. */
export async function checkpoint(db: Queryable): Promise<void> {
	if (db.engine !== 'postgres') await db.query('CHECKPOINT');
}

/** For one long load: told each write's chunk count, checkpoints every CHECKPOINT_EVERY_CHUNKS. */
export function walCheckpointer(db: Queryable): (chunks: number) => Promise<void> {
	let since = 0;
	return async (chunks) => {
		since += chunks;
		if (since < CHECKPOINT_EVERY_CHUNKS) return;
		await checkpoint(db);
		since = 0;
	};
}

/** The vector index of migration 1, as it is (re)built after a bulk load or at open. */
export const VECTOR_INDEX_SQL =
	'CREATE INDEX IF NOT EXISTS chunks_embedding ON chunks USING hnsw (embedding vector_cosine_ops)';

/**
 * Bulk loads skip the HNSW index when they grow the table by at least this fraction (and this
 * many chunks): inserting into the graph row by row cost more than building it once afterwards
 * (docs/storage.md "HNSW during bulk loads"; rebuilding also re-indexes the rows already there).
 */
export const BULK_INDEX_REBUILD = { minChunks: 1000, minGrowth: 0.5 };

/**
 * Runs a bulk write of about `incoming` chunks. When that grows the table enough, the HNSW index
 * is dropped first and built once afterwards (also when the write fails). Meanwhile the vector
 * arm is still correct — an exact scan, only slower — and an index lost to a crash is rebuilt at
 * the next open (`ensureVectorIndex`).
 */
export async function withBulkVectorIndex<T>(db: Queryable, incoming: number, write: () => Promise<T>): Promise<T> {
	if (incoming < BULK_INDEX_REBUILD.minChunks) return write();
	const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::float8 AS n FROM chunks');
	if (incoming < BULK_INDEX_REBUILD.minGrowth * n) return write();
	await db.query('DROP INDEX IF EXISTS chunks_embedding');
	try {
		return await write();
	} finally {
		await db.query(VECTOR_INDEX_SQL);
	}
}

/** Recreates the HNSW index if a bulk load was cut off while it was dropped. */
export async function ensureVectorIndex(db: Queryable): Promise<void> {
	const rows = await db.query(
		`SELECT 1 FROM pg_indexes WHERE tablename = 'chunks' AND indexname = 'chunks_embedding' AND schemaname = current_schema()`,
	);
	if (!rows.length) await db.query(VECTOR_INDEX_SQL);
}
