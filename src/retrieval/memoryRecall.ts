/**
 * Recall of the research and profile tiers for a chat turn: past Q&A, decisions and corrections
 * by hybrid search (never a superseded one), the profile's current facts and preferences, and the
 * standing instructions. Each searched tier adds one `retrieval` step to the trace.
 */
import type { EvidenceItem } from '../core/evidence';
import type { Thresholds } from '../core/thresholds';
import type { RetrievalStep, TraceHit, TraceStep } from '../core/trace';
import type { GateResult } from '../core/types';
import type { Embedder } from '../models/embedder';
import { withScope, type Queryable } from '../store/queryable';
import { currentInstructions, rankedCurrentProfile, researchRowsByDocIds } from '../store/recallQueries';
import { hybridSearch, type SearchHit } from './hybridSearch';

/** What recall needs for one turn. */
export interface RecallOptions {
	query: string;
	tiers: ('research' | 'profile')[];
	workspaceIds: string[];
	result: GateResult;
	embedder: Embedder | null;
	thresholds: Thresholds;
	/** User/team scope; default: the connection's. */
	scope?: string;
}

/** Recalls the requested tiers, research first. */
export async function recallMemories(
	db: Queryable,
	o: RecallOptions,
): Promise<{ chunks: EvidenceItem[]; steps: TraceStep[] }> {
	const q = o.scope === undefined ? db : withScope(db, o.scope);
	const chunks: EvidenceItem[] = [];
	const steps: TraceStep[] = [];
	if (o.tiers.includes('research')) {
		const r = await recallResearch(q, o);
		chunks.push(...r.chunks);
		steps.push(...r.steps);
	}
	if (o.tiers.includes('profile')) {
		const r = await recallProfile(q, o);
		chunks.push(...r.chunks);
		steps.push(r.step);
	}
	return { chunks, steps };
}

/** The current standing instructions ("always answer in British English"), oldest first. */
export async function standingInstructions(db: Queryable, workspaceIds: string[], scope?: string): Promise<string[]> {
	return currentInstructions(scope === undefined ? db : withScope(db, scope), workspaceIds);
}

async function recallResearch(
	db: Queryable,
	o: RecallOptions,
): Promise<{ chunks: EvidenceItem[]; steps: TraceStep[] }> {
	const k = o.result.policy.qa_k;
	// The floor is in the embedder's cosine units; with no embedder there is no vector arm to floor.
	const floor = o.embedder ? o.result.policy.qa_min_similarity : null;
	const t0 = performance.now();
	const out = await hybridSearch(db, o.query, {
		tier: 'research',
		workspaceIds: o.workspaceIds,
		k: k * 2, // room for hits dropped below (superseded, several chunks of one memory)
		arm: o.embedder ? 'hybrid' : 'fts',
		embedder: o.embedder,
		cosineFloor: floor,
		thresholds: o.thresholds,
	});
	const rows = new Map(
		(
			await researchRowsByDocIds(
				db,
				o.workspaceIds,
				out.hits.map((h) => h.id),
			)
		).map((r) => [r.doc_id, r]),
	);
	const kept: TraceHit[] = [];
	const chunks: EvidenceItem[] = [];
	for (const found of out.hits) {
		const row = rows.get(found.id);
		// A superseded memory loses its chunks when superseded; a row check keeps a race from leaking one.
		if (!row || row.superseded || chunks.some((c) => c.text === row.content)) continue;
		if (chunks.length >= k) break;
		kept.push(traceHit(found));
		chunks.push({
			...NO_POSITION,
			source: 'research',
			text: row.content,
			citation: `research memory · ${row.day} · ${KIND_LABEL[row.kind]}`,
		});
	}
	const step: RetrievalStep = {
		kind: 'retrieval',
		tier: 'research',
		query: o.query,
		searched_query: out.searched_query,
		arm_mode: o.embedder ? 'hybrid' : 'fts',
		k,
		floor,
		hits: kept,
		ms: Math.round(performance.now() - t0),
	};
	return {
		chunks,
		steps: [
			step,
			...out.notes.map((message) => ({
				kind: 'note' as const,
				stage: 'retrieval',
				level: 'info' as const,
				message: `research: ${message}`,
			})),
		],
	};
}

async function recallProfile(
	db: Queryable,
	o: RecallOptions,
): Promise<{ chunks: EvidenceItem[]; step: RetrievalStep }> {
	// The memory-row budget of the turn, at least one: asking for the profile tier means some of it.
	const k = Math.max(1, o.result.policy.qa_k);
	const t0 = performance.now();
	const rows = await rankedCurrentProfile(db, o.workspaceIds, ['fact', 'preference'], o.query, k);
	const hits: TraceHit[] = rows.map((r, i) => {
		const id = `profile:${r.key}`;
		return {
			id,
			chunk_id: id,
			path: null,
			start_line: null,
			end_line: null,
			symbol: null,
			score: r.score,
			fused: r.score,
			arms: { fts: { rank: i + 1, score: r.score }, vector: null },
			rerank: null,
		};
	});
	const chunks = rows.map((r): EvidenceItem => ({
		...NO_POSITION,
		source: 'profile',
		text: `${r.key}: ${r.value}`,
		citation: `profile · ${r.key}`,
	}));
	const step: RetrievalStep = {
		kind: 'retrieval',
		tier: 'profile',
		query: o.query,
		searched_query: o.query,
		arm_mode: 'fts',
		k,
		floor: null,
		hits,
		ms: Math.round(performance.now() - t0),
	};
	return { chunks, step };
}

// The trace keeps ids, ranks and scores, not the text.
function traceHit(h: SearchHit): TraceHit {
	return {
		id: h.id,
		chunk_id: h.chunk_id,
		path: h.path,
		start_line: h.start_line,
		end_line: h.end_line,
		symbol: h.symbol,
		score: h.score,
		fused: h.fused,
		arms: h.arms,
		rerank: h.rerank,
	};
}

const NO_POSITION = { path: null, startLine: null, endLine: null, symbol: null } as const;

const KIND_LABEL = { qa: 'Q&A', decision: 'decision', correction: 'correction', note: 'note' } as const;
