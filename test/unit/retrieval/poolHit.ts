/** A hand-made pool hit for the file-ranking tests (no store): one chunk of `path`, its BM25 score if any. */
import type { SearchHit } from '../../../src/retrieval/hybridSearch';

export const hit = (path: string, n: number, bm25: number | null = null): SearchHit => ({
	id: path,
	chunk_id: `${path}#${n}`,
	path,
	start_line: 1,
	end_line: 10,
	symbol: null,
	score: 0,
	fused: 0,
	arms: { fts: bm25 === null ? null : { rank: 1, score: bm25 }, vector: null },
	rerank: null,
	content: '',
});
