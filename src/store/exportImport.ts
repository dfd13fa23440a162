/**
 * Export the memory of some workspaces to the JSON format of exportFormat.ts, and import such a
 * file back. Import validates every row first, then writes everything in one transaction (a bad
 * row or a database error changes nothing), and is idempotent: a document is written only when
 * its content hash differs from the stored one (then replaced with its chunks), turns are replaced
 * by their keys, research memories by doc id, profile values are matched on (key, value,
 * valid_from) so importing the same file twice adds nothing.
 */
import { analyzeChunks, upsertDocuments, type DocumentInput } from './chunkRepo';
import {
	EXPORT_FORMAT,
	EXPORT_VERSION,
	ExportFormatError,
	type ExportChunk,
	type ExportDocument,
	type ExportProfileEntry,
	type ExportResearchMemory,
	type ExportTurn,
	type MemoryExport,
} from './exportFormat';
import { scopeOf, type Queryable, type TxQueryable } from './queryable';

export { ExportFormatError, parseMemoryExport, type MemoryExport } from './exportFormat';

/** Rows written per table by an import. */
export interface ImportCounts {
	/** Documents written (new or changed); unchanged ones are skipped and keep their vectors. */
	documents: number;
	documents_unchanged: number;
	chunks: number;
	research_memory: number;
	profile_entries: number;
	conversation_turns: number;
}

// Microsecond ISO 8601 in UTC: the exact stored instant, so a re-import matches it.
const ISO = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Reads the memory of the workspaces `ids` (in the connection's user/team scope) into an export
 * object, without vectors. The file names no scope: an import writes into the importer's scope.
 */
export async function exportMemory(
	db: Queryable,
	ids: readonly string[],
	schemaVersion: number,
	now = new Date(),
): Promise<MemoryExport> {
	const scope = scopeOf(db);
	const docs = await db.query<Omit<ExportDocument, 'chunks'>>(
		`SELECT workspace_id, tier, doc_id, path, content_hash, mtime_ms::float8 AS mtime_ms, metadata FROM documents
		 WHERE scope = $2 AND workspace_id = ANY($1::text[]) ORDER BY workspace_id, tier, doc_id`,
		[ids, scope],
	);
	const chunks = await db.query<ExportChunk & { workspace_id: string; tier: string; doc_id: string }>(
		`SELECT workspace_id, tier, doc_id, chunk_no, path, start_line, end_line, symbol, kind, language, content, content_hash, search_text FROM chunks
		 WHERE scope = $2 AND workspace_id = ANY($1::text[]) ORDER BY workspace_id, tier, doc_id, chunk_no`,
		[ids, scope],
	);
	const byDoc = new Map<string, ExportChunk[]>();
	for (const { workspace_id, tier, doc_id, ...c } of chunks) {
		const key = JSON.stringify([workspace_id, tier, doc_id]);
		if (!byDoc.has(key)) byDoc.set(key, []);
		byDoc.get(key)!.push(c);
	}
	const research = await db.query<ExportResearchMemory>(
		`SELECT r.workspace_id, r.doc_id, r.kind, r.question, r.content, r.content_hash, r.source_turn, ${ISO('r.created_at')} AS created_at,
			${ISO('r.updated_at')} AS updated_at, s.doc_id AS superseded_by, r.merged_count
		 FROM research_memory r LEFT JOIN research_memory s ON s.id = r.superseded_by
		 WHERE r.scope = $2 AND r.workspace_id = ANY($1::text[]) ORDER BY r.workspace_id, r.id`,
		[ids, scope],
	);
	const profile = await db.query<ExportProfileEntry>(
		`SELECT workspace_id, key, value, kind, source_turn, ${ISO('valid_from')} AS valid_from, CASE WHEN valid_to IS NULL THEN NULL ELSE ${ISO('valid_to')} END AS valid_to
		 FROM profile_entries WHERE scope = $2 AND workspace_id = ANY($1::text[]) ORDER BY workspace_id, key, valid_from, id`,
		[ids, scope],
	);
	const turns = await db.query<ExportTurn>(
		`SELECT workspace_id, conversation_id, turn_id, role, content, trace, ${ISO('created_at')} AS created_at
		 FROM conversation_turns WHERE scope = $2 AND workspace_id = ANY($1::text[]) ORDER BY workspace_id, created_at, id`,
		[ids, scope],
	);
	return {
		format: EXPORT_FORMAT,
		version: EXPORT_VERSION,
		exported_at: now.toISOString(),
		schema_version: schemaVersion,
		vectors: false,
		workspaces: [...ids],
		documents: docs.map((d) => ({
			...d,
			// No vectors travel, so the file must not claim an embedder: re-indexing then re-embeds.
			metadata: withoutEmbedder(d.metadata),
			chunks: byDoc.get(JSON.stringify([d.workspace_id, d.tier, d.doc_id])) ?? [],
		})),
		research_memory: research,
		profile_entries: profile,
		conversation_turns: turns.map((t) => ({ ...t, trace: t.trace ?? null })),
	};
}

function withoutEmbedder(metadata: Record<string, unknown>): Record<string, unknown> {
	const rest = { ...metadata };
	delete rest.embedder;
	return rest;
}

/** Options for importMemory. */
export interface ImportOptions {
	/** Write every row into this workspace (a file from another machine or folder); the file must hold one workspace. */
	workspaceId?: string;
}

/** Rewrites workspace ids to `target` (the file must name at most one workspace). */
function remap(file: MemoryExport, target: string): MemoryExport {
	const ids = new Set([
		...file.workspaces,
		...file.documents.map((d) => d.workspace_id),
		...file.research_memory.map((m) => m.workspace_id),
	]);
	for (const r of [...file.profile_entries, ...file.conversation_turns]) ids.add(r.workspace_id);
	if (ids.size > 1)
		throw new ExportFormatError(
			`the file holds ${ids.size} workspaces; it can be imported only as it is, not into one workspace`,
		);
	const w = <T extends { workspace_id: string }>(rows: T[]) => rows.map((r) => ({ ...r, workspace_id: target }));
	return {
		...file,
		workspaces: [target],
		documents: w(file.documents),
		research_memory: w(file.research_memory),
		profile_entries: w(file.profile_entries),
		conversation_turns: w(file.conversation_turns),
	};
}

/** Imports a validated export in one transaction; returns what was written. */
export async function importMemory(
	db: Queryable,
	parsed: MemoryExport,
	options: ImportOptions = {},
): Promise<ImportCounts> {
	const file = options.workspaceId ? remap(parsed, options.workspaceId) : parsed;
	const scope = scopeOf(db);
	const counts = await db.transaction(async (tx) => {
		// upsertDocuments opens its own transaction: run it inside this one instead.
		const inTx: Queryable = {
			engine: db.engine,
			scope,
			query: (sql, params) => tx.query(sql, params),
			transaction: (fn) => fn(tx),
			close: async () => undefined,
		};
		const changed = await changedDocuments(tx, scope, file.documents);
		const chunks = await upsertDocuments(inTx, changed.map(toDocumentInput));
		return {
			documents: changed.length,
			documents_unchanged: file.documents.length - changed.length,
			chunks,
			research_memory: await importResearch(tx, scope, file.research_memory),
			profile_entries: await importProfile(tx, scope, file.profile_entries),
			conversation_turns: await importTurns(tx, scope, file.conversation_turns),
		};
	});
	// A bulk load changes the table's shape (PGlite runs no autovacuum).
	if (counts.chunks >= 200) await analyzeChunks(db);
	return counts;
}

/**
 * The documents whose content differs from what the store holds: an unchanged document is left
 * alone, so re-importing keeps the vectors the store already computed for it.
 */
async function changedDocuments(
	tx: TxQueryable,
	scope: string,
	docs: readonly ExportDocument[],
): Promise<ExportDocument[]> {
	if (!docs.length) return [];
	const key = (w: string, t: string, d: string, h: string) => JSON.stringify([w, t, d, h]);
	const held = await tx.query<{ workspace_id: string; tier: string; doc_id: string; content_hash: string }>(
		`SELECT workspace_id, tier, doc_id, content_hash FROM documents WHERE scope = $1 AND workspace_id = ANY($2::text[])`,
		[scope, [...new Set(docs.map((d) => d.workspace_id))]],
	);
	const same = new Set(held.map((r) => key(r.workspace_id, r.tier, r.doc_id, r.content_hash)));
	return docs.filter((d) => !same.has(key(d.workspace_id, d.tier, d.doc_id, d.content_hash)));
}

function toDocumentInput(d: ExportDocument): DocumentInput {
	return {
		workspaceId: d.workspace_id,
		tier: d.tier,
		docId: d.doc_id,
		path: d.path,
		contentHash: d.content_hash,
		mtimeMs: d.mtime_ms,
		metadata: d.metadata,
		embedder: null,
		chunks: [...d.chunks]
			.sort((a, b) => a.chunk_no - b.chunk_no)
			.map((c) => ({
				path: c.path,
				startLine: c.start_line,
				endLine: c.end_line,
				symbol: c.symbol,
				kind: c.kind,
				language: c.language,
				content: c.content,
				contentHash: c.content_hash,
				searchText: c.search_text,
				embedding: null,
			})),
	};
}

async function importResearch(tx: TxQueryable, scope: string, rows: readonly ExportResearchMemory[]): Promise<number> {
	if (!rows.length) return 0;
	const col = <T>(f: (r: ExportResearchMemory) => T) => rows.map(f);
	await tx.query(
		`INSERT INTO research_memory (scope, workspace_id, doc_id, kind, question, content, content_hash, source_turn, created_at, updated_at, merged_count)
		 SELECT $11::text, * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::timestamptz[], $10::int[])
		 ON CONFLICT (scope, workspace_id, doc_id) DO UPDATE SET kind = EXCLUDED.kind, question = EXCLUDED.question, content = EXCLUDED.content,
			content_hash = EXCLUDED.content_hash, source_turn = EXCLUDED.source_turn, created_at = EXCLUDED.created_at,
			updated_at = EXCLUDED.updated_at, merged_count = EXCLUDED.merged_count`,
		[
			col((r) => r.workspace_id),
			col((r) => r.doc_id),
			col((r) => r.kind),
			col((r) => r.question),
			col((r) => r.content),
			col((r) => r.content_hash),
			col((r) => r.source_turn),
			col((r) => r.created_at),
			col((r) => r.updated_at),
			col((r) => r.merged_count),
			scope,
		],
	);
	// Supersession by doc id, once every row exists (a memory may be replaced by a later row).
	const links = rows.filter((r) => r.superseded_by !== null);
	if (links.length) {
		await tx.query(
			`UPDATE research_memory r SET superseded_by = s.id
			 FROM unnest($1::text[], $2::text[], $3::text[]) AS u(workspace_id, doc_id, by_doc)
			 JOIN research_memory s ON s.scope = $4 AND s.workspace_id = u.workspace_id AND s.doc_id = u.by_doc
			 WHERE r.scope = $4 AND r.workspace_id = u.workspace_id AND r.doc_id = u.doc_id`,
			[links.map((r) => r.workspace_id), links.map((r) => r.doc_id), links.map((r) => r.superseded_by), scope],
		);
	}
	return rows.length;
}

/**
 * Profile rows one by one (there are few): an identical (key, value, valid_from) is skipped; a
 * current value meets the store's current value by time — the later one stays current, the
 * earlier one becomes history closed when the later began. Returns rows inserted.
 */
async function importProfile(tx: TxQueryable, scope: string, rows: readonly ExportProfileEntry[]): Promise<number> {
	let inserted = 0;
	for (const p of rows) {
		const same = await tx.query(
			`SELECT 1 FROM profile_entries WHERE scope = $5 AND workspace_id = $1 AND key = $2 AND value = $3 AND valid_from = $4::timestamptz`,
			[p.workspace_id, p.key, p.value, p.valid_from, scope],
		);
		if (same.length) continue;
		let validTo: string | null = p.valid_to;
		if (validTo === null) {
			const [current] = await tx.query<{ id: string; later: boolean; since: string }>(
				`SELECT id::text AS id, valid_from >= $3::timestamptz AS later, valid_from::text AS since FROM profile_entries
				 WHERE scope = $4 AND workspace_id = $1 AND key = $2 AND valid_to IS NULL FOR UPDATE`,
				[p.workspace_id, p.key, p.valid_from, scope],
			);
			if (current?.later) validTo = current.since;
			else if (current)
				await tx.query(`UPDATE profile_entries SET valid_to = $2::timestamptz WHERE id = $1::bigint`, [
					current.id,
					p.valid_from,
				]);
		}
		await tx.query(
			`INSERT INTO profile_entries (scope, workspace_id, key, value, kind, source_turn, valid_from, valid_to) VALUES ($8, $1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz)`,
			[p.workspace_id, p.key, p.value, p.kind, p.source_turn, p.valid_from, validTo, scope],
		);
		inserted++;
	}
	return inserted;
}

async function importTurns(tx: TxQueryable, scope: string, rows: readonly ExportTurn[]): Promise<number> {
	if (!rows.length) return 0;
	const col = <T>(f: (r: ExportTurn) => T) => rows.map(f);
	await tx.query(
		`INSERT INTO conversation_turns (scope, workspace_id, conversation_id, turn_id, role, content, trace, created_at)
		 SELECT $8::text, * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::timestamptz[])
		 ON CONFLICT (scope, workspace_id, conversation_id, turn_id, role) DO UPDATE SET content = EXCLUDED.content, trace = EXCLUDED.trace, created_at = EXCLUDED.created_at`,
		[
			col((r) => r.workspace_id),
			col((r) => r.conversation_id),
			col((r) => r.turn_id),
			col((r) => r.role),
			col((r) => r.content),
			col((r) => (r.trace === null || r.trace === undefined ? null : JSON.stringify(r.trace))),
			col((r) => r.created_at),
			scope,
		],
	);
	return rows.length;
}
