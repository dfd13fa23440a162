/**
 * Per-stage timing of one retrieval without touching the pipeline: the store connection, the
 * reranker and the query embedding are wrapped, and each records when it started and ended. Which
 * statement is which arm is read from its SQL (the texts in src/store/searchQueries.ts,
 * symbolSearch.ts and frameChunks.ts). The stages between the recorded spans are derived:
 *   prep      pipeline start → first arm statement, minus the frame lookups (query terms, parsing)
 *   phrase    the raising-site phrase query of a pasted error (phraseChunks.ts; other_sql before 2026-12-03)
 *   arms      first arm statement start → last arm statement end (they may overlap on a pool)
 *   fusion    last arm end → rerank start (RRF, symbol ranking, priors, pins)
 *   evidence  rerank end → the pipeline's return (evidence selection, file ranking, result)
 */
import type { Embedder } from '../../src/models/embedder';
import type { Reranker } from '../../src/models/reranker';
import type { Queryable } from '../../src/store/queryable';

export const SQL_STAGES = ['bm25', 'vector', 'symbol', 'frames', 'phrase', 'other_sql'] as const;
export type SqlStage = (typeof SQL_STAGES)[number];
export const STAGES = [
	'embed',
	'prep',
	'frames',
	'phrase',
	'bm25',
	'vector',
	'symbol',
	'arms',
	'fusion',
	'rerank',
	'evidence',
	'other_sql',
	'total',
] as const;
export type Stage = (typeof STAGES)[number];

/** Which statement this is, by the text each query function sends. */
export function sqlStage(sql: string): SqlStage {
	if (sql.includes('WITH ql AS MATERIALIZED') || sql.includes('ts_rank_cd(c.tsv')) return 'bm25';
	if (sql.includes('c.embedding <=> $3::vector')) return 'vector';
	if (sql.includes('AS q(leaf')) return 'symbol';
	if (sql.includes('AS q(path, line)') || sql.includes("regexp_replace(x.path, '^.*/', '')")) return 'frames';
	if (sql.includes('phraseto_tsquery')) return 'phrase';
	return 'other_sql';
}

interface Span {
	stage: SqlStage | 'embed' | 'rerank';
	start: number;
	end: number;
}

/** Collects the spans of one retrieval at a time (reset before each). */
export class StageClock {
	private spans: Span[] = [];

	reset(): void {
		this.spans = [];
	}

	async time<T>(stage: Span['stage'], run: () => Promise<T>): Promise<T> {
		const start = performance.now();
		try {
			return await run();
		} finally {
			this.record(stage, start, performance.now());
		}
	}

	/** Adds a span (performance.now() milliseconds). */
	record(stage: Span['stage'], start: number, end: number): void {
		this.spans.push({ stage, start, end });
	}

	/** The stages of the retrieval that ran from `start` to `end` (embedding included). */
	stages(start: number, end: number): Record<Stage, number> {
		const sum = (s: Span['stage']) =>
			this.spans.filter((x) => x.stage === s).reduce((a, x) => a + (x.end - x.start), 0);
		const arms = this.spans.filter((x) => x.stage === 'bm25' || x.stage === 'vector' || x.stage === 'symbol');
		const rerank = this.spans.find((x) => x.stage === 'rerank');
		const embed = this.spans.find((x) => x.stage === 'embed');
		const pipelineStart = embed ? embed.end : start;
		const armsStart = arms.length ? Math.min(...arms.map((x) => x.start)) : pipelineStart;
		const armsEnd = arms.length ? Math.max(...arms.map((x) => x.end)) : armsStart;
		const frames = sum('frames');
		const phrase = sum('phrase');
		const rerankStart = rerank ? rerank.start : armsEnd;
		const rerankEnd = rerank ? rerank.end : armsEnd;
		return {
			embed: sum('embed'),
			prep: Math.max(0, armsStart - pipelineStart - frames),
			frames,
			phrase,
			bm25: sum('bm25'),
			vector: sum('vector'),
			symbol: sum('symbol'),
			arms: armsEnd - armsStart,
			fusion: Math.max(0, rerankStart - armsEnd),
			rerank: rerankEnd - rerankStart,
			evidence: Math.max(0, end - rerankEnd),
			other_sql: sum('other_sql'),
			total: end - start,
		};
	}

	/** The same connection, every statement timed under its stage. */
	queryable(db: Queryable): Queryable {
		return {
			get engine() {
				return db.engine;
			},
			scope: db.scope,
			query: (sql, params) => this.time(sqlStage(sql), () => db.query(sql, params)),
			transaction: (fn) => db.transaction(fn),
			close: () => db.close(),
		};
	}

	/** The same reranker, its call timed. */
	reranker(r: Reranker): Reranker {
		return { id: r.id, rerank: (q, p, s, c) => this.time('rerank', () => r.rerank(q, p, s, c)) };
	}

	/**
	 * Embeds the query as the chat turn does (WorkspaceMemory.retrieve: once, before the pipeline)
	 * and returns an embedder that answers with that vector.
	 */
	async embedQuery(embedder: Embedder, query: string): Promise<Embedder> {
		const [v] = await this.time('embed', () => embedder.embed([query]));
		return { id: embedder.id, dim: embedder.dim, semantic: embedder.semantic, embed: async () => [v!] };
	}
}
