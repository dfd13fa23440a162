/**
 * The CLI runs the product (CONTRACT.md, issue 15): with no flags, `gmem search` / `gmem eval
 * retrieval` resolve the same configuration as the extension's chat turn — embedder, reranker,
 * pool sizes per arm, floor — and the one retrieval function fetches exactly those pool sizes.
 * Both sides are built here from their own resolvers; nothing imports `vscode`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliRetrievalConfig, SEARCH_DEFAULT_K } from '../../src/cli/cliModels';
import { decideTurn } from '../../src/core/decide';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { DEFAULT_MODEL_SETTINGS } from '../../src/chat/modelsRuntime';
import { extensionRetrievalConfig, parseModelSettings } from '../../src/chat/retrievalConfig';
import type { Embedder } from '../../src/models/embedder';
import type { Reranker } from '../../src/models/reranker';
import { retrieveWorkspace } from '../../src/retrieval/workspaceRetrieval';
import type { Queryable } from '../../src/store/queryable';

const T = DEFAULT_THRESHOLDS;

/** The extension's settings as a fresh install has them: package.json's contributed defaults. */
function contributedSettings() {
	const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
		contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
	};
	const props = pkg.contributes.configuration.properties;
	return parseModelSettings((key) => props[`gatedMemory.models.${key}`]?.default);
}

/** The decision of a plain workspace question (what `gmem search QUERY` stands for). */
const question = decideTurn({ history: [], utterance: 'where is the config file parsed?' }).policy;

describe('retrieval defaults: the CLI and the extension', () => {
	it('a fresh install of the extension uses the built-in embedder and reranker (package.json = DEFAULT_MODEL_SETTINGS)', () => {
		const s = contributedSettings();
		assert.deepEqual([s.embedder, s.reranker], ['builtin', 'builtin']);
		assert.deepEqual([s.embedder, s.reranker], [DEFAULT_MODEL_SETTINGS.embedder, DEFAULT_MODEL_SETTINGS.reranker]);
	});

	it('resolve the same configuration with no flags (embedder, reranker, pool sizes per arm, floor)', () => {
		assert.ok(question.rag_k > 0, 'the question retrieves the workspace');
		const ext = extensionRetrievalConfig(contributedSettings(), question, T);
		const cli = cliRetrievalConfig({ k: question.rag_k }, {}, T);
		assert.deepEqual(cli, ext);
		// And at the CLI's own default k, so `gmem search` with no flags at all is the same search.
		assert.deepEqual(
			cliRetrievalConfig({}, {}, T),
			extensionRetrievalConfig(contributedSettings(), { ...question, rag_k: SEARCH_DEFAULT_K }, T),
		);
		// The numbers themselves, so a change to both sides at once is still seen here.
		assert.deepEqual(ext, {
			embedder: 'builtin',
			reranker: 'builtin',
			arm: 'hybrid',
			floor: 0,
			k: 4,
			pool: 12,
			fetch_per_arm: { fts: 36, vector: 36 },
		});
	});

	it('the hashing test embedder is only an explicit choice, and then the comparison tells', () => {
		assert.equal(cliRetrievalConfig({}, {}, T).embedder, 'builtin');
		assert.equal(cliRetrievalConfig({ embedder: 'hashing' }, {}, T).embedder, 'hashing');
		assert.equal(cliRetrievalConfig({}, { GMEM_EMBEDDER: 'hashing' }, T).embedder, 'hashing');
		assert.notDeepEqual(
			cliRetrievalConfig({ k: question.rag_k, 'no-rerank': true }, {}, T),
			extensionRetrievalConfig(contributedSettings(), question, T),
		);
	});

	it('retrieveWorkspace fetches exactly the configured pool sizes per arm', async () => {
		const limits: Record<'fts' | 'vector', number[]> = { fts: [], vector: [] };
		const db: Queryable = {
			engine: 'pglite',
			async query<R extends object>(sql: string, params?: readonly unknown[]): Promise<R[]> {
				// Both arms put their LIMIT in $4; the vector arm is the one ordering by cosine distance.
				if (/LIMIT \$4/.test(sql)) limits[sql.includes('<=>') ? 'vector' : 'fts'].push(Number(params?.[3]));
				return [];
			},
			transaction: () => Promise.reject(new Error('not used')),
			close: async () => undefined,
		};
		const embedder: Embedder = {
			id: 'gmem-static-code-v2',
			dim: 384,
			semantic: true,
			embed: async (texts) => texts.map(() => new Float32Array(384).fill(1 / Math.sqrt(384))),
		};
		const reranker: Reranker = {
			id: 'fake',
			rerank: async (_q, passages) => ({ scores: passages.map(() => 0), status: 'model' }),
		};
		const config = cliRetrievalConfig({}, {}, T);
		const out = await retrieveWorkspace(db, {
			query: 'where is the config file parsed',
			workspaceIds: ['ws'],
			k: config.k,
			embedder,
			reranker,
			floor: config.floor,
			thresholds: T,
		});
		assert.deepEqual(
			{ k: out.plan.k, pool: out.plan.pool, fetch_per_arm: out.plan.fetch_per_arm },
			{ k: config.k, pool: config.pool, fetch_per_arm: config.fetch_per_arm },
		);
		assert.deepEqual(limits, { fts: [config.fetch_per_arm.fts], vector: [config.fetch_per_arm.vector] });
		// Without a reranker the pool is k (nothing to widen for), as in the chat path.
		limits.fts = [];
		const plain = await retrieveWorkspace(db, {
			query: 'where is the config file parsed',
			workspaceIds: ['ws'],
			k: 4,
			embedder: null,
			reranker: null,
			floor: 0,
			thresholds: T,
		});
		assert.deepEqual([plain.plan.pool, limits.fts], [4, [4 * T.arm_fetch_multiplier]]);
	});
});
