/**
 * What "Inspect Memory State" reads from the store for the window's workspaces: per-tier counts,
 * stored text size and last write; current profile values with their history size; recent
 * research memories and corrections (with what they superseded); decisions stored with the
 * conversation turns. Plus the panel's write actions: forget a profile key, clear one tier.
 * Every statement is parameterised and scoped to the given workspace ids and the connection's
 * user/team scope.
 */
import type {
	CorrectionItem,
	DecisionItem,
	MemoryItem,
	MemoryPanelState,
	MemoryTier,
	ProfileItem,
	TierSummary,
} from '../core/memoryPanelProtocol';
import { deleteDocuments } from './chunkRepo';
import { scopeOf, type Queryable } from './queryable';

/** The store's part of the panel state. */
export type StoredMemoryState = Pick<
	MemoryPanelState,
	'tiers' | 'profile' | 'memories' | 'corrections' | 'decisions' | 'indexedFiles' | 'indexedChunks'
>;

/** How many recent rows each list shows. */
export interface MemoryStateLimits {
	memories: number;
	corrections: number;
	decisions: number;
}

const DEFAULT_LIMITS: MemoryStateLimits = { memories: 20, corrections: 10, decisions: 10 };

// Timestamps travel as epoch milliseconds (float8) so both engines return plain numbers.
const MS = (col: string) => `(extract(epoch FROM ${col}) * 1000)::float8`;

type Counts = Record<string, number | null>;

async function tierCounts(db: Queryable, ids: readonly string[]): Promise<Counts> {
	const [c] = await db.query<Counts>(
		`SELECT
		(SELECT count(*)::int FROM documents WHERE tier = 'workspace' AND scope = $2 AND workspace_id = ANY($1::text[])) AS ws_docs,
		(SELECT ${MS('max(ingested_at)')} FROM documents WHERE tier = 'workspace' AND scope = $2 AND workspace_id = ANY($1::text[])) AS ws_last,
		(SELECT count(*)::int FROM chunks WHERE tier = 'workspace' AND scope = $2 AND workspace_id = ANY($1::text[])) AS ws_chunks,
		(SELECT count(*)::int FROM chunks WHERE tier = 'workspace' AND embedding IS NOT NULL AND scope = $2 AND workspace_id = ANY($1::text[])) AS ws_embedded,
		(SELECT coalesce(sum(octet_length(content)), 0)::float8 FROM chunks WHERE tier = 'workspace' AND scope = $2 AND workspace_id = ANY($1::text[])) AS ws_bytes,
		(SELECT count(*)::int FROM research_memory WHERE scope = $2 AND workspace_id = ANY($1::text[])) AS rs_rows,
		(SELECT count(*)::int FROM research_memory WHERE superseded_by IS NOT NULL AND scope = $2 AND workspace_id = ANY($1::text[])) AS rs_superseded,
		(SELECT coalesce(sum(octet_length(content)), 0)::float8 FROM research_memory WHERE scope = $2 AND workspace_id = ANY($1::text[])) AS rs_bytes,
		(SELECT ${MS('max(updated_at)')} FROM research_memory WHERE scope = $2 AND workspace_id = ANY($1::text[])) AS rs_last,
		(SELECT count(*)::int FROM chunks WHERE tier = 'research' AND scope = $2 AND workspace_id = ANY($1::text[])) AS rs_chunks,
		(SELECT count(*)::int FROM profile_entries WHERE valid_to IS NULL AND scope = $2 AND workspace_id = ANY($1::text[])) AS pr_current,
		(SELECT count(*)::int FROM profile_entries WHERE valid_to IS NOT NULL AND scope = $2 AND workspace_id = ANY($1::text[])) AS pr_history,
		(SELECT coalesce(sum(octet_length(key) + octet_length(value)), 0)::float8 FROM profile_entries WHERE scope = $2 AND workspace_id = ANY($1::text[])) AS pr_bytes,
		(SELECT ${MS('max(greatest(valid_from, valid_to))')} FROM profile_entries WHERE scope = $2 AND workspace_id = ANY($1::text[])) AS pr_last,
		(SELECT count(*)::int FROM conversation_turns WHERE scope = $2 AND workspace_id = ANY($1::text[])) AS cv_turns,
		(SELECT count(DISTINCT conversation_id)::int FROM conversation_turns WHERE scope = $2 AND workspace_id = ANY($1::text[])) AS cv_convs,
		(SELECT coalesce(sum(octet_length(content) + coalesce(octet_length(trace::text), 0)), 0)::float8 FROM conversation_turns WHERE scope = $2 AND workspace_id = ANY($1::text[])) AS cv_bytes,
		(SELECT ${MS('max(created_at)')} FROM conversation_turns WHERE scope = $2 AND workspace_id = ANY($1::text[])) AS cv_last`,
		[ids, scopeOf(db)],
	);
	return c;
}

function tierSummaries(c: Counts): TierSummary[] {
	const n = (k: string) => c[k] ?? 0;
	return [
		{
			tier: 'workspace',
			items: n('ws_docs'),
			detail: `${n('ws_docs')} files, ${n('ws_chunks')} chunks (${n('ws_embedded')} with vectors)`,
			bytes: n('ws_bytes'),
			lastWrite: c.ws_last,
		},
		{
			tier: 'research',
			items: n('rs_rows') - n('rs_superseded'),
			detail: `${n('rs_rows') - n('rs_superseded')} current memories, ${n('rs_superseded')} superseded, ${n('rs_chunks')} chunks`,
			bytes: n('rs_bytes'),
			lastWrite: c.rs_last,
		},
		{
			tier: 'profile',
			items: n('pr_current'),
			detail: `${n('pr_current')} current values, ${n('pr_history')} earlier values`,
			bytes: n('pr_bytes'),
			lastWrite: c.pr_last,
		},
		{
			tier: 'conversation',
			items: n('cv_turns'),
			detail: `${n('cv_turns')} turns in ${n('cv_convs')} conversations`,
			bytes: n('cv_bytes'),
			lastWrite: c.cv_last,
		},
	];
}

async function profileItems(db: Queryable, ids: readonly string[]): Promise<ProfileItem[]> {
	return db.query<ProfileItem>(
		`SELECT p.workspace_id AS "workspaceId", p.key, p.value, p.kind, ${MS('p.valid_from')} AS since,
			(SELECT count(*)::int FROM profile_entries h WHERE h.workspace_id = p.workspace_id AND h.key = p.key AND h.scope = p.scope AND h.valid_to IS NOT NULL) AS history
		 FROM profile_entries p WHERE p.valid_to IS NULL AND p.scope = $2 AND p.workspace_id = ANY($1::text[]) ORDER BY p.kind, p.key`,
		[ids, scopeOf(db)],
	);
}

async function recentMemories(db: Queryable, ids: readonly string[], limit: number): Promise<MemoryItem[]> {
	return db.query<MemoryItem>(
		`SELECT workspace_id AS "workspaceId", doc_id AS "docId", kind, content, ${MS('updated_at')} AS at, superseded_by IS NOT NULL AS superseded
		 FROM research_memory WHERE scope = $3 AND workspace_id = ANY($1::text[]) ORDER BY updated_at DESC, id DESC LIMIT $2`,
		[ids, limit, scopeOf(db)],
	);
}

async function recentCorrections(db: Queryable, ids: readonly string[], limit: number): Promise<CorrectionItem[]> {
	return db.query<CorrectionItem>(
		`SELECT c.workspace_id AS "workspaceId", c.doc_id AS "docId", c.content, ${MS('c.created_at')} AS at,
			coalesce((SELECT json_agg(json_build_object('docId', s.doc_id, 'content', s.content) ORDER BY s.id)
				FROM research_memory s WHERE s.superseded_by = c.id), '[]'::json) AS superseded
		 FROM research_memory c WHERE c.kind = 'correction' AND c.scope = $3 AND c.workspace_id = ANY($1::text[]) ORDER BY c.created_at DESC, c.id DESC LIMIT $2`,
		[ids, limit, scopeOf(db)],
	);
}

interface DecisionRow {
	turn_id: string;
	at: number;
	utterance: string | null;
	trigger: unknown;
	path: unknown;
	tiers: unknown;
	route: unknown;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Decisions stored with conversation turns (the trace's decision summary), newest first. */
export async function storedDecisions(db: Queryable, ids: readonly string[], limit: number): Promise<DecisionItem[]> {
	const rows = await db.query<DecisionRow>(
		`SELECT t.turn_id, ${MS('t.created_at')} AS at,
			(SELECT u.content FROM conversation_turns u WHERE u.workspace_id = t.workspace_id AND u.conversation_id = t.conversation_id
				AND u.turn_id = t.turn_id AND u.role = 'user' AND u.scope = t.scope) AS utterance,
			t.trace->'decision'->'trigger' AS trigger, t.trace->'decision'->'path' AS path,
			t.trace->'decision'->'tiers' AS tiers, t.trace->'decision'->'route' AS route
		 FROM conversation_turns t WHERE t.trace IS NOT NULL AND t.scope = $3 AND t.workspace_id = ANY($1::text[]) ORDER BY t.created_at DESC, t.id DESC LIMIT $2`,
		[ids, limit, scopeOf(db)],
	);
	return rows.map((r) => ({
		turnId: r.turn_id,
		at: r.at,
		utterance: r.utterance ?? '',
		trigger: str(r.trigger),
		path: str(r.path),
		tiers: Array.isArray(r.tiers) ? r.tiers.filter((t): t is string => typeof t === 'string') : [],
		route: str(r.route),
		source: 'stored',
	}));
}

/** Reads the whole stored state for the workspaces `ids`. */
export async function memoryState(
	db: Queryable,
	ids: readonly string[],
	limits: MemoryStateLimits = DEFAULT_LIMITS,
): Promise<StoredMemoryState> {
	const counts = await tierCounts(db, ids);
	return {
		tiers: tierSummaries(counts),
		profile: await profileItems(db, ids),
		memories: await recentMemories(db, ids, limits.memories),
		corrections: await recentCorrections(db, ids, limits.corrections),
		decisions: await storedDecisions(db, ids, limits.decisions),
		indexedFiles: counts.ws_docs ?? 0,
		indexedChunks: counts.ws_chunks ?? 0,
	};
}

/** Indexed file paths of the workspaces (for "forget a file"), sorted. */
export async function indexedPaths(
	db: Queryable,
	ids: readonly string[],
): Promise<{ workspaceId: string; path: string }[]> {
	return db.query<{ workspaceId: string; path: string }>(
		`SELECT workspace_id AS "workspaceId", path FROM documents WHERE tier = 'workspace' AND path IS NOT NULL AND scope = $2 AND workspace_id = ANY($1::text[]) ORDER BY path`,
		[ids, scopeOf(db)],
	);
}

/** Removes a profile key entirely (current value and history); returns rows removed. */
export async function forgetProfileKey(db: Queryable, workspaceId: string, key: string): Promise<number> {
	const [r] = await db.query<{ n: number }>(
		`WITH d AS (DELETE FROM profile_entries WHERE scope = $3 AND workspace_id = $1 AND key = $2 RETURNING 1) SELECT count(*)::int AS n FROM d`,
		[workspaceId, key, scopeOf(db)],
	);
	return r?.n ?? 0;
}

/** Removes one research memory (its row and its chunks); returns rows removed. */
export async function forgetResearchMemory(db: Queryable, workspaceId: string, docId: string): Promise<number> {
	await deleteDocuments(db, { workspaceId, tier: 'research', docId });
	const [r] = await db.query<{ n: number }>(
		`WITH d AS (DELETE FROM research_memory WHERE scope = $3 AND workspace_id = $1 AND doc_id = $2 RETURNING 1) SELECT count(*)::int AS n FROM d`,
		[workspaceId, docId, scopeOf(db)],
	);
	return r?.n ?? 0;
}

/** Empties one tier for the workspaces `ids`; returns the rows removed (chunks for chunked tiers). */
export async function clearTier(db: Queryable, ids: readonly string[], tier: MemoryTier): Promise<number> {
	let n = 0;
	const count = async (sql: string, params: unknown[]) =>
		(await db.query<{ n: number }>(`WITH d AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM d`, params))[0]?.n ??
		0;
	const scope = scopeOf(db);
	for (const workspaceId of ids) {
		if (tier === 'workspace') n += await deleteDocuments(db, { workspaceId, tier: 'workspace' });
		if (tier === 'research') {
			n += await deleteDocuments(db, { workspaceId, tier: 'research' });
			n += await count('DELETE FROM research_memory WHERE scope = $2 AND workspace_id = $1', [workspaceId, scope]);
		}
		if (tier === 'profile')
			n += await count('DELETE FROM profile_entries WHERE scope = $2 AND workspace_id = $1', [workspaceId, scope]);
		if (tier === 'conversation')
			n += await count('DELETE FROM conversation_turns WHERE scope = $2 AND workspace_id = $1', [workspaceId, scope]);
	}
	return n;
}
