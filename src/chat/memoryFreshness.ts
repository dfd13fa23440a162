/**
 * Memories you can trust, at recall time (#19): a recalled research memory that cites code is
 * checked against the workspace as it is now (stalenessCheck.ts over anchorRepo.ts): unchanged →
 * used; moved → re-anchored and used; changed or gone → not used as current, a `warn` note in the
 * trace and a stale mark for Inspect Memory State. Each memory that is used gets a "why recalled"
 * note (query, the arms that found it with their ranks and scores, the floor, its age and the
 * turn that wrote it) and its recall time recorded (decay). At write time, a research memory
 * written from a turn that used workspace evidence is anchored to the chunks it cited.
 * No `vscode`.
 */
import { ok } from '../core/result';
import type { RetrievalStep, TraceHit, TraceStep } from '../core/trace';
import { checkAnchor, isStale, memoryVerdict, type AnchorCheck, type AnchorStatus } from '../retrieval/stalenessCheck';
import {
	anchorsForDocIds,
	chunkById,
	chunksWithHashes,
	currentChunksIn,
	insertAnchors,
	markAnchors,
	memoryProvenance,
	reanchor,
	touchRecalled,
	type AnchorRow,
	type NewAnchor,
} from '../store/anchorRepo';
import type { Store } from '../store/openStore';
import { scopeOf, type Queryable } from '../store/queryable';
import type { MemoryPort } from './turnEvidence';
import type { PersistFn } from './turnPersistence';

export interface FreshnessDeps {
	openStore: () => Promise<Store>;
	workspaceIds: () => readonly string[];
	/** `gatedMemory.memory.decayDays`: memories not recalled for this many days are demoted from recall (0 = off). */
	decayDays?: () => number;
	/** Called when recall has just marked a memory stale (an open Inspect Memory State refreshes its stale list). */
	onMemoryChange?: () => void;
}

/** One memory's staleness verdict, with each anchor's check. */
export interface MemoryFreshness {
	docId: string;
	verdict: AnchorStatus;
	checks: { anchor: AnchorRow; check: AnchorCheck }[];
}

/**
 * Checks the anchors of these memories against the current workspace chunks (two queries for the
 * whole batch), re-anchors moved ones and marks stale ones. Memories without anchors are absent.
 */
export async function checkRecalled(
	db: Queryable,
	workspaceIds: readonly string[],
	docIds: readonly string[],
): Promise<Map<string, MemoryFreshness>> {
	const out = new Map<string, MemoryFreshness>();
	const anchors = await anchorsForDocIds(db, workspaceIds, docIds);
	if (!anchors.length) return out;
	const paths = [...new Set(anchors.map((a) => a.path))];
	const rows = await currentChunksIn(db, workspaceIds, paths);
	// A file with no chunks now: look for its content elsewhere (renamed file) unless already known gone.
	const present = new Set(rows.map((c) => `${c.workspace_id}\0${c.path}`));
	const lost = anchors.filter(
		(a) => a.content_hash !== null && a.review !== 'stale' && !present.has(`${a.workspace_id}\0${a.path}`),
	);
	if (lost.length)
		rows.push(...(await chunksWithHashes(db, workspaceIds, [...new Set(lost.map((a) => a.content_hash!))])));
	const chunks = rows.map((c) => ({ ...c, startLine: c.start_line, endLine: c.end_line, contentHash: c.content_hash }));
	const moved: { id: string; now: NonNullable<AnchorCheck['now']> }[] = [];
	const stale: string[] = [];
	for (const a of anchors) {
		const check = checkAnchor(
			{ path: a.path, symbol: a.symbol, startLine: a.start_line, endLine: a.end_line, contentHash: a.content_hash },
			chunks.filter((c) => c.workspace_id === a.workspace_id),
		);
		const entry = out.get(a.doc_id) ?? { docId: a.doc_id, verdict: 'current' as AnchorStatus, checks: [] };
		entry.checks.push({ anchor: a, check });
		out.set(a.doc_id, entry);
		if (check.status === 'moved' && check.now) moved.push({ id: a.id, now: check.now });
		if (isStale(check.status) && a.review !== 'stale') stale.push(a.id);
		if (check.status === 'current' && a.review === 'stale') moved.push({ id: a.id, now: check.now! });
	}
	for (const m of out.values()) m.verdict = memoryVerdict(m.checks.map((c) => c.check));
	for (const m of moved) await reanchor(db, m.id, m.now, 'current');
	await markAnchors(db, stale, 'stale');
	return out;
}

/** Recall with staleness checks and "why recalled" notes (wraps the store's MemoryPort). */
export function freshRecall(inner: MemoryPort, deps: FreshnessDeps): MemoryPort {
	return {
		instructions: () => inner.instructions(),
		...(inner.fileInstructions ? { fileInstructions: inner.fileInstructions.bind(inner) } : {}),
		async recall(query, tiers, result, thresholds) {
			const got = await inner.recall(query, tiers, result, thresholds);
			if (!got.ok) return got;
			const r = got.value;
			const step = r.steps.find((s): s is RetrievalStep => s.kind === 'retrieval' && s.tier === 'research');
			// recallResearch keeps its trace hits and its chunks in the same order, one per memory.
			const research = r.chunks.filter((c) => c.source === 'research');
			if (!step || !step.hits.length || step.hits.length !== research.length) return got;
			const ids = [...deps.workspaceIds()];
			const store = await deps.openStore();
			const t0 = performance.now();
			const docIds = step.hits.map((h) => h.id);
			const fresh = await checkRecalled(store.db, ids, docIds);
			const ms = performance.now() - t0;
			const newlyStale = [...fresh.values()].some((f) =>
				f.checks.some((c) => isStale(c.check.status) && c.anchor.review !== 'stale'),
			);
			if (newlyStale) deps.onMemoryChange?.();
			const provenance = new Map((await memoryProvenance(store.db, ids, docIds)).map((p) => [p.doc_id, p]));
			const notes: TraceStep[] = [];
			const dropped = new Set<number>();
			const decay = deps.decayDays?.() ?? 0;
			step.hits.forEach((hit, i) => {
				const idle = provenance.get(hit.id)?.idle_days ?? 0;
				if (decay > 0 && idle >= decay) {
					dropped.add(i);
					notes.push({
						kind: 'note',
						stage: 'decay',
						level: 'info',
						message: `memory ${hit.id} demoted: not recalled for ${idle} days (gatedMemory.memory.decayDays ${decay}); kept, listed in Inspect Memory State`,
					});
					return;
				}
				const f = fresh.get(hit.id);
				if (f && isStale(f.verdict)) {
					dropped.add(i);
					const why = f.checks
						.filter((c) => isStale(c.check.status))
						.map((c) => c.check.reason)
						.join('; ');
					notes.push({
						kind: 'note',
						stage: 'staleness',
						level: 'warn',
						message: `stale memory ${hit.id} not used as current: ${why} (review it in Inspect Memory State)`,
					});
					return;
				}
				if (f?.verdict === 'moved') {
					const where = f.checks
						.filter((c) => c.check.status === 'moved')
						.map((c) => c.check.reason)
						.join('; ');
					notes.push({ kind: 'note', stage: 'staleness', level: 'info', message: `memory ${hit.id}: ${where}` });
				}
				notes.push({
					kind: 'note',
					stage: 'recall',
					level: 'info',
					message: whyRecalled(query, step, hit, provenance.get(hit.id)),
				});
			});
			if (fresh.size)
				notes.push({
					kind: 'note',
					stage: 'staleness',
					level: 'info',
					message: `staleness check: ${fresh.size} memor${fresh.size === 1 ? 'y' : 'ies'} citing code, ${ms.toFixed(1)} ms`,
				});
			const used = docIds.filter((_, i) => !dropped.has(i));
			await touchRecalled(store.db, ids, used);
			let n = 0;
			const chunks = r.chunks.filter((c) => c.source !== 'research' || !dropped.has(n++));
			return ok({ chunks, steps: [...r.steps, ...notes] });
		},
	};
}

/** "why recalled": the query, the arms with rank and score, the floor, the age and the source turn. */
export function whyRecalled(
	query: string,
	step: RetrievalStep,
	hit: TraceHit,
	p: { source_turn: string | null; created_at: string; age_days: number } | undefined,
): string {
	const arms: string[] = [];
	if (hit.arms.fts) arms.push(`full-text #${hit.arms.fts.rank} (${hit.arms.fts.score.toFixed(2)})`);
	if (hit.arms.vector)
		arms.push(
			`vector #${hit.arms.vector.rank} (cosine ${hit.arms.vector.score.toFixed(2)}${step.floor !== null ? `, floor ${step.floor.toFixed(2)}` : ''})`,
		);
	const age = p
		? `written ${p.created_at} (${p.age_days === 0 ? 'today' : `${p.age_days} day${p.age_days === 1 ? '' : 's'} ago`})${p.source_turn ? ` in turn ${p.source_turn}` : ''}`
		: 'provenance unknown';
	return `recalled ${hit.id} for "${query.slice(0, 80)}": found by ${arms.join(' + ') || 'no arm'}; ${age}`;
}

/** The workspace chunks a turn's reply used (its evidence step's selection), as anchors. */
export async function anchorsFromTrace(
	db: Queryable,
	workspaceIds: readonly string[],
	steps: readonly TraceStep[],
): Promise<NewAnchor[]> {
	const selected = new Set(steps.flatMap((s) => (s.kind === 'evidence' ? s.selected : [])));
	const hits = steps
		.flatMap((s) => (s.kind === 'retrieval' && s.tier === 'workspace' ? s.hits : []))
		.filter((h) => selected.has(h.chunk_id) && h.path !== null);
	const anchors: NewAnchor[] = [];
	for (const h of hits.slice(0, 5)) {
		const c = await chunkById(db, workspaceIds, h.chunk_id);
		if (c)
			anchors.push({
				path: c.path,
				symbol: c.symbol,
				startLine: c.start_line,
				endLine: c.end_line,
				contentHash: c.content_hash,
			});
	}
	return anchors;
}

/** The write path with anchoring: a research memory written from a turn with workspace evidence cites it. */
export function anchoredPersist(inner: PersistFn, deps: FreshnessDeps): PersistFn {
	return async (request) => {
		const written = await inner(request);
		if (!written.ok || !request.records.some((r) => r.tier === 'research')) return written;
		const steps = written.value;
		const ids = deps.workspaceIds();
		const owner = ids[0];
		if (owner === undefined || !request.trace.steps.some((s) => s.kind === 'evidence')) return written;
		const store = await deps.openStore();
		const anchors = await anchorsFromTrace(store.db, ids, request.trace.steps);
		if (!anchors.length) return written;
		const [memory] = await store.db.query<{ id: string; doc_id: string }>(
			`SELECT id::text AS id, doc_id FROM research_memory WHERE scope = $3 AND workspace_id = $1 AND source_turn = $2 AND superseded_by IS NULL ORDER BY id DESC LIMIT 1`,
			[owner, request.turnId, scopeOf(store.db)],
		);
		if (!memory) return written;
		await insertAnchors(store.db, owner, { id: memory.id, docId: memory.doc_id }, anchors);
		return ok([
			...steps,
			{
				kind: 'note',
				stage: 'persist',
				level: 'info',
				message: `anchored to ${anchors.map((a) => `${a.path}:${a.startLine}-${a.endLine}${a.symbol ? ` (${a.symbol})` : ''}`).join(', ')}`,
			},
		]);
	};
}

/**
 * An approved proposal (confirm mode) is anchored like an `auto` write: to the chunks the turn's
 * evidence step selected, read from the turn's stored trace (the conversation tier keeps it).
 * Returns the note to add, or null when the turn used no workspace evidence.
 */
export async function anchorApproved(
	db: Queryable,
	workspaceIds: readonly string[],
	memory: { workspaceId: string; docId: string; steps: readonly TraceStep[] },
): Promise<string | null> {
	if (!memory.steps.some((s) => s.kind === 'evidence')) return null;
	const anchors = await anchorsFromTrace(db, workspaceIds, memory.steps);
	if (!anchors.length) return null;
	const [row] = await db.query<{ id: string }>(
		`SELECT id::text AS id FROM research_memory WHERE scope = $1 AND workspace_id = $2 AND doc_id = $3`,
		[scopeOf(db), memory.workspaceId, memory.docId],
	);
	if (!row) return null;
	await insertAnchors(db, memory.workspaceId, { id: row.id, docId: memory.docId }, anchors);
	return `anchored to ${anchors.map((a) => `${a.path}:${a.startLine}-${a.endLine}${a.symbol ? ` (${a.symbol})` : ''}`).join(', ')}`;
}
