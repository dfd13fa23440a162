/**
 * The file-level BM25 arm (issue 15 item 2): when files are ranked, the full-text arm runs once
 * more with every query term selective (no common-term cut) and a wider candidate bound, so the
 * BM25-sum file list (fileRanking.ts) sees what whole-file BM25 sees — a file that matches many
 * ordinary words of a question in several chunks — even when none of its chunks reached the fused
 * pool. Only in files mode (`gmem search --files`, the evals, file localisation): the chat turn's
 * chunk evidence never pays for it.
 */
import type { Thresholds } from '../core/thresholds';
import type { Queryable } from '../store/queryable';
import { ftsArm, type SearchScope } from '../store/searchQueries';
import type { SearchHit } from './hybridSearch';
import { ftsQueryText, salientTerms } from './queryTerms';
import type { RetrievalTuning } from './retrievalThresholds';

/** Chunks by BM25 over all of `query`'s salient terms, best first, as hits with their full-text score. */
export async function fileBm25Chunks(
	db: Queryable,
	scope: SearchScope,
	query: string,
	t: Thresholds,
	tuning: RetrievalTuning,
): Promise<SearchHit[]> {
	const n = tuning.file_bm25_candidates;
	const searched = ftsQueryText(salientTerms(query, t.fts_max_query_terms));
	if (n === 0 || !searched.trim()) return [];
	const rows = await ftsArm(db, scope, searched, 'bm25', n, { commonDf: 1, maxCandidates: n });
	return rows.map((r, i) => ({
		id: r.doc_id,
		chunk_id: `${r.doc_id}#${r.chunk_no}`,
		path: r.path,
		start_line: r.start_line,
		end_line: r.end_line,
		symbol: r.symbol,
		score: r.score,
		fused: 0,
		arms: { fts: { rank: i + 1, score: r.score }, vector: null },
		rerank: null,
		content: r.content,
	}));
}
