/**
 * Hybrid search behaviour on both engines (full-text query strategy, vector-only and lexical-only
 * modes, the cosine floor, RRF bookkeeping), plus the pure pieces it is built from.
 */
import assert from 'node:assert/strict';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { HashingEmbedder } from '../../src/models/hashingEmbedder';
import { chunkText } from '../../src/retrieval/chunkText';
import { codeTokens, searchTextFor, splitIdentifier } from '../../src/retrieval/codeTokens';
import { reciprocalRankFusion } from '../../src/retrieval/fusion';
import { hybridSearch, type SearchOptions } from '../../src/retrieval/hybridSearch';
import { ingestDocuments } from '../../src/retrieval/ingest';
import { formulateQuery, salientTerms } from '../../src/retrieval/queryTerms';
import type { Store } from '../../src/store/openStore';
import { suiteStore, testEngines } from '../fixtures/store_engines';

const embedder = new HashingEmbedder(384, codeTokens);
const base: SearchOptions = {
	tier: 'workspace',
	workspaceIds: ['ws'],
	k: 5,
	arm: 'hybrid',
	embedder,
	cosineFloor: null,
	thresholds: DEFAULT_THRESHOLDS,
};

const DOCS = [
	{
		id: 'http',
		text: 'export function parseHttpHeader(line: string) { return line.split(":"); }',
		path: 'src/http/header.ts',
	},
	{
		id: 'cache',
		text: 'class LruCache:\n    def evict_oldest(self):\n        self.items.popitem(last=False)',
		path: 'cache/lru.py',
	},
	{ id: 'db', text: 'connection pool exhausted: increase max connections or release clients', path: null },
	{ id: 'zeta', text: 'zeta quux frobnicate', path: null },
];

for (const engine of testEngines()) {
	describe(`hybrid search (${engine.name})`, function () {
		this.timeout(120_000);
		const current = suiteStore(engine, async (s) => {
			await ingestDocuments(s.db, DOCS, { workspaceId: 'ws', tier: 'workspace' }, embedder);
		});
		let store: Store;
		beforeEach(() => {
			store = current();
		});

		it('BM25 ranks by term statistics and records each arm', async () => {
			const r = await hybridSearch(store.db, 'parse http header', base);
			assert.equal(r.fts_query, 'bm25');
			assert.equal(r.hits[0].id, 'http');
			assert.equal(r.hits[0].arms.fts?.rank, 1);
			assert.ok(r.hits[0].arms.fts!.score > 0);
			assert.equal(r.hits[0].arms.vector?.rank, 1);
			const expected = 1 / (60 + 1) + 1 / (60 + 1);
			assert.ok(Math.abs(r.hits[0].fused - expected) < 1e-12);
		});

		it('ts_rank_cd: websearch AND first, OR of salient terms when the AND finds nothing', async () => {
			const opts = { ...base, arm: 'fts' as const, ftsRanking: 'ts_rank_cd' as const };
			const and = await hybridSearch(store.db, 'evict oldest', opts);
			assert.equal(and.fts_query, 'websearch');
			assert.equal(and.hits[0].id, 'cache');
			const or = await hybridSearch(store.db, 'evict oldest connection', opts);
			assert.equal(or.fts_query, 'or');
			assert.deepEqual(or.hits.map((h) => h.id).sort(), ['cache', 'db']);
		});

		it('a long query (an issue text) uses the OR of its salient terms', async () => {
			const issue =
				'When the server is under load I see "connection pool exhausted" errors in the logs, followed by timeouts in every request handler; restarting helps for a while but then it happens again';
			const r = await hybridSearch(store.db, issue, { ...base, arm: 'fts', ftsRanking: 'ts_rank_cd' });
			assert.equal(r.fts_query, 'or');
			assert.equal(r.hits[0].id, 'db');
		});

		it('a long query fuses the vector arm with the long-query weight, and says so', async () => {
			const padding = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
			const long = await hybridSearch(store.db, `parse http header ${padding}`, base);
			const w = base.thresholds.rrf_weight_vector_long_query;
			assert.notEqual(w, base.thresholds.rrf_weight_vector, 'the test needs the two weights to differ');
			for (const h of long.hits) {
				const expected =
					(h.arms.fts ? 1 / (60 + h.arms.fts.rank) : 0) + (h.arms.vector ? w / (60 + h.arms.vector.rank) : 0);
				assert.ok(Math.abs(h.fused - expected) < 1e-12, `${h.id}: fused ${h.fused}, expected ${expected}`);
			}
			assert.ok(
				long.notes.some((n) => /long query \(43 words\): vector arm weighted 0\.25/.test(n)),
				long.notes.join(' | '),
			);
			const short = await hybridSearch(store.db, 'parse http header', base);
			assert.ok(!short.notes.some((n) => /long query/.test(n)));
		});

		it('falls back to vector-only results when the full-text arm finds nothing', async () => {
			const none = await hybridSearch(store.db, 'qwertyuiop', base);
			assert.ok(none.hits.every((h) => h.arms.fts === null && h.arms.vector !== null));
			assert.ok(none.notes.some((n) => /vector-only/.test(n)));
		});

		it('runs lexical-only without an embedder, and says so', async () => {
			const r = await hybridSearch(store.db, 'lru cache', { ...base, embedder: null });
			assert.equal(r.hits[0].id, 'cache');
			assert.ok(r.hits.every((h) => h.arms.vector === null));
			assert.ok(r.notes.some((n) => /lexical-only/.test(n)));
		});

		it('applies the floor to the cosine of the vector arm only', async () => {
			const r = await hybridSearch(store.db, 'parse http header', { ...base, cosineFloor: 0.99 });
			assert.ok(r.hits.every((h) => h.arms.vector === null || h.arms.vector.score >= 0.99));
			assert.equal(r.hits[0].id, 'http', 'the full-text arm is not floored');
		});

		it('says the hashing embedder is not semantic', async () => {
			const r = await hybridSearch(store.db, 'cache', base);
			assert.ok(r.notes.some((n) => /NOT semantic/.test(n)));
		});
	});
}

describe('search building blocks', () => {
	it('splits identifiers and paths', () => {
		assert.deepEqual(splitIdentifier('getHTTPResponse_code'), ['get', 'http', 'response', 'code']);
		assert.deepEqual(codeTokens('src/fooBar.ts'), ['src', 'foo', 'bar', 'ts']);
		assert.match(
			searchTextFor('x = parseHttpHeader(y)', 'src/net/httpClient.ts'),
			/parse http header[\s\S]*src net http client ts/,
		);
	});

	it('keeps identifiers first among salient terms and drops chatter', () => {
		assert.deepEqual(salientTerms('can you please explain why parseConfig fails on config.toml', 10), [
			'parseConfig',
			'config.toml',
			'fails',
		]);
	});

	it('formulates a follow-up query with the identifiers of the turns it depends on', () => {
		const history = [
			'Why does parseConfig throw a KeyError on settings.toml?',
			'Because the [server] table is missing.',
		];
		const f = formulateQuery('and how do I fix it?', history, true, 32);
		assert.deepEqual(f.borrowed, ['parseConfig', 'KeyError', 'settings.toml']);
		assert.equal(f.query, 'fix parseConfig KeyError settings.toml');
		assert.deepEqual(formulateQuery('and how do I fix it?', history, false, 32).borrowed, []);
	});

	it('fuses by weighted reciprocal rank and keeps each arm', () => {
		const f = reciprocalRankFusion(
			[
				{
					weight: 1,
					items: [
						{ key: 'a', score: 3 },
						{ key: 'b', score: 2 },
					],
				},
				{ weight: 2, items: [{ key: 'b', score: 0.9 }] },
			],
			60,
		);
		assert.deepEqual(
			f.map((x) => x.key),
			['b', 'a'],
		);
		assert.deepEqual(f[0].arms, [
			{ rank: 2, score: 2 },
			{ rank: 1, score: 0.9 },
		]);
		assert.ok(Math.abs(f[0].fused - (1 / 62 + 2 / 61)) < 1e-12);
	});

	it('chunks long text by lines with symbols', () => {
		const text = Array.from({ length: 150 }, (_, i) => (i % 30 === 0 ? `def f${i}():` : `    x = ${i}`)).join('\n');
		const chunks = chunkText(text);
		assert.ok(chunks.length >= 3);
		assert.equal(chunks[0].startLine, 1);
		assert.equal(chunks[0].symbol, 'f0');
		for (let i = 1; i < chunks.length; i++) assert.equal(chunks[i].startLine, chunks[i - 1].endLine + 1);
		assert.equal(chunks.at(-1)!.endLine, 150);
	});

	it('hashing embedder vectors are unit length and deterministic', async () => {
		const [a, b] = await embedder.embed(['hello world', 'hello world']);
		assert.deepEqual(a, b);
		assert.ok(Math.abs(a.reduce((s, x) => s + x * x, 0) - 1) < 1e-5);
		assert.equal(embedder.semantic, false);
	});
});
