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
	if (deps.restricted()) return { level: 'error', message: 'Restricted Mode: memory is read-only here. Trust this workspace to change it.' };
	if (!deps.workspaceIds().includes(p.workspaceId)) return { level: 'error', message: 'That memory belongs to a workspace not open in this window.' };
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
		validateInput: (v) => (!v.trim() ? 'The memory cannot be empty.' : v.length > MAX_NOTE_CHARS ? `At most ${MAX_NOTE_CHARS} characters.` : null),
	});
	if (text === undefined) return null;
	const message = await updateMemory(store.db, (await deps.embedder?.()) ?? null, deps.writeThresholds?.() ?? DEFAULT_THRESHOLDS, p.workspaceId, p.docId, text);
	return { level: 'info', message };
}
