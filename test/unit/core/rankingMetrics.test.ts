import assert from 'node:assert/strict';
import { cell, emptyMultiConfusion, multiMetrics, tallyMulti } from '../../../src/core/metrics/confusion';
import { latencySummary, percentile } from '../../../src/core/metrics/percentiles';
import { ndcgAt, recallAt, reciprocalRankAt, summarizeRankings } from '../../../src/core/metrics/rankingMetrics';

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} ≠ ${b}`);

describe('ranking metrics (hand-computed)', () => {
	const ranked = ['d', 'a', 'x', 'b', 'y'];
	const rel = new Set(['a', 'b']);

	it('reciprocal rank: first relevant at rank 2 → 0.5; outside k → 0', () => {
		close(reciprocalRankAt(ranked, rel, 10), 0.5);
		close(reciprocalRankAt(ranked, rel, 1), 0);
		close(reciprocalRankAt([], rel, 10), 0);
	});

	it('recall@k counts the share of relevant ids found', () => {
		close(recallAt(ranked, rel, 1), 0);
		close(recallAt(ranked, rel, 2), 0.5);
		close(recallAt(ranked, rel, 5), 1);
		close(recallAt(['a', 'a'], rel, 2), 0.5); // a repeated hit counts once
		close(recallAt(ranked, new Set(), 5), 0);
	});

	it('nDCG@k: DCG = 1/log2(3) + 1/log2(5), IDCG = 1 + 1/log2(3)', () => {
		const dcg = 1 / Math.log2(3) + 1 / Math.log2(5);
		const idcg = 1 + 1 / Math.log2(3);
		close(ndcgAt(ranked, rel, 10), dcg / idcg);
		close(ndcgAt(['a', 'b'], rel, 10), 1);
		close(ndcgAt(['x'], rel, 10), 0);
		// one relevant id at rank 3 of k = 10: 1/log2(4) = 0.5
		close(ndcgAt(['x', 'y', 'a'], new Set(['a']), 10), 0.5);
	});

	it('summary averages over queries, including the ones that found nothing', () => {
		const s = summarizeRankings([
			{ ranked: ['a', 'x'], relevant: ['a'] },
			{ ranked: ['x', 'y', 'z', 'w', 'v', 'b'], relevant: ['b'] },
			{ ranked: ['x'], relevant: ['c'] },
		]);
		assert.equal(s.queries, 3);
		close(s.mrr_at_10, (1 + 1 / 6) / 3);
		close(s.recall_at_1, 1 / 3);
		close(s.recall_at_5, 1 / 3);
		close(s.recall_at_10, 2 / 3);
		close(s.ndcg_at_10, (1 + 1 / Math.log2(7)) / 3);
		assert.equal(summarizeRankings([]).mrr_at_10, 0);
	});
});

describe('percentiles (nearest rank)', () => {
	it('returns measured values', () => {
		const xs = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
		assert.equal(percentile(xs, 50), 5);
		assert.equal(percentile(xs, 95), 10);
		assert.equal(percentile(xs, 0), 1);
		assert.equal(percentile([], 50), 0);
		assert.deepEqual(latencySummary([3]), { p50: 3, p95: 3 });
	});
});

describe('multi-class confusion', () => {
	it('counts gold × predicted and derives per-class recall/precision', () => {
		const m = emptyMultiConfusion(['rag', 'direct', 'tool']);
		for (const [g, p] of [
			['rag', 'rag'],
			['rag', 'direct'],
			['direct', 'direct'],
			['tool', 'rag'],
			['clarify', 'clarify'],
		] as const)
			tallyMulti(m, g, p);
		assert.equal(m.n, 5);
		assert.equal(cell(m, 'tool', 'rag'), 1);
		assert.deepEqual(m.labels, ['rag', 'direct', 'tool', 'clarify']);
		const r = multiMetrics(m);
		close(r.accuracy, 3 / 5);
		const rag = r.classes.find((c) => c.label === 'rag')!;
		assert.equal(rag.support, 2);
		close(rag.recall, 0.5);
		close(rag.precision, 0.5);
		const tool = r.classes.find((c) => c.label === 'tool')!;
		assert.deepEqual([tool.support, tool.recall, tool.precision], [1, 0, 0]);
	});
});
