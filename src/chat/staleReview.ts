/**
 * One-click review of a stale memory (Inspect Memory State, #19): keep it (re-anchor it to the
 * code as it is now; an anchor whose code is gone is dropped, so the memory stands on its own),
 * update it (a new text that supersedes it, anchored to the current code — the correction path),
 * or forget it (the panel's existing forget). Nothing is changed without the user's click.
 * No `vscode`.
 */
import type { Thresholds } from '../core/thresholds';
import type { Embedder } from '../models/embedder';
import { persistTurn } from '../retrieval/memoryWriter';
import { anchorsForDocIds, insertAnchors, reanchor, type NewAnchor } from '../store/anchorRepo';
import { memoriesByDocIds } from '../store/memoryRepo';
import type { Queryable } from '../store/queryable';
import { checkRecalled } from './memoryFreshness';
import { MAX_NOTE_CHARS } from './rememberCode';

/** Keep: the memory is still right; its anchors follow the code as it is now. */
export async function keepMemory(db: Queryable, workspaceId: string, docId: string): Promise<string> {
	const fresh = (await checkRecalled(db, [workspaceId], [docId])).get(docId);
	if (!fresh) return 'That memory cites no code (nothing to review).';
	let kept = 0;
	let dropped = 0;
	for (const { anchor, check } of fresh.checks) {
		if (check.now) {
			await reanchor(db, anchor.id, check.now, 'current');
			kept++;
		} else {
			await db.query(`DELETE FROM memory_anchors WHERE id = $1::bigint`, [anchor.id]);
			dropped++;
		}
	}
	return `Kept the memory: ${kept} anchor${kept === 1 ? '' : 's'} moved to the current code${dropped ? `, ${dropped} dropped (code gone)` : ''}.`;
}

/** Update: `text` replaces the memory (superseding it), anchored to the code the old one cited, as it is now. */
export async function updateMemory(
	db: Queryable,
	embedder: Embedder | null,
	thresholds: Thresholds,
	workspaceId: string,
	docId: string,
	text: string,
): Promise<string> {
	const t = text.trim();
	if (!t) throw new Error('the new text is empty');
	if (t.length > MAX_NOTE_CHARS) throw new Error(`a memory is at most ${MAX_NOTE_CHARS} characters`);
	const fresh = (await checkRecalled(db, [workspaceId], [docId])).get(docId);
	const old = await anchorsForDocIds(db, [workspaceId], [docId]);
	const report = await persistTurn(db, embedder, thresholds, {
		workspaceId,
		turnId: `review:${Date.now().toString(36)}`,
		trigger: 'correction',
		write: ['research'],
		question: t,
		answer: '',
		supersedes: [docId],
	});
	if (!report.research) return 'Nothing was written.';
	const anchors: NewAnchor[] = (fresh?.checks ?? []).flatMap(({ check }) =>
		check.now
			? [
					{
						path: check.now.path,
						symbol: check.now.symbol,
						startLine: check.now.startLine,
						endLine: check.now.endLine,
						contentHash: check.now.contentHash,
					},
				]
			: [],
	);
	const [row] = await memoriesByDocIds(db, workspaceId, [report.research.doc_id]);
	if (row && anchors.length && report.research.action === 'inserted')
		await insertAnchors(db, workspaceId, { id: row.id, docId: row.doc_id }, anchors);
	return `Updated: ${report.research.doc_id} ${report.research.action}${report.superseded.length ? `, superseding ${report.superseded.join(', ')}` : ''}${old.length && !anchors.length ? ' (its code is gone: not anchored)' : ''}.`;
}
