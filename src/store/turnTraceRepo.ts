/**
 * The stored conversation turn's trace after the fact: a memory proposal approved or discarded
 * later (confirm mode, #19) adds its note to the assistant row's trace, so the turn as stored —
 * what Inspect Memory State's "open the turn" and exports read — says what became of its writes,
 * not only the panel's history. Scope and workspace filtered; parameterised.
 */
import type { TraceStep } from '../core/trace';
import { scopeOf, type Queryable } from './queryable';

/** The stored assistant trace of a turn (null: not recorded, or no trace). */
export async function storedTurnTrace(
	db: Queryable,
	t: { workspaceId: string; conversationId: string; turnId: string },
): Promise<{ steps?: TraceStep[] } | null> {
	const [row] = await db.query<{ trace: { steps?: TraceStep[] } | null }>(
		`SELECT trace FROM conversation_turns WHERE scope = $1 AND workspace_id = $2 AND conversation_id = $3 AND turn_id = $4 AND role = 'assistant'`,
		[scopeOf(db), t.workspaceId, t.conversationId, t.turnId],
	);
	return row?.trace ?? null;
}

/** Appends steps to the stored assistant trace of a turn; returns whether a row was updated. */
export async function appendStoredTurnSteps(
	db: Queryable,
	t: { workspaceId: string; conversationId: string; turnId: string },
	steps: readonly TraceStep[],
): Promise<boolean> {
	if (!steps.length) return false;
	const rows = await db.query<{ n: number }>(
		`WITH u AS (
			UPDATE conversation_turns SET trace = jsonb_set(trace, '{steps}', coalesce(trace->'steps', '[]'::jsonb) || $5::jsonb)
			WHERE scope = $1 AND workspace_id = $2 AND conversation_id = $3 AND turn_id = $4 AND role = 'assistant' AND trace IS NOT NULL
			RETURNING 1)
		 SELECT count(*)::int AS n FROM u`,
		[scopeOf(db), t.workspaceId, t.conversationId, t.turnId, JSON.stringify(steps)],
	);
	return (rows[0]?.n ?? 0) > 0;
}
