/**
 * Forgetting: a document, a file path, a workspace, or everything — from every table that holds
 * it (chunks and their index entries, BM25 statistics, research memory, profile, conversation),
 * in one transaction, then VACUUM so the space and dead index entries are reclaimed. Only the
 * connection's user/team scope is touched: "everything" means everything of that scope.
 */
import { deleteDocuments, type DeleteScope } from './chunkRepo';
import { scopeOf, type Queryable } from './queryable';

/** What to forget. */
export type ForgetTarget =
	| { kind: 'document'; workspaceId: string; docId: string }
	| { kind: 'path'; workspaceId: string; path: string }
	| { kind: 'workspace'; workspaceId: string }
	| { kind: 'all' };

/** Rows removed per table. */
export interface ForgetCounts {
	chunks: number;
	research_memory: number;
	profile_entries: number;
	conversation_turns: number;
}

/** Removes the target's rows everywhere; returns what was removed. */
export async function forget(db: Queryable, target: ForgetTarget): Promise<ForgetCounts> {
	const scope: DeleteScope =
		target.kind === 'all'
			? {}
			: target.kind === 'workspace'
				? { workspaceId: target.workspaceId }
				: target.kind === 'path'
					? { workspaceId: target.workspaceId, path: target.path }
					: { workspaceId: target.workspaceId, docId: target.docId };
	const chunks = await deleteDocuments(db, scope);
	const userScope = scopeOf(db);
	const counts = await db.transaction(async (tx) => {
		const count = async (sql: string, params: unknown[]) =>
			(await tx.query<{ n: number }>(`WITH d AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM d`, params))[0]
				?.n ?? 0;
		if (target.kind === 'document') {
			return {
				research_memory: await count(
					'DELETE FROM research_memory WHERE scope = $3 AND workspace_id = $1 AND doc_id = $2',
					[target.workspaceId, target.docId, userScope],
				),
				profile_entries: 0,
				conversation_turns: 0,
			};
		}
		if (target.kind === 'path') return { research_memory: 0, profile_entries: 0, conversation_turns: 0 };
		const where = target.kind === 'all' ? 'scope = $1' : 'scope = $1 AND workspace_id = $2';
		const params = target.kind === 'all' ? [userScope] : [userScope, target.workspaceId];
		return {
			research_memory: await count(`DELETE FROM research_memory WHERE ${where}`, params),
			profile_entries: await count(`DELETE FROM profile_entries WHERE ${where}`, params),
			conversation_turns: await count(`DELETE FROM conversation_turns WHERE ${where}`, params),
		};
	});
	// Dead tuples still sit in the heap and the GIN/HNSW indexes until vacuumed.
	if (target.kind === 'all' || target.kind === 'workspace') await db.query('VACUUM');
	return { chunks, ...counts };
}
