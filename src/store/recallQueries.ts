/**
 * What chat recall reads besides the search arms: the research rows behind search hits (to drop
 * superseded ones and label the rest), the current profile values ranked against the query, and
 * the standing instructions. Scope and workspace are filtered inside every statement.
 */
import { scopeOf, type Queryable } from './queryable';
import type { ProfileKind, ResearchKind } from './memoryRepo';

/** A research memory row as recall labels it. */
export interface RecallMemoryRow {
	doc_id: string;
	kind: ResearchKind;
	content: string;
	/** YYYY-MM-DD of the last write (a merge refreshes it). */
	day: string;
	superseded: boolean;
}

/** The research rows of these chunk documents, in any of the workspaces. */
export async function researchRowsByDocIds(
	db: Queryable,
	workspaceIds: readonly string[],
	docIds: readonly string[],
): Promise<RecallMemoryRow[]> {
	if (!docIds.length || !workspaceIds.length) return [];
	return db.query<RecallMemoryRow>(
		`SELECT doc_id, kind, content, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, superseded_by IS NOT NULL AS superseded
		 FROM research_memory WHERE scope = $1 AND workspace_id = ANY($2::text[]) AND doc_id = ANY($3::text[])`,
		[scopeOf(db), workspaceIds, docIds],
	);
}

/** A current profile value with its full-text score against the query (0 = no shared word). */
export interface RankedProfileRow {
	key: string;
	value: string;
	kind: ProfileKind;
	score: number;
	total: number;
}

/**
 * The current values of `kinds`: all of them when there are at most `k`, else the `k` that share
 * most with the query (ts_rank_cd over key and value, any of the query's lexemes), newest first on
 * ties. One row per key (the newest when several workspaces set it). `total` = how many there were.
 */
export async function rankedCurrentProfile(
	db: Queryable,
	workspaceIds: readonly string[],
	kinds: readonly ProfileKind[],
	query: string,
	k: number,
): Promise<RankedProfileRow[]> {
	if (!workspaceIds.length) return [];
	return db.query<RankedProfileRow>(
		`WITH cur AS (
			SELECT DISTINCT ON (key) key, value, kind, valid_from, id FROM profile_entries
			WHERE scope = $1 AND workspace_id = ANY($2::text[]) AND valid_to IS NULL AND kind = ANY($3::text[])
			ORDER BY key, valid_from DESC, id DESC),
		q AS (SELECT to_tsquery('english', coalesce(string_agg(quote_literal(lexeme), ' | '), '')) AS q FROM unnest(to_tsvector('english', $4))),
		scored AS (
			SELECT cur.*, CASE WHEN numnode(q.q) = 0 THEN 0 ELSE ts_rank_cd(to_tsvector('english', replace(cur.key, '_', ' ') || ' ' || cur.value), q.q, 1) END::float8 AS score,
				count(*) OVER ()::int AS total
			FROM cur, q)
		SELECT key, value, kind, score, total FROM scored
		ORDER BY CASE WHEN total <= $5 THEN 0 ELSE -score END, valid_from DESC, id DESC LIMIT $5`,
		[scopeOf(db), workspaceIds, kinds, query, k],
	);
}

/** The current standing instructions stated in chat, oldest first (the order the user gave them). */
export async function currentInstructions(db: Queryable, workspaceIds: readonly string[]): Promise<string[]> {
	if (!workspaceIds.length) return [];
	const rows = await db.query<{ value: string }>(
		`SELECT value FROM (
			SELECT DISTINCT ON (key) key, value, valid_from, id FROM profile_entries
			-- file: keys are instruction files' sections: gated per turn (src/retrieval/instructionRecall.ts), not always applied
			WHERE scope = $1 AND workspace_id = ANY($2::text[]) AND valid_to IS NULL AND kind = 'instruction' AND NOT starts_with(key, 'file:')
			ORDER BY key, valid_from DESC, id DESC) cur
		 ORDER BY valid_from, id`,
		[scopeOf(db), workspaceIds],
	);
	return rows.map((r) => r.value);
}
