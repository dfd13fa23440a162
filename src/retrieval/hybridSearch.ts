/**
 * Hybrid search (seed 000 "Decision 3", seed 002 R1): a full-text arm and a vector arm, each
 * fetching `arm_fetch_multiplier`×k inside the tier/workspace pre-filter, fused with weighted RRF.
 * Vector-only when the full-text arm finds nothing; lexical-only (and said so) without an embedder.
 */
import { queryWordCount } from '../core/text/queryWords';
import type { Thresholds } from '../core/thresholds';
import type { TraceHit } from '../core/trace';
import type { Embedder } from '../models/embedder';
import type { ChunkTier } from '../store/chunkRepo';
import type { Queryable } from '../store/queryable';
import { ftsArm, vectorArm, type ArmRow, type FtsMode, type SearchScope } from '../store/searchQueries';
import { applyKindPriors } from './fileRanking';
import type { FileKind, TurnWant } from './filePriors';
import { reciprocalRankFusion } from './fusion';
import { turnIdentifiers, type QueryIdentifier } from './queryIdentifiers';
import { ftsQueryText, salientTerms } from './queryTerms';
import { retrievalTuning, type RetrievalTuning } from './retrievalThresholds';
import {
	describeSymbolArm,
	fetchDefinitions,
	probedIdentifiers,
	rankSymbolMatches,
	type SymbolMatch,
} from './symbolArm';

export type ArmMode = 'hybrid' | 'fts' | 'vector';

/** How the full-text arm ranks: BM25 from ingest-time statistics, or Postgres' ts_rank_cd. */
export type FtsRanking = 'bm25' | 'ts_rank_cd';

/** Measured on CoSQA dev (docs/evaluation.md "Code search (store)"): BM25 ranks better. */
export const DEFAULT_FTS_RANKING: FtsRanking = 'bm25';

/** One search. `cosineFloor` is already in the embedder's own units (null = no floor). */
export interface SearchOptions {
	tier: ChunkTier;
	workspaceIds: readonly string[] | null;
	/** User/team scope, filtered inside both arms' SQL; default: the connection's scope. */
	scope?: string;
	k: number;
	arm: ArmMode;
	/** Aggregate chunks into distinct files (best chunk per file). */
	files?: boolean;
	embedder: Embedder | null;
	cosineFloor: number | null;
	thresholds: Thresholds;
	ftsRanking?: FtsRanking;
	/** Candidates each arm fetches (default k × arm_fetch_multiplier, × 3 for files); retrievalPlan decides it for the product path. */
	fetch?: number;
	/** Run the symbol arm (default: in hybrid mode). */
	symbols?: boolean;
	/** The symbol arm's and the file ranking's thresholds; default: those rows of `thresholds`. */
	tuning?: RetrievalTuning;
	/** What the turn wants: the fused order gets the document-type priors before the pool is cut (null: none). */
	want?: TurnWant | null;
	/** How many symbol definitions to keep first (default: definitionPinCount of the query). */
	pinDefinitions?: number;
	/** Files mode: return the vector arm's own files for a long query (`vector_files`; fileRanking's file_vector_weight). */
	vectorFiles?: boolean;
}

/** How a hit was matched by the symbol arm (absent: it was not). */
export interface SymbolArmScore {
	rank: number;
	match: 'definition' | 'mention';
	name: string;
	/** How the turn wrote the name: code (send_file, res.sendFile), name, joined words, word. */
	strength: QueryIdentifier['strength'];
	line: number | null;
}

/** A hit as the trace and `gmem search` print it, plus the chunk text for the evidence stage. */
export interface SearchHit extends TraceHit {
	content: string;
	/** The symbol arm's match for this chunk, when it had one. */
	symbol_match?: SymbolArmScore;
}

/** What one search did and found. */
export interface SearchOutcome {
	searched_query: string;
	hits: SearchHit[];
	/** Which full-text query ran ('websearch' AND, 'or' fallback, 'bm25'), null if the arm did not run. */
	fts_query: FtsMode | null;
	/** Plain-language remarks for stderr and the trace (lexical-only, vector-only fallback…). */
	notes: string[];
	/** The symbol arm's ranked list (empty when it did not run or matched nothing). */
	symbol_matches: SymbolMatch[];
	/** The identifiers the symbol arm probed. */
	identifiers: QueryIdentifier[];
	/** What the document-type priors did to the fused order (null: not applied). */
	priors: { rules: string[]; touched: Partial<Record<FileKind, number>> } | null;
	/**
	 * With `vectorFiles` and a long query: the vector arm's files in its own order (best chunk each),
	 * which the long-query fusion weights down (rrf_weight_vector_long_query); else empty.
	 */
	vector_files: SearchHit[];
}

/** Runs the search. Never floors fused scores; the floor applies to cosine only. */
export async function hybridSearch(db: Queryable, query: string, opts: SearchOptions): Promise<SearchOutcome> {
	const t = opts.thresholds;
	const scope: SearchScope = {
		tier: opts.tier,
		workspaceIds: opts.workspaceIds,
		...(opts.scope === undefined ? {} : { scope: opts.scope }),
	};
	const fetch = opts.fetch ?? opts.k * t.arm_fetch_multiplier * (opts.files ? 3 : 1);
	const terms = salientTerms(query, t.fts_max_query_terms);
	const searched = ftsQueryText(terms);
	const notes: string[] = [];
	const tuning = opts.tuning ?? retrievalTuning(t);
	// Only indexed files have definitions: research memory never has a symbol table.
	const symbolsOn =
		(opts.symbols ?? (opts.arm === 'hybrid' && opts.tier === 'workspace')) && tuning.rrf_weight_symbol > 0;
	const probed = symbolsOn ? probedIdentifiers(turnIdentifiers(query).identifiers, tuning) : [];
	// The arms are independent: on a server pool they run on separate connections at once.
	const [{ rows: fts, mode: ftsQuery }, vec, defs] = await Promise.all([
		opts.arm === 'vector'
			? { rows: [] as ArmRow[], mode: null }
			: runFts(db, scope, query, searched, terms.length, fetch, opts),
		opts.arm === 'fts' ? ([] as ArmRow[]) : runVector(db, scope, query, fetch, opts, notes),
		probed.length ? fetchDefinitions(db, scope, probed, tuning) : Promise.resolve([]),
	]);
	if (opts.arm === 'hybrid' && opts.embedder && fts.length === 0 && vec.length)
		notes.push('full-text arm found nothing: vector-only results');
	const words = queryWordCount(query);
	const longQuery = words > t.rrf_long_query_words;
	const vectorWeight = longQuery ? t.rrf_weight_vector_long_query : t.rrf_weight_vector;
	if (opts.arm === 'hybrid' && longQuery && vec.length)
		notes.push(
			`long query (${words} words): vector arm weighted ${vectorWeight} in fusion (full-text ${t.rrf_weight_fts})`,
		);
	const weights = opts.arm === 'hybrid' ? [t.rrf_weight_fts, vectorWeight] : [1, 1];
	// Mentions are looked for among the other arms' candidates, in their fused order.
	const others = reciprocalRankFusion(
		[
			{ weight: weights[0], items: fts.map((r) => ({ key: r.chunk_pk, score: r.score })) },
			{ weight: weights[1], items: vec.map((r) => ({ key: r.chunk_pk, score: r.score })) },
		],
		t.rrf_k,
	);
	const rows = new Map<string, ArmRow>([...vec, ...fts].map((r) => [r.chunk_pk, r]));
	const matches = probed.length
		? rankSymbolMatches(
				probed,
				defs,
				others.map((f) => rows.get(f.key)!),
				tuning,
			).slice(0, fetch)
		: [];
	if (symbolsOn) notes.push(describeSymbolArm(probed, matches));
	for (const m of matches) if (!rows.has(m.row.chunk_pk)) rows.set(m.row.chunk_pk, m.row);
	const fused = reciprocalRankFusion(
		[
			{ weight: weights[0], items: fts.map((r) => ({ key: r.chunk_pk, score: r.score })) },
			{ weight: weights[1], items: vec.map((r) => ({ key: r.chunk_pk, score: r.score })) },
			{ weight: tuning.rrf_weight_symbol, items: matches.map((m) => ({ key: m.row.chunk_pk, score: m.score })) },
		],
		t.rrf_k,
	);
	const symbolRank = new Map(
		matches.map((m, i) => [
			m.row.chunk_pk,
			{ rank: i + 1, match: m.match, name: m.name, strength: m.strength, line: m.line } satisfies SymbolArmScore,
		]),
	);
	let hits = fused.map((f) => {
		const hit = toHit(rows.get(f.key)!, f.fused, f.arms[0], f.arms[1]);
		const sm = symbolRank.get(f.key);
		return sm ? { ...hit, symbol_match: sm } : hit;
	});
	// Priors before the cut, so a wider pool (the reranker's) begins with the same order as a narrow one.
	let priors: SearchOutcome['priors'] = null;
	if (opts.want) {
		const p = applyKindPriors(
			hits.map((hit) => ({ hit })),
			opts.want,
			tuning,
			t.rrf_k,
			new Set(pinnedDefinitions(hits, opts.pinDefinitions ?? definitionPinCount(query, tuning))),
		);
		hits = p.ranked.map((x) => x.hit);
		priors = { rules: p.rules, touched: p.touched };
	}
	if (opts.files) hits = bestPerFile(hits);
	const vectorFiles =
		opts.vectorFiles && longQuery
			? bestPerFile(vec.map((r, i) => toHit(r, 0, null, { rank: i + 1, score: r.score })))
			: [];
	return {
		searched_query: searched,
		hits: hits.slice(0, opts.k),
		fts_query: ftsQuery,
		notes,
		symbol_matches: matches,
		identifiers: probed,
		priors,
		vector_files: vectorFiles,
	};
}

async function runVector(
	db: Queryable,
	scope: SearchScope,
	query: string,
	fetch: number,
	opts: SearchOptions,
	notes: string[],
): Promise<ArmRow[]> {
	if (!opts.embedder) {
		notes.push('lexical-only: no embedder is available, so the vector arm did not run');
		return [];
	}
	if (!opts.embedder.semantic) notes.push(`vector arm uses ${opts.embedder.id}, a hashing TEST embedder: NOT semantic`);
	const [qv] = await opts.embedder.embed([query]);
	return vectorArm(db, scope, qv, opts.embedder.id, opts.cosineFloor ?? -1, fetch);
}

// websearch (AND) for short queries, the OR of salient terms when that finds nothing or the query
// is long; BM25 always scores the OR candidates (its IDF does the weighting an AND would).
async function runFts(
	db: Queryable,
	scope: SearchScope,
	raw: string,
	searched: string,
	nTerms: number,
	fetch: number,
	opts: SearchOptions,
) {
	const t = opts.thresholds;
	if (!searched.trim()) return { rows: [] as ArmRow[], mode: null };
	if ((opts.ftsRanking ?? DEFAULT_FTS_RANKING) === 'bm25')
		return {
			rows: await ftsArm(db, scope, searched, 'bm25', fetch, {
				commonDf: t.bm25_common_term_df,
				maxCandidates: t.bm25_max_candidates,
			}),
			mode: 'bm25' as const,
		};
	if (nTerms <= opts.thresholds.fts_long_query_terms) {
		// Keep the user's own websearch syntax ("phrase", -word) when there is any.
		const text = /["]|(^|\s)-\w/.test(raw) ? raw : searched;
		const rows = await ftsArm(db, scope, text, 'websearch', fetch);
		if (rows.length) return { rows, mode: 'websearch' as const };
	}
	return { rows: await ftsArm(db, scope, searched, 'or', fetch), mode: 'or' as const };
}

/** One arm row as a search hit, with its fused score and each arm's rank. */
export function toHit(
	r: ArmRow,
	fused: number,
	fts: TraceHit['arms']['fts'],
	vector: TraceHit['arms']['vector'],
): SearchHit {
	return {
		id: r.doc_id,
		chunk_id: `${r.doc_id}#${r.chunk_no}`,
		path: r.path,
		start_line: r.start_line,
		end_line: r.end_line,
		symbol: r.symbol,
		score: fused,
		fused,
		arms: { fts, vector },
		rerank: null,
		content: r.content,
	};
}

/** Keeps the best-ranked chunk of each file (hits without a path count as their own document). */
export function bestPerFile<H extends Pick<SearchHit, 'path' | 'id'>>(hits: readonly H[]): H[] {
	const seen = new Set<string>();
	return hits.filter((h) => {
		const key = h.path ?? `doc:${h.id}`;
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	});
}

/**
 * How many definitions a turn pins: a name in a short question is what it asks about ("how is
 * send_file implemented?"); a long bug report names many, and the first one's definition is rarely
 * the file the fix changes (SWE-bench Lite swe-dev R@1 0.370 with pinning, 0.512 without).
 */
export function definitionPinCount(turn: string, tuning: RetrievalTuning): number {
	const words = turn.split(/\s+/).filter(Boolean).length;
	return words <= tuning.symbol_pin_max_turn_words ? tuning.symbol_pin_definitions : 0;
}

/**
 * The definitions kept first after the rerank: the symbol arm's best definitions of names the turn
 * wrote as code, at most `max` (a name defined in several places keeps its best-ranked ones).
 */
export function pinnedDefinitions(hits: readonly SearchHit[], max: number): string[] {
	return hits
		.filter((h) => h.symbol_match?.match === 'definition' && h.symbol_match.strength === 'code')
		.sort((a, b) => a.symbol_match!.rank - b.symbol_match!.rank)
		.slice(0, max)
		.map((h) => h.chunk_id);
}
