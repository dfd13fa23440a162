/**
 * Pending memory proposals (`gatedMemory.memory.writes: confirm`, migration 4): what the write
 * path would have stored, waiting for the user's Approve / Edit / Discard. Every statement reads
 * and writes the connection's user/team scope and filters by workspace.
 */
import { scopeOf, type Queryable } from './queryable';

export type ProposalStatus = 'pending' | 'approved' | 'discarded';

/** One proposal row. */
export interface ProposalRow {
	id: string;
	workspace_id: string;
	conversation_id: string;
	turn_id: string;
	tier: 'research' | 'profile';
	trigger: string;
	question: string;
	answer: string;
	text: string;
	status: ProposalStatus;
	stored_text: string | null;
	outcome: string | null;
	created_at: string;
}

const COLS = `id::text AS id, workspace_id, conversation_id, turn_id, tier, trigger, question, answer, text, status, stored_text, outcome,
	to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at`;

/** Inserts one pending proposal; returns its id. */
export async function insertProposal(
	db: Queryable,
	p: {
		workspaceId: string;
		conversationId: string;
		turnId: string;
		tier: 'research' | 'profile';
		trigger: string;
		question: string;
		answer: string;
		text: string;
	},
): Promise<string> {
	const [row] = await db.query<{ id: string }>(
		`INSERT INTO memory_proposals (scope, workspace_id, conversation_id, turn_id, tier, trigger, question, answer, text)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id::text AS id`,
		[scopeOf(db), p.workspaceId, p.conversationId, p.turnId, p.tier, p.trigger, p.question, p.answer, p.text],
	);
	return row.id;
}

/** The pending proposals of these workspaces, oldest first. */
export async function pendingProposals(db: Queryable, workspaceIds: readonly string[]): Promise<ProposalRow[]> {
	if (!workspaceIds.length) return [];
	return db.query<ProposalRow>(
		`SELECT ${COLS} FROM memory_proposals WHERE scope = $1 AND workspace_id = ANY($2::text[]) AND status = 'pending' ORDER BY created_at, id`,
		[scopeOf(db), workspaceIds],
	);
}

/** One proposal by id, if it belongs to one of these workspaces. */
export async function proposalById(
	db: Queryable,
	workspaceIds: readonly string[],
	id: string,
): Promise<ProposalRow | null> {
	if (!/^\d{1,18}$/.test(id)) return null;
	const rows = await db.query<ProposalRow>(
		`SELECT ${COLS} FROM memory_proposals WHERE scope = $1 AND workspace_id = ANY($2::text[]) AND id = $3::bigint`,
		[scopeOf(db), workspaceIds, id],
	);
	return rows[0] ?? null;
}

/**
 * Closes a pending proposal (approved with the text stored, or discarded). Returns false when it
 * was no longer pending (decided in another window meanwhile), so it is never written twice.
 */
export async function decideProposal(
	db: Queryable,
	id: string,
	d: { status: 'approved' | 'discarded'; storedText: string | null; outcome: string | null },
): Promise<boolean> {
	const rows = await db.query<{ id: string }>(
		`UPDATE memory_proposals SET status = $3, stored_text = $4, outcome = $5, decided_at = now()
		 WHERE scope = $1 AND id = $2::bigint AND status = 'pending' RETURNING id::text AS id`,
		[scopeOf(db), id, d.status, d.storedText, d.outcome],
	);
	return rows.length === 1;
}

/** The most recently decided proposals (Inspect Memory State's record), newest first. */
export async function recentDecidedProposals(
	db: Queryable,
	workspaceIds: readonly string[],
	limit: number,
): Promise<ProposalRow[]> {
	if (!workspaceIds.length) return [];
	return db.query<ProposalRow>(
		`SELECT ${COLS} FROM memory_proposals WHERE scope = $1 AND workspace_id = ANY($2::text[]) AND status <> 'pending' ORDER BY decided_at DESC, id DESC LIMIT $3`,
		[scopeOf(db), workspaceIds, limit],
	);
}
