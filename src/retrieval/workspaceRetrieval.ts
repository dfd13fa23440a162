/**
 * The one workspace-retrieval pipeline (issue 15): query → arms (full-text, vector) with the pool
 * sizes of retrievalPlan → RRF → rerank → evidence selection → trace steps. The chat turn
 * (WorkspaceMemory.retrieve), `gmem search` and `gmem eval retrieval` all call this, so a figure
 * measured by the CLI is the figure of the product. Hosts only choose the models and k; what the
 * models are (and why one is missing) is theirs to say in notes before these steps.
 */
import type { Thresholds } from '../core/thresholds';
import type { RerankStep, RetrievalStep, TraceStep } from '../core/trace';
import type { Embedder } from '../models/embedder';
import type { Reranker } from '../models/reranker';
import type { ChunkTier } from '../store/chunkRepo';
import type { Queryable } from '../store/queryable';
import type { FtsMode } from '../store/searchQueries';
import { calibratedFloor } from './evidence/calibration';
import { runEvidenceStage } from './evidence/evidenceStage';
import type { EvidenceResult } from './evidence/types';
import { fuseProse, rankByProse } from './docTextArm';
import { describeFailure, describeRaiseSite, failureLookups, planFailure, raiseSitePins } from './failureEvidence';
import { fileBm25Chunks } from './fileBm25Arm';
import { filesByDefinedNames } from './definedNames';
import { applyKindPriors, rankFiles, type FileList } from './fileRanking';
import { mentionedFileHits } from './mentionedFileArm';
import { turnWantOfTurn, type FileKind, type TurnWant } from './filePriors';
import {
	definitionPinCount,
	hybridSearch,
	pinnedDefinitions,
	toHit,
	type ArmMode,
	type FtsRanking,
	type SearchHit,
} from './hybridSearch';
import { retrievalPlan, type RetrievalPlan } from './retrievalPlan';
import { retrievalTuning, type RetrievalTuning } from './retrievalThresholds';

/** One retrieval. */
export interface WorkspaceRetrievalInput {
	query: string;
	/** Default workspace; `gmem search --tier research` runs the same pipeline over research memory. */
	tier?: ChunkTier;
	workspaceIds: readonly string[] | null;
	/**
	 * The searched folders' own names (`matplotlib` for /…/dist-packages/matplotlib): a traceback's
	 * `…/site-packages/matplotlib/colors.py` names the workspace's `colors.py` by two segments, not one.
	 */
	folderNames?: readonly string[];
	scope?: string;
	k: number;
	/** Default hybrid; fts / vector are the ablations `gmem search --arm` and the eval rows use. */
	arm?: ArmMode;
	embedder: Embedder | null;
	/** null: no rerank, the pool is k (fused order). */
	reranker: Reranker | null;
	/** Why there is no reranker, for the trace note. */
	noRerankReason?: string;
	/** How the trace names the reranker (the host's label, e.g. "ms-marco-MiniLM-L-6-v2 (local folder)"); default its id. */
	rerankerLabel?: string;
	/** The decision's floor in MiniLM cosine units; mapped to the embedder's units by its calibration. */
	floor: number;
	/** A cosine floor already in the embedder's units (`gmem search --floor`); replaces the calibrated one. */
	cosineFloor?: number | null;
	/** Rank distinct files (best chunk each) instead of chunks. */
	files?: boolean;
	ftsRanking?: FtsRanking;
	thresholds: Thresholds;
	signal?: AbortSignal;
	/** performance.now() when the host started (its query embedding counts in the step's ms). */
	startedAt?: number;
	/** Symbol arm, file ranking and prior thresholds; default: those rows of `thresholds` (the one table). */
	tuning?: RetrievalTuning;
}

/** What the pipeline found and the trace steps it took. */
export interface WorkspaceRetrieval {
	plan: RetrievalPlan;
	searched_query: string;
	fts_query: FtsMode | null;
	/** The cosine floor the vector arm used, in the embedder's units (null: none). */
	cosine_floor: number | null;
	/** The whole pool after rerank (fused order without a reranker), best first. */
	ranked: SearchHit[];
	/** The first k of `ranked` (k distinct files with `files`): what `gmem search` prints. */
	hits: SearchHit[];
	evidence: EvidenceResult;
	rerank: RerankStep;
	/** The search's and the evidence stage's remarks (lexical-only, long query, not found…). */
	notes: string[];
	/** retrieval step, notes, reranker note, rerank step, evidence step — the chat trace's order. */
	steps: TraceStep[];
}

/** Runs the pipeline. Throws only what the store throws; a failing reranker is a passthrough. */
export async function retrieveWorkspace(db: Queryable, input: WorkspaceRetrievalInput): Promise<WorkspaceRetrieval> {
	const t0 = input.startedAt ?? performance.now();
	const tier = input.tier ?? 'workspace';
	const arm = input.arm ?? 'hybrid';
	const t = input.thresholds;
	const tuning = input.tuning ?? retrievalTuning(t);
	const embedder = arm === 'fts' ? null : input.embedder;
	const reranker = arm === 'hybrid' ? input.reranker : null;
	const plan = retrievalPlan({ k: input.k, arm, reranking: reranker !== null, files: input.files, thresholds: t });
	const cosine =
		input.cosineFloor !== undefined
			? input.cosineFloor
			: embedder
				? calibratedFloor(embedder, input.floor).floor
				: null;
	const scope = {
		tier,
		workspaceIds: input.workspaceIds,
		...(input.scope === undefined ? {} : { scope: input.scope }),
	};
	// A pasted trace: its workspace frames are exact evidence, and the arms search its error and functions.
	// What the arms search comes from the text alone, so the frame and raising-site lookups run beside
	// the arms (on a server pool at once; on PGlite's one connection queued, without a round trip's gap).
	const failurePlan =
		arm === 'hybrid' && tuning.stack_frame_max > 0 ? planFailure(input.query, tuning.stack_frame_max, tuning) : null;
	const searchQuery = failurePlan?.searchText || input.query;
	const want = turnWantOfTurn(
		input.query,
		failurePlan?.parsed.frames.length ? failurePlan.parsed.rest : input.query,
		// Files mode only (the evals, `gmem search --files`): measured there; the chat turn's evidence keeps turnWant.
		input.files ? tuning.prior_tests_max_turn_words : Infinity,
	);
	// Judged on what the user wrote, not on the shorter text searched for a pasted failure.
	const pinDefinitions = definitionPinCount(input.query, tuning);
	const [found, bm25Chunks, mentioned, failure] = await Promise.all([
		hybridSearch(db, searchQuery, {
			...scope,
			k: plan.pool,
			fetch: Math.max(plan.fetch_per_arm.fts, plan.fetch_per_arm.vector),
			arm,
			embedder,
			cosineFloor: cosine,
			thresholds: t,
			tuning,
			want: arm === 'hybrid' ? want : null,
			pinDefinitions,
			vectorFiles: !!input.files && arm === 'hybrid' && tuning.file_vector_weight > 0,
			...(input.ftsRanking ? { ftsRanking: input.ftsRanking } : {}),
		}),
		// Files mode: the BM25-sum file list reads its own, wider full-text run (fileBm25Arm.ts).
		input.files && arm !== 'vector' && (input.ftsRanking ?? 'bm25') === 'bm25'
			? fileBm25Chunks(db, scope, searchQuery, t, tuning)
			: undefined,
		// Files mode: the files the turn names by module or printed path (mentionedFileArm.ts).
		input.files && arm === 'hybrid' && tuning.file_mention_weight > 0
			? mentionedFileHits(db, scope, input.query, tuning.file_mention_max)
			: undefined,
		failurePlan ? failureLookups(db, scope, failurePlan, tuning, input.folderNames) : null,
	]);
	// A pasted trace's frame chunks: no arm found them, they are exact evidence (score 0, no arm ranks).
	// Before them, the raising site when no frame reaches the raise (raiseSite.ts).
	const raisePins = failure ? raiseSitePins(failure, tuning.raise_site_max) : [];
	const frameHits = [...raisePins, ...(failure?.frames ?? []).map((f) => f.row)].map((r) => toHit(r, 0, null, null));
	const out = {
		...found,
		hits: [...frameHits, ...found.hits.filter((h) => !frameHits.some((f) => f.chunk_id === h.chunk_id))],
	};
	const steps: TraceStep[] = [];
	const note = (message: string) => steps.push({ kind: 'note', stage: 'retrieval', level: 'info', message });
	if (failure?.parsed.frames.length) note(describeFailure(failure));
	const raiseNote = failure ? describeRaiseSite(failure, raisePins) : null;
	if (raiseNote) note(raiseNote);
	const retrieval: RetrievalStep = {
		kind: 'retrieval',
		tier,
		query: input.query,
		searched_query: out.searched_query,
		arm_mode: arm === 'hybrid' ? (embedder ? 'hybrid' : 'fts') : arm,
		k: input.k,
		floor: cosine,
		hits: out.hits.map(({ content: _content, ...hit }) => hit),
		ms: Math.round(performance.now() - t0),
	};
	steps.push(retrieval);
	for (const message of out.notes) note(message);
	note(
		reranker
			? `reranker: ${input.rerankerLabel ?? reranker.id} on ${out.hits.length} candidates`
			: `no reranking: ${input.noRerankReason ?? 'no reranker configured'}`,
	);
	const pins = [...new Set([...frameHits.map((h) => h.chunk_id), ...pinnedDefinitions(out.hits, pinDefinitions)])];
	const pinSet = new Set(pins);
	let proseMatched: number | null = null;
	const stage = await runEvidenceStage({
		query: searchQuery,
		candidates: out.hits.map((hit) => ({ hit, tier, text: hit.content })),
		reranker,
		embedder: embedder ? { id: embedder.id, semantic: embedder.semantic } : null,
		cosineFloors: { [tier]: input.floor },
		k: input.k,
		thresholds: t,
		signal: input.signal,
		pinFirst: pins,
		// The fused order already had the priors (hybridSearch); a reranker's new order gets them again.
		reorder: (c, reranked) => {
			// The pool's docstrings, comments and definition names ranked against the turn's words
			// (docTextArm.ts); a pasted failure's words are an error's, not a description.
			let order = c;
			// Only how-to turns in chunks mode (the chat turn's evidence): measured there, not elsewhere.
			if (tuning.rrf_weight_prose > 0 && want === 'howto' && !input.files && !failure?.parsed.errorType) {
				const prose = rankByProse(
					input.query,
					c.map((x) => ({ key: x.hit.chunk_id, content: x.text })),
				);
				proseMatched = prose.length;
				order = fuseProse(c, (x) => x.hit.chunk_id, prose, tuning.rrf_weight_prose, t.rrf_k, pinSet);
			}
			// The priors last, so neither the reranker nor the prose list lifts a test above the code.
			return reranked || order !== c ? applyKindPriors(order, want, tuning, t.rrf_k, pinSet).ranked : c;
		},
	});
	if (proseMatched !== null)
		note(
			`prose list: ${proseMatched} of the pool's chunks have docstrings, comments or names with the turn's words, fused at weight ${tuning.rrf_weight_prose}`,
		);
	if (out.priors) note(describePriors(want, out.priors.rules, out.priors.touched));
	if (mentioned?.files.length)
		note(
			`named files: ${mentioned.files
				.slice(0, 5)
				.map((f) => f.path)
				.join(
					', ',
				)}${mentioned.files.length > 5 ? ', …' : ''} — in the file ranking (weight ${tuning.file_mention_weight})`,
		);
	steps.push(stage.rerankStep, stage.evidence.step);
	// Without a reranker no score was given: the hits say null, as the CONTRACT's hit shape allows.
	const ranked = stage.candidates.map((c): SearchHit => ({
		...(c.hit as SearchHit),
		content: c.text,
		...(reranker ? {} : { rerank: null }),
	}));
	const lists: FileList[] = [];
	if (mentioned?.hits.length) lists.push({ weight: tuning.file_mention_weight, hits: mentioned.hits });
	if (input.files && tuning.file_defs_weight > 0) {
		const defining = filesByDefinedNames(found.symbol_matches).slice(0, tuning.file_defs_max);
		if (defining.length)
			lists.push({ weight: tuning.file_defs_weight, hits: defining.map((f) => toHit(f.match.row, 0, null, null)) });
	}
	// A long report's vector-arm files, which its chunk fusion weights down (hybridSearch.ts).
	if (found.vector_files.length) {
		lists.push({ weight: tuning.file_vector_weight, hits: found.vector_files });
		note(
			`vector file list: ${found.vector_files.length} file(s) by their best vector-arm chunk, fused at weight ${tuning.file_vector_weight} (long query)`,
		);
	}
	// Files by their chunks' prose (docTextArm.ts), one more file list; not for a pasted failure.
	if (input.files && tuning.file_prose_weight > 0 && !failure?.parsed.errorType && !failure?.parsed.frames.length) {
		const byId = new Map(ranked.map((h) => [h.chunk_id, h]));
		const prose = rankByProse(
			input.query,
			ranked.map((h) => ({ key: h.chunk_id, content: h.content })),
		).map((id) => byId.get(id)!);
		if (prose.length) {
			lists.push({ weight: tuning.file_prose_weight, hits: prose });
			note(
				`prose file list: ${prose.length} chunk(s) by docstrings, comments and names, fused at weight ${tuning.file_prose_weight}`,
			);
		}
	}
	const files = input.files ? rankFiles(ranked, want, tuning, t.rrf_k, pinSet, bm25Chunks, lists) : null;
	const hits = (files ? files.map((f) => ({ ...f.hit, file_score: f.file_score })) : ranked).slice(0, input.k);
	return {
		plan,
		searched_query: out.searched_query,
		fts_query: out.fts_query,
		cosine_floor: cosine,
		ranked,
		hits,
		evidence: stage.evidence,
		rerank: stage.rerankStep,
		notes: [...out.notes, ...stage.evidence.notes],
		steps,
	};
}

/** The priors' trace line: what the turn wants and which kinds of file moved. */
export function describePriors(
	want: TurnWant,
	rules: readonly string[],
	touched: Partial<Record<FileKind, number>>,
): string {
	const kinds = Object.entries(touched).map(([k, n]) => `${n} ${k} file(s)`);
	return `file priors: the turn wants ${want}${rules.length ? `; ${rules.join(', ')} (${kinds.join(', ')})` : '; no prior applied'}`;
}
