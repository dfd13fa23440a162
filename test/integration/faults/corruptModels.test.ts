/**
 * A corrupt or truncated built-in model file (models/builtin, copied to a temp folder and damaged):
 * the reranker passes through with a note naming the file, the embedder is reported unavailable
 * with the reason (the host goes lexical-only), and search still answers — nothing throws.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../../src/core/thresholds';
import { ModelsRuntime, DEFAULT_MODEL_SETTINGS } from '../../../src/chat/modelsRuntime';
import { builtinModelDir, loadBuiltinEmbedder } from '../../../src/models/builtinEmbedder';
import type { Embedder } from '../../../src/models/embedder';
import { LinearReranker } from '../../../src/models/linearReranker';
import { runEvidenceStage } from '../../../src/retrieval/evidence/evidenceStage';
import { hybridSearch } from '../../../src/retrieval/hybridSearch';
import { ingestDocuments } from '../../../src/retrieval/ingest';
import { quietLogger } from '../../fixtures/hostDoubles';
import { suiteStore, testEngines } from '../../fixtures/store_engines';

const DOCS = [
	{
		id: 'cfg',
		path: 'src/config.ts',
		text: 'export function readJsonConfig(path: string) { return JSON.parse(readFileSync(path, "utf8")); }',
	},
	{
		id: 'cart',
		path: 'src/cart.ts',
		text: 'export function computeTotal(items: Item[]) { return items.reduce((s, i) => s + i.price, 0); }',
	},
];

/** A damaged copy of the built-in model folder; `damage` gets the copy's path. */
function damagedCopy(damage: (dir: string) => void): { dir: string; cleanup: () => void } {
	const base = mkdtempSync(join(tmpdir(), 'gmem-badmodel-'));
	const dir = join(base, 'builtin');
	cpSync(builtinModelDir(), dir, { recursive: true });
	damage(dir);
	return { dir, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

for (const engine of testEngines()) {
	describe(`faults: a corrupt or truncated built-in model file (${engine.name})`, function () {
		this.timeout(120_000);
		let embedder: Embedder;
		const store = suiteStore(engine, async (s) => {
			embedder = await loadBuiltinEmbedder();
			await ingestDocuments(s.db, DOCS, { workspaceId: 'ws', tier: 'workspace' }, embedder);
		});
		const hits = async (e: Embedder | null) =>
			(
				await hybridSearch(store().db, 'read json config', {
					tier: 'workspace',
					workspaceIds: ['ws'],
					k: 10,
					arm: e ? 'hybrid' : 'fts',
					embedder: e,
					cosineFloor: null,
					thresholds: DEFAULT_THRESHOLDS,
				})
			).hits;

		for (const [what, damage] of [
			[
				'reranker.json cut in half',
				(dir: string) =>
					writeFileSync(join(dir, 'reranker.json'), readFileSync(join(dir, 'reranker.json'), 'utf8').slice(0, 40)),
			],
			[
				'reranker.json replaced by garbage',
				(dir: string) => writeFileSync(join(dir, 'reranker.json'), '\u0000\u00ff not json'),
			],
		] as const) {
			it(`${what}: the reranker passes through with a note, the evidence is still selected`, async () => {
				const bad = damagedCopy(damage);
				try {
					const found = await hits(embedder);
					const out = await runEvidenceStage({
						query: 'read json config',
						candidates: found.map((hit) => ({ hit, tier: 'workspace' as const, text: hit.content })),
						reranker: new LinearReranker({ dir: bad.dir }),
						embedder: { id: embedder.id, semantic: embedder.semantic },
						cosineFloors: { workspace: 0 },
						k: 2,
						thresholds: DEFAULT_THRESHOLDS,
					});
					assert.equal(out.rerankStep.status, 'passthrough');
					assert.match(out.rerankStep.reason ?? '', /unavailable.*reranker\.json/);
					assert.ok(out.evidence.selected.length > 0, 'evidence still selected in first-stage order');
				} finally {
					bad.cleanup();
				}
			});
		}

		it('table.bin truncated: the embedder is unavailable with the reason (lexical-only), search still answers', async () => {
			const bad = damagedCopy((dir) => truncateSync(join(dir, 'table.bin'), 1000));
			try {
				const runtime = new ModelsRuntime({
					log: quietLogger,
					cacheDir: join(bad.dir, '..', 'cache'),
					settings: () => DEFAULT_MODEL_SETTINGS,
					builtinDir: bad.dir,
				});
				const active = await runtime.activeEmbedder();
				assert.equal(active.status, 'none');
				assert.match(active.status === 'none' ? active.reason : '', /table\.bin is 1000 bytes/);
				const reranker = runtime.activeReranker();
				assert.equal(reranker.status, 'ready', 'the reranker file is intact: the reranker stays');
				assert.equal((await hits(null))[0]?.path, 'src/config.ts', 'lexical-only search answers');
				await runtime.dispose();
			} finally {
				bad.cleanup();
			}
		});
	});
}
