/**
 * Explicit memory writes (#19): "Gated Memory: Remember Selection…" and chat's "remember that …".
 * A note goes through the same write path as a turn (memoryWriter.persistTurn: secrets redacted,
 * duplicates merged) as a research memory — anchored to the workspace chunks covering the file
 * and lines it came from, so staleness checks apply — or as a standing instruction (the profile
 * has no anchors, so the location is kept in its text). No `vscode`.
 */
import type { Thresholds } from '../core/thresholds';
import type { Embedder } from '../models/embedder';
import { persistTurn, type WriteReport } from '../retrieval/memoryWriter';
import { chunksCovering, insertAnchors, type NewAnchor } from '../store/anchorRepo';
import { memoriesByDocIds } from '../store/memoryRepo';
import type { Queryable } from '../store/queryable';

/** Where a remembered note came from: a workspace-relative path (`/` separators) and 1-based lines. */
export interface CodeLocation {
	path: string;
	startLine: number;
	endLine: number;
}

export interface RememberRequest {
	workspaceId: string;
	/** Provenance: the turn or command invocation that wrote it. */
	turnId: string;
	text: string;
	as: 'research' | 'instruction';
	from?: CodeLocation;
}

export interface RememberOutcome {
	report: WriteReport;
	anchors: NewAnchor[];
	/** One line for the reply or the notification. */
	message: string;
}

/** Longest note a command or a chat "remember that" stores. */
export const MAX_NOTE_CHARS = 4000;

/** Validates a note; returns the reason it cannot be stored, or null. */
export function noteProblem(text: string, from?: CodeLocation): string | null {
	if (!text.trim()) return 'nothing to remember: the note is empty';
	if (text.length > MAX_NOTE_CHARS)
		return `a memory is at most ${MAX_NOTE_CHARS} characters (this one has ${text.length}); select less or summarise it`;
	if (
		from &&
		(!Number.isInteger(from.startLine) ||
			!Number.isInteger(from.endLine) ||
			from.startLine < 1 ||
			from.endLine < from.startLine)
	)
		return `bad line range ${from.startLine}-${from.endLine}`;
	if (from && (from.path.startsWith('/') || from.path.split('/').includes('..')))
		return `not a workspace-relative path: ${from.path}`;
	return null;
}

function locationText(from: CodeLocation): string {
	return `${from.path}:${from.startLine}${from.endLine !== from.startLine ? `-${from.endLine}` : ''}`;
}

/** Stores one explicit note. Rejects on a bad note (with the reason) or a store error. */
export async function rememberNote(
	db: Queryable,
	embedder: Embedder | null,
	thresholds: Thresholds,
	r: RememberRequest,
): Promise<RememberOutcome> {
	const problem = noteProblem(r.text, r.from);
	if (problem) throw new Error(problem);
	const text = r.text.trim();
	if (r.as === 'instruction') {
		const value = r.from ? `${text} (from ${locationText(r.from)})` : text;
		const report = await persistTurn(db, embedder, thresholds, {
			workspaceId: r.workspaceId,
			turnId: r.turnId,
			trigger: 'instruction',
			write: ['profile'],
			question: value,
			answer: '',
		});
		return {
			report,
			anchors: [],
			message: `standing instruction ${report.profile[0]?.changed === false ? 'already known' : 'saved'}: ${value.slice(0, 120)}`,
		};
	}
	const content = r.from ? `${text}\n(from ${locationText(r.from)})` : text;
	const report = await persistTurn(db, embedder, thresholds, {
		workspaceId: r.workspaceId,
		turnId: r.turnId,
		trigger: 'statement',
		write: ['research'],
		question: content,
		answer: '',
	});
	const anchors: NewAnchor[] = [];
	if (r.from && report.research?.action === 'inserted') {
		const covering = await chunksCovering(db, r.workspaceId, r.from.path, r.from.startLine, r.from.endLine);
		anchors.push(
			...(covering.length
				? covering.slice(0, 5).map((c) => ({
						path: c.path,
						symbol: c.symbol,
						startLine: c.start_line,
						endLine: c.end_line,
						contentHash: c.content_hash,
					}))
				: // Not indexed (yet): keep the place without a hash; the check then only knows whether it still exists.
					[
						{
							path: r.from.path,
							symbol: null,
							startLine: r.from.startLine,
							endLine: r.from.endLine,
							contentHash: null,
						},
					]),
		);
		const [row] = await memoriesByDocIds(db, r.workspaceId, [report.research.doc_id]);
		if (row) await insertAnchors(db, r.workspaceId, { id: row.id, docId: row.doc_id }, anchors);
	}
	const where = anchors.length
		? `, anchored to ${anchors.map((a) => `${a.path}:${a.startLine}-${a.endLine}${a.symbol ? ` (${a.symbol})` : ''}`).join(', ')}`
		: '';
	return { report, anchors, message: `research memory ${report.research?.action ?? 'not written'}${where}` };
}
