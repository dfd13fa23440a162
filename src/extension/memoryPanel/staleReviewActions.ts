/**
 * Inspect Memory State's one-click review of a stale memory: Keep (re-anchor to the code now),
 * Update… (asks for the new text, prefilled with the old; it supersedes the memory) or Forget.
 * Refused in Restricted Mode; a cancelled input box changes nothing.
 */
import * as vscode from 'vscode';
import type { ReviewStaleParams } from '../../core/memoryPanelProtocol';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../../core/thresholds';
import type { Embedder } from '../../models/embedder';
import { keepMemory, updateMemory } from '../../chat/staleReview';
import { MAX_NOTE_CHARS } from '../../chat/rememberCode';
import { memoriesByDocIds } from '../../store/memoryRepo';
import { touchRecalled } from '../../store/anchorRepo';
import { forgetItem, type ActionOutcome, type MemoryActionDeps } from './memoryPanelActions';

/** What Update needs beyond the panel's actions (the write path's embedder and thresholds). */
export interface ReviewDeps extends MemoryActionDeps {
	embedder?: () => Promise<Embedder | null>;
	writeThresholds?: () => Thresholds;
}

export async function reviewStale(deps: ReviewDeps, p: ReviewStaleParams): Promise<ActionOutcome> {
	if (deps.restricted())
		return { level: 'error', message: 'Restricted Mode: memory is read-only here. Trust this workspace to change it.' };
	if (!deps.workspaceIds().includes(p.workspaceId))
		return { level: 'error', message: 'That memory belongs to a workspace not open in this window.' };
	if (p.action === 'forget') return forgetItem(deps, { kind: 'research', workspaceId: p.workspaceId, docId: p.docId });
	const store = await deps.openStore();
	if (p.action === 'restore') {
		await touchRecalled(store.db, [p.workspaceId], [p.docId]);
		return { level: 'info', message: 'Restored the memory to recall (its idle time starts again).' };
	}
	if (p.action === 'keep') return { level: 'info', message: await keepMemory(store.db, p.workspaceId, p.docId) };
	const [row] = await memoriesByDocIds(store.db, p.workspaceId, [p.docId]);
	if (!row) return { level: 'error', message: 'That memory is no longer stored.' };
	const text = await vscode.window.showInputBox({
		title: 'Update memory',
		prompt: 'What is true now? The new text supersedes the stale memory (kept as history).',
		value: row.content,
		validateInput: (v) =>
			!v.trim()
				? 'The memory cannot be empty.'
				: v.length > MAX_NOTE_CHARS
					? `At most ${MAX_NOTE_CHARS} characters.`
					: null,
	});
	if (text === undefined) return null;
	const message = await updateMemory(
		store.db,
		(await deps.embedder?.()) ?? null,
		deps.writeThresholds?.() ?? DEFAULT_THRESHOLDS,
		p.workspaceId,
		p.docId,
		text,
	);
	return { level: 'info', message };
}

/** Opens the stored turn that wrote a memory: the user's message, the reply and its decision, as Markdown. */
export async function openSourceTurn(
	deps: MemoryActionDeps,
	p: { workspaceId: string; turnId: string },
): Promise<ActionOutcome> {
	if (deps.restricted()) return { level: 'error', message: 'Restricted Mode: stored memory is not read here.' };
	if (!deps.workspaceIds().includes(p.workspaceId))
		return { level: 'error', message: 'That turn belongs to a workspace not open in this window.' };
	const store = await deps.openStore();
	const rows = await store.db.query<{
		role: string;
		content: string;
		trace: { decision?: { trigger?: string; route?: string; path?: string; tiers?: string[] } } | null;
		at: string;
	}>(
		`SELECT role, content, trace, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS at FROM conversation_turns WHERE scope = $1 AND workspace_id = $2 AND turn_id = $3 ORDER BY role DESC`,
		[store.scope, p.workspaceId, p.turnId],
	);
	if (!rows.length)
		return {
			level: 'error',
			message: `Turn ${p.turnId} is not in the conversation tier (written by a command, or cleared).`,
		};
	const parts = [`# Turn ${p.turnId}`];
	for (const r of rows) {
		parts.push(`## ${r.role === 'user' ? 'You' : 'Gated Memory'} (${r.at} UTC)`, r.content);
		const d = r.trace?.decision;
		if (d)
			parts.push(
				`Decision: trigger ${d.trigger ?? '?'}, path ${d.path ?? '?'}, tiers ${(d.tiers ?? []).join(', ') || 'none'}, route ${d.route ?? '?'}`,
			);
	}
	const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: parts.join('\n\n') });
	await vscode.window.showTextDocument(doc, { preview: true });
	return null;
}
