/**
 * The two search arms as SQL. Every statement filters by tier, user/team scope and workspace
 * inside the query, before ranking (seed 002's pre-filter), and takes all inputs as parameters.
 */
import type { ChunkTier } from './chunkRepo';
import type { Queryable } from './queryable';
import { scopeOf, toVectorLiteral } from './queryable';

/** A chunk as an arm returns it, with the arm's raw score. */
export interface ArmRow {
	chunk_pk: string;
	doc_id: string;
	chunk_no: number;
	path: string | null;
	start_line: number | null;
	end_line: number | null;
	symbol: string | null;
	content: string;
	score: number;
}

/**
 * Which chunks an arm may see. `workspaceIds: null` = every workspace of the scope; `scope`
 * (user/team) defaults to the connection's. No arm ever reads another scope's rows.
 */
export interface SearchScope {
	tier: ChunkTier;
	workspaceIds: readonly string[] | null;
	scope?: string;
}

/** How the full-text arm turns text into a tsquery and ranks matches. */
export type FtsMode = 'websearch' | 'or' | 'bm25';

const COLS = `c.id::text AS chunk_pk, c.doc_id, c.chunk_no, c.path, c.start_line, c.end_line, c.symbol, c.content`;
// $1 tier, $2 workspace ids (null = all), and the scope's parameter number.
const SCOPE = (scopeParam: number) =>
	`c.tier = $1 AND c.scope = $${scopeParam} AND ($2::text[] IS NULL OR c.workspace_id = ANY($2::text[]))`;
// The OR query of a text's lexemes; 'english' so already-stemmed lexemes are not stemmed again.
const OR_QUERY = `(SELECT to_tsquery('english', string_agg(quote_literal(lexeme), ' | ')) FROM unnest(to_tsvector('english', $3)))`;

/**
 * Bounds on BM25's work: terms in more than `commonDf` of the chunks only score candidates (they
 * do not add any), and at most `maxCandidates` chunks per selective term — those where it weighs
 * most (tf / length) — are scored. Exact whenever the selective terms match fewer chunks.
 * `scanPerCandidate` only picks the plan, never the result: a query term with at most that many
 * postings per candidate is scored by reading all its postings in one range scan of
 * `chunk_terms_impact` (covering since schema 005) and keeping the candidates'; a term in more
 * chunks is looked up per candidate.
 */
export interface Bm25Limits {
	commonDf: number;
	maxCandidates: number;
	scanPerCandidate?: number;
}

/**
 * scanPerCandidate 20: EXPLAIN ANALYZE on the 20k-chunk bench store (server, a traceback query, 597
 * candidates) read 23,094 postings by range scan in ~38 ms and probed 624 candidates × 4 terms in
 * ~67 ms: one posting scanned costs about a sixteenth of one (candidate, term) probe. So a term's
 * postings are scanned while they number at most 20 per candidate; above that it is probed.
 */
export const DEFAULT_BM25_LIMITS: Required<Bm25Limits> = { commonDf: 0.03, maxCandidates: 300, scanPerCandidate: 20 };

/** BM25 parameters (Robertson; the eval README's baseline uses the same). */
export const BM25 = { k1: 1.2, b: 0.75 };

/**
 * Full-text arm. 'websearch' = websearch_to_tsquery (AND of terms, phrases, -negation) ranked by
 * ts_rank_cd over the GIN index; 'or' = any salient lexeme, ts_rank_cd; 'bm25' = any lexeme, ranked
 * by BM25 from the postings kept at ingest (ts_rank_cd has no document-frequency weighting).
 * BM25 ignores websearch syntax (phrases, -negation): it ranks the query's lexemes.
 */
export async function ftsArm(
	db: Queryable,
	scope: SearchScope,
	text: string,
	mode: FtsMode,
	limit: number,
	bm25: Bm25Limits = DEFAULT_BM25_LIMITS,
): Promise<ArmRow[]> {
	const params = [scope.tier, scope.workspaceIds, text, limit, scope.scope ?? scopeOf(db)];
	if (mode === 'bm25')
		return bm25Arm(
			db,
			params,
			bm25.commonDf,
			bm25.maxCandidates,
			bm25.scanPerCandidate ?? DEFAULT_BM25_LIMITS.scanPerCandidate,
		);
	const q = mode === 'websearch' ? `websearch_to_tsquery('english', $3)` : OR_QUERY;
	return db.query<ArmRow>(
		`SELECT ${COLS}, ts_rank_cd(c.tsv, q.q, 1)::float8 AS score
		 FROM chunks c, (SELECT ${q} AS q) q
		 WHERE ${SCOPE(5)} AND c.tsv @@ q.q
		 ORDER BY score DESC, c.id LIMIT $4`,
		params,
	);
}

// One term's postings inside the tier / scope / workspace pre-filter (alias x, term expression T).
const POSTINGS_OF = (t: string) =>
	`x.tier = $1 AND x.term = ${t} AND x.scope = $5 AND ($2::text[] IS NULL OR x.workspace_id = ANY($2::text[]))`;

function bm25Arm(
	db: Queryable,
	params: unknown[],
	commonDf: number,
	maxCandidates: number,
	scanPerCandidate: number,
): Promise<ArmRow[]> {
	const { k1, b } = BM25;
	// Candidates come from the query's selective terms (df ≤ commonDf·N; at least the rarest term),
	// then every query term scores them: a term in most chunks adds little and costs the most.
	// Scoring is set-based: each term with at most scanPerCandidate postings per candidate is one
	// index range scan whose rows are hash-joined to the candidates; only terms in more chunks
	// than that are looked up per candidate (one (chunk_id, term = ANY) probe each; OFFSET 0 keeps the planner from
	// flattening that into a scan of every posting of the common term; the tier test stays: without
	// it the probe is index-only, yet an earlier A/B measured it slower). Float8 constants: a
	// numeric literal would make every posting's arithmetic numeric. The sum runs in term order so
	// tied chunks tie exactly whichever plan produced their postings (ties break by chunk id).
	return db.query<ArmRow>(
		`WITH ql AS MATERIALIZED (SELECT DISTINCT lexeme FROM unnest(to_tsvector('english', $3))),
		st AS MATERIALIZED (
			SELECT greatest(sum(n_chunks), 1)::float8 AS n, greatest(sum(total_len), 1)::float8 / greatest(sum(n_chunks), 1) AS avgdl
			FROM corpus_stats c WHERE ${SCOPE(5)}),
		idf AS MATERIALIZED (
			SELECT ql.lexeme AS term, d.df, ln(1 + (st.n - d.df + 0.5) / (d.df + 0.5)) AS idf
			FROM ql CROSS JOIN st CROSS JOIN LATERAL (
				SELECT coalesce(sum(t.df), 0)::float8 AS df FROM term_df t
				WHERE t.tier = $1 AND t.term = ql.lexeme AND t.scope = $5 AND ($2::text[] IS NULL OR t.workspace_id = ANY($2::text[]))) d
			WHERE d.df > 0),
		sel AS MATERIALIZED (
			SELECT term FROM idf ORDER BY df, term
			LIMIT greatest(1, (SELECT count(*) FROM idf CROSS JOIN st WHERE idf.df <= $6 * st.n))),
		cand AS MATERIALIZED (
			-- impact-ordered: each selective term's postings by tf / length, highest first, so the
			-- index scan stops after maxCandidates even for a term found in most chunks
			SELECT DISTINCT x.chunk_id FROM sel CROSS JOIN LATERAL (
				SELECT x.chunk_id FROM chunk_terms x WHERE ${POSTINGS_OF('sel.term')}
				ORDER BY x.tf::float8 / greatest(x.doc_len, 1) DESC LIMIT $7) x),
		nc AS MATERIALIZED (SELECT $8::float8 * count(*) AS scan_max_df FROM cand),
		probed AS MATERIALIZED (SELECT array_agg(term) AS terms FROM idf, nc WHERE df > nc.scan_max_df),
		p AS (
			SELECT t.term, t.chunk_id, t.tf::float8 AS tf, t.doc_len FROM idf CROSS JOIN LATERAL (
				SELECT x.term, x.chunk_id, x.tf, x.doc_len FROM chunk_terms x WHERE ${POSTINGS_OF('idf.term')}) t
			WHERE idf.df <= (SELECT scan_max_df FROM nc) AND t.chunk_id IN (SELECT chunk_id FROM cand)
			UNION ALL
			SELECT t.term, t.chunk_id, t.tf::float8 AS tf, t.doc_len FROM probed CROSS JOIN cand
			CROSS JOIN LATERAL (SELECT x.term, x.chunk_id, x.tf, x.doc_len FROM chunk_terms x
				WHERE x.chunk_id = cand.chunk_id AND x.term = ANY(probed.terms) AND x.tier = $1 OFFSET 0) t
			WHERE probed.terms IS NOT NULL),
		scored AS (
			SELECT p.chunk_id, sum(idf.idf * (p.tf * ${k1 + 1}::float8) / (p.tf + ${k1}::float8 * (${1 - b}::float8 + ${b}::float8 * p.doc_len / st.avgdl)) ORDER BY p.term) AS score
			FROM p JOIN idf USING (term) CROSS JOIN st
			GROUP BY p.chunk_id ORDER BY score DESC, p.chunk_id LIMIT $4)
		SELECT ${COLS}, s.score::float8 AS score FROM scored s JOIN chunks c ON c.id = s.chunk_id ORDER BY s.score DESC, c.id`,
		[...params, commonDf, maxCandidates, scanPerCandidate],
	);
}

/**
 * Vector arm: cosine similarity (1 − pgvector's `<=>`) over the HNSW index, only vectors from
 * `embedder`, then the floor on cosine. The inner ORDER BY … LIMIT is what the index serves.
 */
export async function vectorArm(
	db: Queryable,
	scope: SearchScope,
	embedding: Float32Array,
	embedder: string,
	floor: number,
	limit: number,
): Promise<ArmRow[]> {
	return db.query<ArmRow>(
		`SELECT chunk_pk, doc_id, chunk_no, path, start_line, end_line, symbol, content, (1 - d)::float8 AS score FROM (
			SELECT ${COLS}, c.embedding <=> $3::vector AS d FROM chunks c
			WHERE ${SCOPE(7)} AND c.embedder = $5 AND c.embedding IS NOT NULL
			ORDER BY c.embedding <=> $3::vector LIMIT $4) s
		 WHERE 1 - d >= $6 ORDER BY d, chunk_pk`,
		[scope.tier, scope.workspaceIds, toVectorLiteral(embedding), limit, embedder, floor, scope.scope ?? scopeOf(db)],
	);
}

/**
 * Session settings for the vector arm: pgvector 0.8 iterative index scans keep returning rows
 * when the workspace filter removes candidates, instead of silently returning fewer than k.
 */
export const SEARCH_SETTINGS: Readonly<Record<string, string>> = {
	'hnsw.iterative_scan': 'relaxed_order',
	'hnsw.ef_search': '40',
};

/** SEARCH_SETTINGS as SET statements, for a session that is already open (PGlite's single session). */
export const SEARCH_SESSION_SQL = Object.entries(SEARCH_SETTINGS)
	.map(([k, v]) => `SET ${k} = ${v}`)
	.join('; ');
