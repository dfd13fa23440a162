/**
 * Research memory, profile and conversation rows. The searchable text of a research memory lives
 * in chunks (tier 'research'); these tables keep what search does not need: kind, provenance,
 * supersession and merge history, the profile's one-current-value-per-key with its history, and
 * each turn with its decision trace. Every statement reads and writes the connection's user/team
 * scope (`scopeOf(db)`; `withScope` picks another).
 */
import { deleteDocuments } from './chunkRepo';
import { scopeOf, type Queryable } from './queryable';

export type ResearchKind = 'qa' | 'decision' | 'correction' | 'note';

/** A research memory row. */
export interface ResearchMemoryRow {
	id: string;
	doc_id: string;
	kind: ResearchKind;
	question: string | null;
	content: string;
	content_hash: string;
	superseded_by: string | null;
	merged_count: number;
}

const MEMORY_COLS =
	'id::text AS id, doc_id, kind, question, content, content_hash, superseded_by::text AS superseded_by, merged_count';

/** One research memory as it is written (and as a chat forget's Undo writes it back). */
export interface NewResearchMemory {
	workspaceId: string;
	docId: string;
	kind: ResearchKind;
	question: string | null;
	content: string;
	contentHash: string;
	sourceTurn: string | null;
}

/** Inserts a memory row; returns its id. Its chunks are written separately (ingest). */
export async function insertResearchMemory(db: Queryable, m: NewResearchMemory): Promise<string> {
	const [row] = await db.query<{ id: string }>(
		`INSERT INTO research_memory (workspace_id, doc_id, kind, question, content, content_hash, source_turn, scope)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id::text AS id`,
		[m.workspaceId, m.docId, m.kind, m.question, m.content, m.contentHash, m.sourceTurn, scopeOf(db)],
	);
	return row.id;
}

/** The current (not superseded) memory with this normalised-content hash, if any. */
export async function currentMemoryByHash(
	db: Queryable,
	workspaceId: string,
	hash: string,
): Promise<ResearchMemoryRow | null> {
	const rows = await db.query<ResearchMemoryRow>(
		`SELECT ${MEMORY_COLS} FROM research_memory WHERE scope = $3 AND workspace_id = $1 AND content_hash = $2 AND superseded_by IS NULL ORDER BY id LIMIT 1`,
		[workspaceId, hash, scopeOf(db)],
	);
	return rows[0] ?? null;
}

/** Current memories by their chunk document ids (search hits → memory rows). */
export async function memoriesByDocIds(
	db: Queryable,
	workspaceId: string,
	docIds: readonly string[],
): Promise<ResearchMemoryRow[]> {
	if (!docIds.length) return [];
	return db.query<ResearchMemoryRow>(
		`SELECT ${MEMORY_COLS} FROM research_memory WHERE scope = $3 AND workspace_id = $1 AND doc_id = ANY($2::text[])`,
		[workspaceId, docIds, scopeOf(db)],
	);
}

/** Folds a near-duplicate into an existing memory: counted and refreshed, not stacked. */
export async function mergeMemory(db: Queryable, id: string, sourceTurn: string | null): Promise<void> {
	await db.query(
		`UPDATE research_memory SET merged_count = merged_count + 1, updated_at = now(), source_turn = coalesce($2, source_turn) WHERE id = $1 AND scope = $3`,
		[id, sourceTurn, scopeOf(db)],
	);
}

/**
 * Marks `staleId` as superseded by `newId` and removes its chunks, so it is never retrieved as
 * current again; the row itself stays as history.
 */
export async function supersedeMemory(
	db: Queryable,
	workspaceId: string,
	staleId: string,
	newId: string,
): Promise<void> {
	const [row] = await db.query<{ doc_id: string }>(
		`UPDATE research_memory SET superseded_by = $2, updated_at = now() WHERE id = $1 AND workspace_id = $3 AND scope = $4 RETURNING doc_id`,
		[staleId, newId, workspaceId, scopeOf(db)],
	);
	if (row) await deleteDocuments(db, { workspaceId, tier: 'research', docId: row.doc_id });
}

export type ProfileKind = 'fact' | 'preference' | 'instruction';

/** A profile value (current when valid_to is null). */
export interface ProfileRow {
	key: string;
	value: string;
	kind: ProfileKind;
	valid_from: string;
	valid_to: string | null;
}

/**
 * Sets the current value of a profile key: the previous value is closed (kept as history) and
 * the new one becomes current. Setting the same value again changes nothing. Returns whether a
 * new value was written.
 */
export async function setProfileValue(
	db: Queryable,
	p: { workspaceId: string; key: string; value: string; kind: ProfileKind; sourceTurn: string | null },
): Promise<boolean> {
	const scope = scopeOf(db);
	return db.transaction(async (tx) => {
		const [current] = await tx.query<{ value: string }>(
			`SELECT value FROM profile_entries WHERE scope = $3 AND workspace_id = $1 AND key = $2 AND valid_to IS NULL FOR UPDATE`,
			[p.workspaceId, p.key, scope],
		);
		if (current?.value === p.value) return false;
		await tx.query(
			`UPDATE profile_entries SET valid_to = now() WHERE scope = $3 AND workspace_id = $1 AND key = $2 AND valid_to IS NULL`,
			[p.workspaceId, p.key, scope],
		);
		await tx.query(
			`INSERT INTO profile_entries (scope, workspace_id, key, value, kind, source_turn) VALUES ($6, $1, $2, $3, $4, $5)`,
			[p.workspaceId, p.key, p.value, p.kind, p.sourceTurn, scope],
		);
		return true;
	});
}

/** Current profile values of a workspace, or a key's full history (newest first) when `key` is given. */
export async function profileValues(db: Queryable, workspaceId: string, key?: string): Promise<ProfileRow[]> {
	const cols = `key, value, kind, valid_from::text AS valid_from, valid_to::text AS valid_to`;
	return key === undefined
		? db.query<ProfileRow>(
				`SELECT ${cols} FROM profile_entries WHERE scope = $2 AND workspace_id = $1 AND valid_to IS NULL ORDER BY key`,
				[workspaceId, scopeOf(db)],
			)
		: db.query<ProfileRow>(
				`SELECT ${cols} FROM profile_entries WHERE scope = $3 AND workspace_id = $1 AND key = $2 ORDER BY valid_from DESC, id DESC`,
				[workspaceId, key, scopeOf(db)],
			);
}

/** Records (or replaces) one conversation turn with its decision trace. */
export async function recordTurn(
	db: Queryable,
	t: {
		workspaceId: string;
		conversationId: string;
		turnId: string;
		role: 'user' | 'assistant';
		content: string;
		trace: unknown;
	},
): Promise<void> {
	await db.query(
		`INSERT INTO conversation_turns (workspace_id, conversation_id, turn_id, role, content, trace, scope) VALUES ($1, $2, $3, $4, $5, $6, $7)
		 ON CONFLICT (scope, workspace_id, conversation_id, turn_id, role) DO UPDATE SET content = EXCLUDED.content, trace = EXCLUDED.trace`,
		[
			t.workspaceId,
			t.conversationId,
			t.turnId,
			t.role,
			t.content,
			t.trace === undefined || t.trace === null ? null : JSON.stringify(t.trace),
			scopeOf(db),
		],
	);
}
