/**
 * `gmem eval retrieval` and `gmem eval ab` end to end on a real store: a temporary PGlite folder
 * (the default), and the PostgreSQL server when GMEM_TEST_PG_URL is set (said plainly otherwise).
 */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { runCli } from '../../src/cli/main';
import { captureIo } from '../fixtures/captureIo';
import { serverUrl } from '../fixtures/store_engines';

const DIR = resolve(__dirname, '../fixtures/eval');
const CORPUS = resolve(DIR, 'corpus.jsonl');
const QUERIES = resolve(DIR, 'queries.jsonl');
const CONVERSATIONS = resolve(DIR, 'conversations.jsonl');

interface Arm {
	arm: string;
	measured: boolean;
	note: string | null;
	metrics: { queries: number; mrr_at_10: number; recall_at_10: number } | null;
	latency_ms: { p50: number; p95: number } | null;
}

async function retrieval(extra: string[]): Promise<{
	arms: Arm[];
	store: string;
	documents: number;
	embedder: { id: string; semantic: boolean } | null;
	reranker: string;
}> {
	const c = captureIo();
	const code = await runCli(['eval', 'retrieval', '--corpus', CORPUS, '--queries', QUERIES, '--json', ...extra], c.io);
	assert.equal(code, 0, c.err());
	return JSON.parse(c.out());
}

describe('gmem eval retrieval (PGlite temp folder)', function () {
	this.timeout(120_000);

	it('with no flags measures the product: the built-in embedder, and the built-in reranker on the rerank row', async () => {
		const e = await retrieval(['--limit', '6']);
		assert.match(e.embedder?.id ?? '', /^gmem-static-code-v\d+$/);
		assert.equal(e.embedder?.semantic, true);
		assert.equal(e.reranker, 'gmem-rerank-linear-v1');
		assert.ok(e.arms.every((a) => a.measured && !/NOT semantic/.test(a.note ?? '')));
		assert.match(e.arms[3]!.note ?? '', /^gmem-rerank-linear-v1 reranked 6 queries$/);
	});

	it('measures every arm on a fresh store and labels the hashing embedder (--embedder hashing) and the passthrough rerank', async () => {
		const e = await retrieval(['--embedder', 'hashing']);
		assert.equal(e.documents, 19);
		assert.match(e.store, /temporary PGlite folder/);
		assert.deepEqual(
			e.arms.map((a) => a.arm),
			['fts', 'vector', 'hybrid', 'hybrid+rerank'],
		);
		for (const a of e.arms) {
			assert.equal(a.measured, true);
			assert.equal(a.metrics!.queries, 12);
			assert.ok(a.latency_ms!.p95 >= a.latency_ms!.p50);
		}
		// Our queries name their files' words: full-text search must rank most answers high. A loose
		// bound: this checks the harness, not the ranking (which the store's own tests tune).
		assert.ok(e.arms[0]!.metrics!.mrr_at_10 >= 0.5, `fts MRR@10 ${e.arms[0]!.metrics!.mrr_at_10}`);
		assert.match(e.arms[1]!.note ?? '', /NOT semantic/);
		assert.match(e.arms[3]!.note ?? '', /passthrough/);
		// The rerank row's pool is wider (the chat path's), but on 19 documents both pools hold every
		// candidate, so a passthrough must give exactly the hybrid order.
		assert.deepEqual(e.arms[3]!.metrics, e.arms[2]!.metrics, 'a passthrough rerank keeps the hybrid order');
	});

	it('reports vector and hybrid as not measured in lexical-only mode; --limit caps the queries', async () => {
		const e = await retrieval(['--embedder', 'none', '--limit', '5']);
		assert.equal(e.arms[0]!.metrics!.queries, 5);
		assert.deepEqual(
			e.arms.map((a) => a.measured),
			[true, false, false, false],
		);
		assert.match(e.arms[1]!.note ?? '', /not measured/);
	});

	it('on the PostgreSQL server when GMEM_TEST_PG_URL is set', async function () {
		const url = serverUrl();
		if (!url) {
			process.stdout.write('\n  [eval retrieval] GMEM_TEST_PG_URL is not set: the server run is SKIPPED\n');
			this.skip();
		}
		const e = await retrieval(['--db', url!, '--limit', '4']);
		assert.match(e.store, /fresh workspace id/);
		assert.equal(e.arms[0]!.metrics!.queries, 4);
	});
});

describe('gmem eval ab (PGlite temp folder)', function () {
	this.timeout(240_000);

	it('replays the fixture conversations: the gate saves retrievals and keeps evidence off unneeded turns', async () => {
		const c = captureIo();
		assert.equal(await runCli(['eval', 'ab', CONVERSATIONS, '--baseline', 'seed', '--json'], c.io), 0, c.err());
		const e = JSON.parse(c.out());
		assert.equal(e.corpus.endsWith('corpus.jsonl'), true, 'the corpus beside the file is the default');
		assert.equal(e.chars_per_token, 4);
		const [always, gated, , pipeAlways, pipeGated] = e.arms;
		assert.deepEqual(
			e.arms.map((a: { arm: string }) => a.arm),
			['always-retrieve', 'gated-memory', 'seed-baseline', 'always-retrieve (pipeline)', 'gated-memory (pipeline)'],
		);
		// The product's turn (gmem chat's pipeline) decides as decideTurn does on the same history.
		assert.equal(pipeGated.turns_retrieved, gated.turns_retrieved);
		assert.equal(pipeGated.needed.recall, gated.needed.recall);
		assert.equal(pipeAlways.turns_retrieved, 70, 'the forcing hook retrieves on every turn');
		assert.ok(pipeGated.evidence_tokens < pipeAlways.evidence_tokens);
		assert.ok(pipeGated.needless.rate < pipeAlways.needless.rate);
		assert.equal(always.turns_retrieved, 70);
		assert.equal(always.needless.rate, 1, 'always-retrieve puts evidence on every turn');
		assert.ok(gated.retrievals_saved > 0);
		assert.ok(gated.evidence_tokens < always.evidence_tokens);
		assert.ok(gated.needless.rate < always.needless.rate);
		assert.ok(gated.needed.recall > 0.5);
	});
});
